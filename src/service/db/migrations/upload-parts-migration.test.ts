import { describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { openDatabase } from '../open-database.js';
import { migrations } from './index.js';
import { tempDir } from '../../../../test/support/temp-dir.js';

describe('migration 0004: upload_parts without rowid', () => {
  it('keeps the parts a data directory of schema 3 recorded, and their upload link', () => {
    const file = join(tempDir('parts-migration-'), 'service.db');
    const old = new Database(file);
    old.pragma('foreign_keys = ON');
    for (const sql of migrations.slice(0, 3)) old.exec(sql);
    old.pragma('user_version = 3');
    old.prepare("INSERT INTO accounts (id, subdomain, name, date_created) VALUES ('acc', 'local', 'Local', 'now')").run();
    old.prepare("INSERT INTO assets (id, account_id, state, date_created, date_last_modified) VALUES ('asset', 'acc', 'STAGED', 'now', 'now')").run();
    old.prepare(
      "INSERT INTO uploads (upload_id, id, account_id, asset_id, filename, size, part_size, part_count, created_by, date_created, last_activity) VALUES ('up', 'u1', 'acc', 'asset', 'a.bin', 20, 10, 2, 'user', 'now', 0)",
    ).run();
    old.prepare("INSERT INTO upload_parts (upload_id, part_number, size, etag) VALUES ('up', 2, 10, 'bb'), ('up', 1, 10, 'aa')").run();
    old.close();

    const db = openDatabase(file);
    try {
      expect(db.pragma('user_version', { simple: true })).toBe(migrations.length);
      expect(db.prepare('SELECT part_number, size, etag FROM upload_parts WHERE upload_id = ? ORDER BY part_number').all('up')).toEqual([
        { part_number: 1, size: 10, etag: 'aa' },
        { part_number: 2, size: 10, etag: 'bb' },
      ]);
      expect(() => db.prepare('SELECT rowid FROM upload_parts').all()).toThrow(/rowid/);
      // Still one row per part, and still tied to its upload.
      expect(() => db.prepare("INSERT INTO upload_parts (upload_id, part_number, size, etag) VALUES ('up', 1, 10, 'cc')").run()).toThrow(/UNIQUE/);
      expect(() => db.prepare("INSERT INTO upload_parts (upload_id, part_number, size, etag) VALUES ('nope', 1, 10, 'cc')").run()).toThrow(/FOREIGN KEY/);
      db.prepare("DELETE FROM uploads WHERE upload_id = 'up'").run();
      expect(db.prepare('SELECT count(*) AS n FROM upload_parts').get()).toEqual({ n: 0 });
    } finally {
      db.close();
    }
  });
});
