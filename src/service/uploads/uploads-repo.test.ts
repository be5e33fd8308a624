import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { openDatabase, type Db } from '../db/open-database.js';
import { uploadsRepo, type UploadsRepo } from './uploads-repo.js';
import { tempDir } from '../../../test/support/temp-dir.js';

describe('uploadsRepo: what a part PUT reads and writes', () => {
  let db: Db;
  let uploads: UploadsRepo;
  beforeEach(() => {
    db = openDatabase(join(tempDir('uploads-repo-'), 'service.db'));
    db.prepare("INSERT INTO accounts (id, subdomain, name, date_created) VALUES ('acc', 'local', 'Local', 'now')").run();
    db.prepare("INSERT INTO assets (id, account_id, state, date_created, date_last_modified) VALUES ('asset', 'acc', 'STAGED', 'now', 'now')").run();
    uploads = uploadsRepo(db);
    uploads.insert({
      upload_id: 'up',
      id: 'u1',
      account_id: 'acc',
      asset_id: 'asset',
      replace_file_id: null,
      filename: 'a.bin',
      folder_option_id: null,
      size: 20,
      part_size: 10,
      part_count: 2,
      created_by: 'user',
      date_created: 'now',
      last_activity: 0,
      guest_upload_id: null,
    });
  });
  afterEach(() => {
    db.close();
  });

  it('answers the upload together with whether the part is recorded', () => {
    expect(uploads.forPart('up', 1)).toEqual({ upload: uploads.get('up'), hasPart: false });
    expect(uploads.putPart('up', 1, 10, 'aa')).toBe(true);
    expect(uploads.forPart('up', 1)?.hasPart).toBe(true);
    expect(uploads.forPart('up', 2)?.hasPart).toBe(false);
    expect(uploads.forPart('gone', 1)).toBeUndefined();
  });

  it('records a part again in place, and nothing once the upload is gone', () => {
    expect(uploads.putPart('up', 1, 10, 'aa')).toBe(true);
    expect(uploads.putPart('up', 1, 10, 'bb')).toBe(true);
    expect(uploads.parts('up')).toEqual([{ part_number: 1, size: 10, etag: 'bb' }]);
    uploads.remove('up');
    expect(uploads.putPart('up', 1, 10, 'cc')).toBe(false);
    expect(db.prepare('SELECT count(*) AS n FROM upload_parts').get()).toEqual({ n: 0 });
  });
});
