/**
 * Opens the service's SQLite file: WAL for concurrent readers, foreign keys on, and the numbered
 * migrations applied in one transaction each (`PRAGMA user_version` records how far we got).
 *
 * The log is checkpointed every WAL_CHECKPOINT_PAGES pages instead of SQLite's 1,000: each checkpoint
 * copies the pages changed since the last one and fsyncs the log and the database on the event loop,
 * and the same hot pages (index tails, the header) are rewritten by nearly every commit, so a longer
 * stretch copies each of them once for four times as many commits. The first hash table of the log's
 * index holds 4,062 frames, so a read still looks the page up in one table; the log file grows to
 * about 16 MB (at 4 KiB pages) and is reused from its start after each checkpoint.
 */
import Database from 'better-sqlite3';
import { migrations } from './migrations/index.js';
import { sqliteOptions } from '../../platform/sqlite-binding.js';

export type Db = Database.Database;

/** Pages in the write-ahead log before a commit checkpoints it (SQLite's default is 1,000). */
export const WAL_CHECKPOINT_PAGES = 4000;

/** How much of the database file reads map into memory (`PRAGMA mmap_size`). */
export const MMAP_BYTES = 2 ** 31;

export interface DatabaseOptions {
  /** Told every statement run, as SQLite expands it (tests count the statements each file costs). */
  onStatement?: (sql: string) => void;
}

export function openDatabase(file: string, options: DatabaseOptions = {}): Db {
  const { onStatement } = options;
  // Node's build, or Electron's in the desktop app (sqlite-binding.ts).
  const db = new Database(file, { ...sqliteOptions(), ...(onStatement === undefined ? {} : { verbose: (sql: unknown) => onStatement(String(sql)) }) });
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  db.pragma(`wal_autocheckpoint = ${WAL_CHECKPOINT_PAGES}`);
  // Savepoint and statement journals in memory: a job runs each item in its own savepoint, and once the
  // journal of a transaction's savepoints passes 64 KiB SQLite spills it to a temp file, then writes the
  // old copy of every page an item changes there (measured: about 40 µs of pwrite per item).
  db.pragma('temp_store = MEMORY');
  // Reads map the file instead of copying each page through a read call into a 2 MB page cache: a
  // search at a million assets touches tens of thousands of index and row pages (measured, a keyword
  // search's count: 13 → 11 ms of CPU). SQLite caps it at its compile-time maximum (2 GB by default);
  // past the mapped size it reads as before.
  db.pragma(`mmap_size = ${MMAP_BYTES}`);
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
