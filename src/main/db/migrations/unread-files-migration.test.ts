import Database from 'better-sqlite3';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStateDb } from '../open-state-db.js';
import { migrations } from './index.js';
import { tempDir } from '../../../../test/support/temp-dir.js';

describe('migration 0003: unread files', () => {
  /** A state database as the previous release left it (schema 2), with one row in each rebuilt table. */
  function schemaTwo(): string {
    const dir = tempDir('asset-sync-migration-');
    const file = join(dir, 'state.db');
    const db = new Database(file);
    migrations.slice(0, 2).forEach((sql) => db.exec(sql));
    db.pragma('user_version = 2');
    db.prepare("INSERT INTO roots (id, path, server, remote_path, date_created) VALUES ('r1', '/sync', 'http://127.0.0.1:1', '/', 'now')").run();
    db.prepare("INSERT INTO local_files VALUES ('r1', 'a.png', 3, 1.5, 7, 1, 'abc')").run();
    db.prepare(
      "INSERT INTO uploads (root_id, rel_path, kind, batch_item_id, job_id, asset_id, upload_id, size, mtime_ms, ino, dev, md5, part_size, parts, date_created) VALUES ('r1', 'a.png', 'NEW', 'f0', 'j1', 'a1', 'u1', 3, 1.5, 7, 1, 'abc', 5242880, '{\"1\":\"e1\"}', 'now')",
    ).run();
    db.close();
    return file;
  }

  it('keeps every row, lets a local file and an upload be recorded without an md5, and keeps the cascade', () => {
    const db = openStateDb(schemaTwo());
    try {
      expect(db.pragma('user_version', { simple: true })).toBe(migrations.length);
      expect(db.prepare('SELECT * FROM local_files').all()).toEqual([{ root_id: 'r1', rel_path: 'a.png', size: 3, mtime_ms: 1.5, ino: 7, dev: 1, md5: 'abc' }]);
      expect(db.prepare('SELECT upload_id, md5, parts FROM uploads').all()).toEqual([{ upload_id: 'u1', md5: 'abc', parts: '{"1":"e1"}' }]);
      db.prepare("INSERT INTO local_files VALUES ('r1', 'big.mov', 9, 2, 8, 1, NULL)").run();
      db.prepare("UPDATE uploads SET md5 = NULL WHERE rel_path = 'a.png'").run();
      expect(() => db.prepare("INSERT INTO synced VALUES ('r1', 'x', 'a2', NULL, 1, 1, 1, 1)").run()).toThrow(/NOT NULL/);
      db.prepare("DELETE FROM roots WHERE id = 'r1'").run();
      expect(db.prepare('SELECT count(*) AS n FROM local_files').get()).toEqual({ n: 0 });
      expect(db.prepare('SELECT count(*) AS n FROM uploads').get()).toEqual({ n: 0 });
    } finally {
      db.close();
    }
  });
});
