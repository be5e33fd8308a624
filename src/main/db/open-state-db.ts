/**
 * Opens the engine's SQLite file in its state directory: WAL, foreign keys, and the numbered migrations
 * applied one transaction each (`PRAGMA user_version` records how far). Refuses a file written by a
 * newer asset-sync rather than guessing at its schema.
 */
import Database from 'better-sqlite3';
import { migrations } from './migrations/index.js';
import { sqliteOptions } from '../../platform/sqlite-binding.js';

export type StateDb = Database.Database;

export interface StateDbOptions {
  /** Told every statement run, as SQLite expands it (tests count the statements each file costs). */
  onStatement?: (sql: string) => void;
}

/** `file` is a path, or a serialized database to open in memory (the simulation's crash images). */
export function openStateDb(file: string | Buffer, options: StateDbOptions = {}): StateDb {
  const { onStatement } = options;
  // Node's build, or Electron's in the desktop app (sqlite-binding.ts).
  const db = new Database(file, { ...sqliteOptions(), ...(onStatement === undefined ? {} : { verbose: (sql: unknown) => onStatement(String(sql)) }) });
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  // SQLite's own default page cache (2 MB), not better-sqlite3's 16 MB: a scan of a big root reads the
  // whole table once a pass, which would fill any cache and hold it, for nothing (the OS caches the
  // file), and its statements look rows up by key.
  db.pragma('cache_size = -2000');
  const current = Number(db.pragma('user_version', { simple: true }));
  if (current > migrations.length) {
    db.close();
    throw new Error(`${typeof file === 'string' ? file : 'The state database'} was written by a newer asset-sync (schema ${current}; this one knows ${migrations.length}).`);
  }
  migrations.slice(current).forEach((sql, offset) => {
    db.transaction(() => {
      db.exec(sql);
      db.pragma(`user_version = ${current + offset + 1}`);
    })();
  });
  return db;
}
