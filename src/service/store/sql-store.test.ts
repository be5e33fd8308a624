/**
 * The metadata store's contract, on SQLite and on a throwaway PostgreSQL cluster: the same statements
 * answer the same rows, transactions commit or roll back whole, and nothing outside a transaction ever
 * sees what it has not committed.
 */
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeWithPostgres, startPostgres, type PostgresCluster } from '../../../test/support/postgres-cluster.js';
import { postgresStore } from './postgres-store.js';
import { renderSql, sql, sqlJoin, sqlRaw, type Dialect } from './sql.js';
import type { SqlStore } from './sql-store.js';
import { sqliteStore } from './sqlite-store.js';

describe('sql', () => {
  it('keeps every value a parameter, in order, through fragments and joins, for both dialects', () => {
    const names = sqlJoin(['a', 'b']);
    const query = sql`SELECT * FROM ${sqlRaw('assets')} WHERE account_id = ${'acc'} AND name IN (${names}) AND size > ${10}`;
    expect(renderSql(query, 'sqlite')).toEqual({ text: 'SELECT * FROM assets WHERE account_id = ? AND name IN (?, ?) AND size > ?', values: ['acc', 'a', 'b', 10] });
    expect(renderSql(query, 'postgres')).toEqual({ text: 'SELECT * FROM assets WHERE account_id = $1 AND name IN ($2, $3) AND size > $4', values: ['acc', 'a', 'b', 10] });
    // Text that looks like SQL stays a value.
    expect(renderSql(sql`SELECT ${"x'; DROP TABLE assets; --"}`, 'postgres')).toEqual({ text: 'SELECT $1', values: ["x'; DROP TABLE assets; --"] });
  });
});

interface Row {
  id: string;
  size: number;
  name: string;
}

/** The contract, run on each store. */
function contract(open: () => Promise<SqlStore>): void {
  let store: SqlStore;
  const blob = (dialect: Dialect): string => (dialect === 'sqlite' ? 'BLOB' : 'BYTEA');
  beforeAll(async () => {
    store = await open();
    await store.run(sql`CREATE TABLE items (id TEXT PRIMARY KEY, size BIGINT NOT NULL, name TEXT NOT NULL, bytes ${sqlRaw(blob(store.dialect))})`);
  });
  afterAll(() => store.close());

  it('answers rows as plain objects, integers as numbers, and says how many rows a statement changed', async () => {
    await store.run(sql`INSERT INTO items (id, size, name, bytes) VALUES (${'i1'}, ${5_000_000_000}, ${'one'}, ${Buffer.from([1, 2, 3])})`);
    expect(await store.get<Row & { bytes: Buffer }>(sql`SELECT id, size, name, bytes FROM items WHERE id = ${'i1'}`)).toEqual({ id: 'i1', size: 5_000_000_000, name: 'one', bytes: Buffer.from([1, 2, 3]) });
    expect(await store.get(sql`SELECT id FROM items WHERE id = ${'missing'}`)).toBeUndefined();
    expect(await store.run(sql`UPDATE items SET name = ${'uno'} WHERE size > ${0}`)).toEqual({ changes: 1 });
    expect(await store.get(sql`SELECT count(*) AS n FROM items`)).toEqual({ n: 1 });
  });

  it('sorts text by byte, as SQLite does: the same order and the same cursors on both stores', async () => {
    const names = ['b', 'B', 'a', 'é', 'Z', '_', 'ab'];
    for (const [index, name] of names.entries()) await store.run(sql`INSERT INTO items (id, size, name) VALUES (${`s${index}`}, ${index}, ${name})`);
    const sorted = await store.all<{ name: string }>(sql`SELECT name FROM items WHERE id LIKE ${'s%'} ORDER BY name`);
    expect(sorted.map((row) => row.name)).toEqual(['B', 'Z', '_', 'a', 'ab', 'b', 'é']);
  });

  it('commits a transaction whole, and rolls it back whole when it throws, passing the error on', async () => {
    await store.transaction(async (tx) => {
      await tx.run(sql`INSERT INTO items (id, size, name) VALUES (${'t1'}, ${1}, ${'kept'})`);
      await tx.run(sql`INSERT INTO items (id, size, name) VALUES (${'t2'}, ${2}, ${'kept'})`);
    });
    const failure = new Error('the second write failed');
    await expect(
      store.transaction(async (tx) => {
        await tx.run(sql`INSERT INTO items (id, size, name) VALUES (${'t3'}, ${3}, ${'lost'})`);
        throw failure;
      }),
    ).rejects.toBe(failure);
    // A constraint the database enforces rolls back what came before it in the transaction too.
    await expect(
      store.transaction(async (tx) => {
        await tx.run(sql`INSERT INTO items (id, size, name) VALUES (${'t4'}, ${4}, ${'lost'})`);
        await tx.run(sql`INSERT INTO items (id, size, name) VALUES (${'t1'}, ${1}, ${'duplicate'})`);
      }),
    ).rejects.toThrow();
    expect((await store.all<Row>(sql`SELECT id FROM items WHERE id LIKE ${'t%'} ORDER BY id`)).map((row) => row.id)).toEqual(['t1', 't2']);
  });

  it('never lets a statement outside a transaction see what it has not committed, even while it awaits', async () => {
    let inserted: () => void = () => undefined;
    const insertedYet = new Promise<void>((resolve) => {
      inserted = resolve;
    });
    let proceed: () => void = () => undefined;
    const proceedNow = new Promise<void>((resolve) => {
      proceed = resolve;
    });
    const rolledBack = store.transaction(async (tx) => {
      await tx.run(sql`INSERT INTO items (id, size, name) VALUES (${'u1'}, ${1}, ${'uncommitted'})`);
      inserted();
      await proceedNow;
      throw new Error('rolled back');
    });
    await insertedYet;
    const outside = store.get(sql`SELECT id FROM items WHERE id = ${'u1'}`);
    proceed();
    await expect(rolledBack).rejects.toThrow('rolled back');
    expect(await outside).toBeUndefined();
  });

  it('refuses a statement through a transaction that has ended', async () => {
    let kept: Parameters<Parameters<SqlStore['transaction']>[0]>[0] | undefined;
    await store.transaction(async (tx) => {
      kept = tx;
      await tx.get(sql`SELECT 1 AS one`);
    });
    await expect(kept?.run(sql`INSERT INTO items (id, size, name) VALUES (${'late'}, ${1}, ${'late'})`)).rejects.toThrow('this transaction has ended');
    expect(await store.get(sql`SELECT id FROM items WHERE id = ${'late'}`)).toBeUndefined();
  });
}

describe('sqliteStore', () => {
  contract(() => Promise.resolve(sqliteStore(new Database(':memory:'))));
});

describeWithPostgres('postgresStore', () => {
  let cluster: PostgresCluster;
  beforeAll(async () => {
    cluster = await startPostgres();
  });
  afterAll(() => cluster.stop());
  contract(async () => postgresStore(await cluster.database('store_contract')));
});
