/**
 * The metadata store on PostgreSQL (node-postgres): a pool of connections; a statement outside a
 * transaction takes any free one, a transaction one of its own from `BEGIN` to `COMMIT` (READ
 * COMMITTED: a read that decides a write locks what it read, `SELECT … FOR UPDATE`).
 */
import pg from 'pg';
import { renderSql, type Sql } from './sql.js';
import { transactionRunner, type SqlRunner, type SqlStore } from './sql-store.js';

/** Integers as numbers, as SQLite answers them (ours are counts, sizes and times: far below 2^53). */
const types: pg.CustomTypesConfig = {
  getTypeParser: (id, format) => {
    if (id === pg.types.builtins.INT8 && format !== 'binary') return (text: string) => Number(text);
    const parser: unknown = pg.types.getTypeParser(id, format);
    return parser;
  },
};

export interface PostgresStoreOptions {
  /** Connections in the pool (default 10). */
  max?: number;
}

function runnerOf(client: pg.Pool | pg.PoolClient): SqlRunner {
  const query = async (statement: Sql): Promise<pg.QueryResult> => {
    const { text, values } = renderSql(statement, 'postgres');
    return client.query({ text, values, types });
  };
  return {
    async all<T>(statement: Sql) {
      return (await query(statement)).rows as T[];
    },
    async get<T>(statement: Sql) {
      return (await query(statement)).rows[0] as T | undefined;
    },
    async run(statement: Sql) {
      return { changes: (await query(statement)).rowCount ?? 0 };
    },
  };
}

export function postgresStore(url: string, options: PostgresStoreOptions = {}): SqlStore {
  const pool = new pg.Pool({ connectionString: url, max: options.max ?? 10 });
  const outside = runnerOf(pool);
  return {
    dialect: 'postgres',
    ...outside,
    async transaction<T>(fn: (tx: SqlRunner) => Promise<T>) {
      const client = await pool.connect();
      const { tx, end } = transactionRunner(runnerOf(client));
      let broken = false;
      try {
        await client.query('BEGIN');
        const result = await fn(tx);
        await client.query('COMMIT');
        return result;
      } catch (error) {
        // A connection that cannot even roll back is not given back to the pool.
        await client.query('ROLLBACK').catch(() => {
          broken = true;
        });
        throw error;
      } finally {
        end();
        client.release(broken);
      }
    },
    close: () => pool.end(),
  };
}
