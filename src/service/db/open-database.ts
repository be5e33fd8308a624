/**
 * Opens the service's SQLite file: WAL for concurrent readers, foreign keys on, and the numbered
 * migrations applied in one transaction each (`PRAGMA user_version` records how far we got).
 */
import Database from 'better-sqlite3';
import { migrations } from './migrations/index.js';

export type Db = Database.Database;

export function openDatabase(file: string): Db {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  migrate(db);
  return db;
}

function migrate(db: Db): void {
  const current = Number(db.pragma('user_version', { simple: true }));
  if (current > migrations.length) {
    throw new Error(`The data directory was written by a newer asset-sync (schema ${current}, this one knows ${migrations.length}).`);
  }
  for (let version = current; version < migrations.length; version++) {
    const sql = migrations[version];
    if (sql === undefined) break;
    db.transaction(() => {
      db.exec(sql);
      db.pragma(`user_version = ${version + 1}`);
    })();
  }
}
