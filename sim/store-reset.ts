/**
 * Puts the simulation service's store back as it was bootstrapped, through the service's own connection:
 * in one transaction every table is emptied and the rows it held at the snapshot are inserted again.
 * Replacing the file instead (SQLite's backup API, as before) bumps the schema cookie, and SQLite then
 * re-reads the schema (~2 ms) and re-prepares each statement the service runs on its first use after
 * that (0.3–0.6 ms each): about a tenth of a seed's CPU. Here the schema never changes.
 */
import type { Db } from '../src/service/db/open-database.js';
import { rebuildTextTrigrams } from '../src/service/search/text-trigrams.js';

/**
 * The tables that hold the store's data, by name: not the virtual tables (the full-text indexes) nor
 * their shadow tables, which are derived from the others (and which SQLite's defensive mode, on in
 * better-sqlite3, refuses to write directly).
 */
function dataTables(db: Db): string[] {
  const virtual = db
    .prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND sql LIKE 'CREATE VIRTUAL TABLE%'")
    .all()
    .map((row) => row.name);
  return db
    .prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND (name NOT LIKE 'sqlite_%' OR name = 'sqlite_sequence') ORDER BY name")
    .all()
    .map((row) => row.name)
    .filter((name) => !virtual.some((table) => name === table || name.startsWith(`${table}_`)));
}

interface TableRows {
  name: string;
  rows: Record<string, unknown>[];
  insert: (row: Record<string, unknown>) => void;
}

/** Keeps the store's rows as they are now; answers what puts them back. */
export function storeSnapshot(db: Db): () => void {
  const names = dataTables(db);
  const tables: TableRows[] = names.map((name) => {
    // Generated columns (hidden ≠ 0) are computed, never inserted.
    const columns = db
      .prepare<[], { name: string; hidden: number }>(`PRAGMA table_xinfo(${quote(name)})`)
      .all()
      .filter((column) => column.hidden === 0)
      .map((column) => column.name);
    const statement = db.prepare(`INSERT INTO ${quote(name)} (${columns.map(quote).join(', ')}) VALUES (${columns.map((column) => `@${column}`).join(', ')})`);
    const rows = db.prepare<[], Record<string, unknown>>(`SELECT ${columns.map(quote).join(', ')} FROM ${quote(name)}`).all();
    return { name, rows, insert: (row) => void statement.run(row) };
  });
  const empty = tables.map((table) => db.prepare(`DELETE FROM ${quote(table.name)}`));
  return db.transaction(() => {
    // Foreign keys are checked at the commit, when every table holds its rows again.
    db.pragma('defer_foreign_keys = ON');
    // Twice: a delete trigger (the change log) may write to a table emptied before it.
    for (let round = 0; round < 2; round++) for (const statement of empty) statement.run();
    for (const table of tables) for (const row of table.rows) table.insert(row);
    // The triggers that keep the full-text indexes ran while tables were half empty: made afresh.
    rebuildTextTrigrams(db);
  });
}

const SEED_SAVEPOINT = 'sim_seed';

/**
 * Puts the store back as it is now, more cheaply than storeSnapshot: the connection stays inside a
 * savepoint opened here, every write of a seed lands inside it (the service's own transactions become
 * nested savepoints, which better-sqlite3 opens when a transaction is already open), and the answer rolls
 * back to it. Nothing is committed, so a seed writes no log and rewrites no row to put things back
 * (a row-by-row restore cost ~8 ms a seed). The service declares no deferred foreign keys, so a nested
 * release checks what a commit would. Should SQLite ever roll the whole transaction back (it does on
 * some I/O errors), the savepoint is gone: the rows are then put back one by one and it is opened again.
 */
export function storeCheckpoint(db: Db): () => void {
  const putBack = storeSnapshot(db);
  const open = (): void => {
    db.exec(`SAVEPOINT ${SEED_SAVEPOINT}`);
  };
  open();
  return () => {
    if (db.inTransaction) {
      db.exec(`ROLLBACK TO ${SEED_SAVEPOINT}`);
      return;
    }
    putBack();
    open();
  };
}

/** Every row of every table, in a fixed order: two stores with the same dump hold the same data. */
export function storeDump(db: Db): string {
  const names = dataTables(db);
  return JSON.stringify(names.map((name) => [name, db.prepare<[], Record<string, unknown>>(`SELECT * FROM ${quote(name)}`).all().map((row) => JSON.stringify(row)).sort()]));
}

function quote(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
