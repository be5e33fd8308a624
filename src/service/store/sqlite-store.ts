/**
 * The metadata store on SQLite (better-sqlite3): one connection, shared in turns (connection-queue.ts).
 * A statement outside a transaction runs as soon as the connection is free; a transaction takes it from
 * `BEGIN IMMEDIATE` (the write lock at once: no deadlock of two readers turning writers, and another
 * process on the file, an admin command, waits its busy timeout rather than failing half-way) to
 * `COMMIT`. Statements are prepared once per SQL text.
 */
import type { Db } from '../db/open-database.js';
import { ConnectionQueue } from './connection-queue.js';
import { renderSql, type Sql, type SqlValue } from './sql.js';
import { transactionRunner, type SqlRunner, type SqlStore } from './sql-store.js';
import type Database from 'better-sqlite3';

type Statement = Database.Statement;

/** better-sqlite3 binds numbers, strings, bigints, buffers and null: a boolean goes in as 1 or 0, as SQLite keeps it. */
function bindable(value: SqlValue): Exclude<SqlValue, boolean> {
  return typeof value === 'boolean' ? (value ? 1 : 0) : value;
}

export function sqliteStore(db: Db): SqlStore {
  const queue = new ConnectionQueue();
  const statements = new Map<string, Statement>();
  const prepared = (query: Sql): { statement: Statement; values: Exclude<SqlValue, boolean>[] } => {
    const { text, values } = renderSql(query, 'sqlite');
    let statement = statements.get(text);
    if (statement === undefined) {
      statement = db.prepare(text);
      statements.set(text, statement);
    }
    return { statement, values: values.map(bindable) };
  };
  /** The statements themselves, run on the connection by whoever holds it. */
  const direct: SqlRunner = {
    all<T>(query: Sql) {
      const { statement, values } = prepared(query);
      return Promise.resolve(statement.all(...values) as T[]);
    },
    get<T>(query: Sql) {
      const { statement, values } = prepared(query);
      return Promise.resolve(statement.get(...values) as T | undefined);
    },
    run(query: Sql) {
      const { statement, values } = prepared(query);
      return Promise.resolve({ changes: statement.run(...values).changes });
    },
  };
  return {
    dialect: 'sqlite',
    all: (query) => queue.use(() => direct.all(query)),
    get: (query) => queue.use(() => direct.get(query)),
    run: (query) => queue.use(() => direct.run(query)),
    transaction<T>(fn: (tx: SqlRunner) => Promise<T>) {
      return queue.use(async () => {
        const { tx, end } = transactionRunner(direct);
        db.exec('BEGIN IMMEDIATE');
        try {
          const result = await fn(tx);
          db.exec('COMMIT');
          return result;
        } catch (error) {
          if (db.inTransaction) db.exec('ROLLBACK');
          throw error;
        } finally {
          end();
        }
      });
    },
    close: () =>
      queue.use(() => {
        db.close();
      }),
  };
}
