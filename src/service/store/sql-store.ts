/**
 * The metadata store's one interface (docs/storage.md): statements as `sql` fragments, answered
 * asynchronously, and transactions that hold their connection from BEGIN to COMMIT. Chosen at start:
 * SQLite (sqlite-store.ts, the embedded default) or PostgreSQL (postgres-store.ts).
 *
 * Rows come back as plain objects with the column names as keys; integers as numbers on both (a
 * PostgreSQL bigint is read as a number: ours are counts, sizes and times, all far below 2^53).
 */
import type { Dialect, Sql } from './sql.js';

export interface SqlRunner {
  all<T>(query: Sql): Promise<T[]>;
  get<T>(query: Sql): Promise<T | undefined>;
  /** A statement run for its effect: how many rows it changed. */
  run(query: Sql): Promise<{ changes: number }>;
}

export interface SqlStore extends SqlRunner {
  readonly dialect: Dialect;
  /**
   * Runs `fn` in one transaction: committed when it resolves, rolled back when it throws (and the
   * error passed on). Statements of `fn` go through `tx`; on SQLite nothing else runs on the
   * connection until the transaction ends, so no other request's statement can land inside it.
   */
  transaction<T>(fn: (tx: SqlRunner) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/**
 * The runner a transaction hands its callback: `runner`'s statements until `end` is called, refused
 * after (a statement kept past its transaction would otherwise run outside it, unprotected).
 */
export function transactionRunner(runner: SqlRunner): { tx: SqlRunner; end: () => void } {
  let open = true;
  const guarded = <R>(run: () => Promise<R>): Promise<R> => (open ? run() : Promise.reject(new Error('this transaction has ended; run the statement on the store')));
  return {
    tx: {
      all: (query) => guarded(() => runner.all(query)),
      get: (query) => guarded(() => runner.get(query)),
      run: (query) => guarded(() => runner.run(query)),
    },
    end: () => {
      open = false;
    },
  };
}
