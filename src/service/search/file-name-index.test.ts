import { afterEach, describe, expect, it, vi } from 'vitest';
import { openDatabase, type Db } from '../db/open-database.js';
import { accountsRepo } from '../accounts/accounts-repo.js';
import { assetSeeder } from '../../../test/support/seed-assets.js';
import { FILE_NAME_CHUNK, FileNameIndexing, fileNameIndex } from './file-name-index.js';

describe('the file-name index and its tail', () => {
  let db: Db | undefined;
  let indexing: FileNameIndexing | undefined;
  afterEach(() => {
    indexing?.close();
    db?.close();
  });

  const library = (files: number): Db => {
    const opened = openDatabase(':memory:');
    const account = accountsRepo(opened).createAccount('a', 'A', '2026-01-01T00:00:00.000Z');
    const seed = assetSeeder(opened);
    opened.transaction(() => {
      for (let index = 0; index < files; index++) seed.insert({ accountId: account.id, id: `a${index}`, filename: `file ${index}.png` });
    })();
    return opened;
  };
  const tail = (opened: Db): number =>
    opened.prepare<[], number>(`SELECT count(*) FROM asset_files WHERE rowid > (SELECT indexed_through FROM text_index_progress WHERE name = 'file_names')`).pluck().get() ?? 0;

  it('takes a chunk of the tail per commit, in order, and says how many', () => {
    db = library(FILE_NAME_CHUNK + 10);
    const index = fileNameIndex(db);
    expect(tail(db)).toBe(FILE_NAME_CHUNK + 10);
    expect(index.catchUp()).toBe(FILE_NAME_CHUNK);
    expect(tail(db)).toBe(10);
    expect(index.catchUp()).toBe(10);
    expect(index.catchUp()).toBe(0);
    db.prepare(`INSERT INTO file_name_trigrams (file_name_trigrams, rank) VALUES ('integrity-check', 1)`).run();
  });

  it('runs at start until caught up, a chunk a turn, then again for files added later', async () => {
    db = library(2 * FILE_NAME_CHUNK + 1);
    const opened = db;
    const errors: unknown[] = [];
    indexing = new FileNameIndexing(fileNameIndex(db), (error) => errors.push(error), 20);
    indexing.start();
    await vi.waitFor(() => expect(tail(opened)).toBe(0));
    const accountId = db.prepare<[], string>('SELECT id FROM accounts').pluck().get() ?? '';
    assetSeeder(db).insert({ accountId, id: 'later', filename: 'later.png' });
    expect(tail(db)).toBe(1);
    await vi.waitFor(() => expect(tail(opened)).toBe(0));
    expect(errors).toEqual([]);
  });

  it('reports a failure and tries again on its next turn', async () => {
    let calls = 0;
    const errors: unknown[] = [];
    indexing = new FileNameIndexing(
      {
        catchUp: () => {
          calls++;
          if (calls === 1) throw new Error('database is locked');
          return 0;
        },
        catchUpAll: () => undefined,
        markAllIndexed: () => undefined,
      },
      (error) => errors.push(error),
      5,
    );
    indexing.start();
    await vi.waitFor(() => expect(calls).toBeGreaterThanOrEqual(2));
    expect(errors).toHaveLength(1);
  });
});
