import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../db/open-database.js';
import { accountsRepo } from '../accounts/accounts-repo.js';
import { fieldsRepo } from '../fields/fields-repo.js';
import { assetSeeder } from '../../../test/support/seed-assets.js';
import { compileAssetQuery } from './asset-query.js';
import { assetSearchRunner } from './run-asset-search.js';
import { searchAccount } from './search-account.js';

/** An empty library whose statements are kept, to count the ones a search runs. */
function statementLoggedLibrary() {
  const statements: string[] = [];
  const db = openDatabase(':memory:', { onStatement: (sql) => statements.push(sql) });
  const account = accountsRepo(db).createAccount('a', 'A', '2026-01-01T00:00:00.000Z');
  return { statements, db, account, fields: fieldsRepo(db), seed: assetSeeder(db) };
}

describe('a page with its total', () => {
  const { statements, db, account, fields, seed } = statementLoggedLibrary();
  for (let index = 0; index < 25; index++) seed.insert({ accountId: account.id, id: `a${String(index).padStart(2, '0')}` });
  afterAll(() => db.close());
  const runner = assetSearchRunner(db);
  const query = compileAssetQuery(searchAccount(fields, { accountId: account.id, folders: null }), { type: 'MATCH_ALL' }, [{ field: { type: 'FIXED', fieldName: 'ASSET_ID' }, order: 'ASC' }]);
  const counted = (run: () => { total: number; rows: unknown[] }): { total: number; rows: number; counts: number } => {
    statements.length = 0;
    const { total, rows } = run();
    return { total, rows: rows.length, counts: statements.filter((sql) => sql.startsWith('SELECT count(*)')).length };
  };

  it('takes the total from a page that ends the matches, without counting', () => {
    expect(counted(() => runner.pageWithTotal(query, 0, 30))).toEqual({ total: 25, rows: 25, counts: 0 });
    expect(counted(() => runner.pageWithTotal(query, 20, 10))).toEqual({ total: 25, rows: 5, counts: 0 });
    expect(counted(() => runner.firstPageWithTotal(query, 30))).toEqual({ total: 25, rows: 25, counts: 0 });
  });

  it('counts when the page is full, empty past the start, or not asked for', () => {
    expect(counted(() => runner.pageWithTotal(query, 0, 10))).toEqual({ total: 25, rows: 10, counts: 1 });
    expect(counted(() => runner.pageWithTotal(query, 15, 10))).toEqual({ total: 25, rows: 10, counts: 1 });
    expect(counted(() => runner.pageWithTotal(query, 40, 10))).toEqual({ total: 25, rows: 0, counts: 1 });
    expect(counted(() => runner.pageWithTotal(query, 0, 0))).toEqual({ total: 25, rows: 0, counts: 1 });
    expect(counted(() => runner.firstPageWithTotal(query, 25))).toEqual({ total: 25, rows: 25, counts: 1 });
  });
});

describe('a selective query ranked for its page and total', () => {
  const { statements, db, account, fields, seed } = statementLoggedLibrary();
  const ids = Array.from({ length: 25 }, (_, index) => `a${String(index).padStart(2, '0')}`);
  // Inserted out of order, so row ids are not the sort order.
  for (const id of [...ids].reverse()) seed.insert({ accountId: account.id, id, dateLastModified: `2026-01-${String(1 + (Number(id.slice(1)) % 5)).padStart(2, '0')}T00:00:00.000Z` });
  afterAll(() => db.close());
  const selective = compileAssetQuery(
    searchAccount(fields, { accountId: account.id, folders: null }),
    { type: 'FIELD_IN', field: { type: 'FIXED', fieldName: 'ASSET_ID' }, values: ids },
    [{ field: { type: 'FIXED', fieldName: 'DATE_LAST_MODIFIED' }, order: 'DESC' }],
  );
  const plain = assetSearchRunner(db, { rankedMatches: 0 });
  const counted = (run: () => { total: number; rows: { id: string }[] }): { total: number; ids: string[]; counts: number } => {
    statements.length = 0;
    const { total, rows } = run();
    return { total, ids: rows.map((row) => row.id), counts: statements.filter((sql) => sql.startsWith('SELECT count(*)')).length };
  };

  it('takes the total from the ranked matches, without counting, and pages them as the plain query does', () => {
    const runner = assetSearchRunner(db);
    expect(selective.selective).toBe(true);
    for (const [offset, limit] of [[0, 10], [10, 10], [20, 10], [30, 10]] as const) {
      const ranked = counted(() => runner.pageWithTotal(selective, offset, limit));
      expect(ranked.counts).toBe(0);
      expect(ranked).toEqual({ ...counted(() => plain.pageWithTotal(selective, offset, limit)), counts: 0 });
      expect(ranked.total).toBe(25);
    }
  });

  it('does not rank a scroll\'s first page: it reads in order and stops at its page', () => {
    const runner = assetSearchRunner(db);
    statements.length = 0;
    expect(runner.firstPageWithTotal(selective, 10).total).toBe(25);
    expect(statements.some((sql) => sql.startsWith('SELECT a.rowid'))).toBe(false);
  });

  it('counts when the matches reach the ranked number, and pages past it as before', () => {
    const runner = assetSearchRunner(db, { rankedMatches: 20 });
    expect(counted(() => runner.pageWithTotal(selective, 0, 10))).toEqual({ ...counted(() => plain.pageWithTotal(selective, 0, 10)), counts: 1 });
    expect(counted(() => runner.pageWithTotal(selective, 15, 10))).toEqual(counted(() => plain.pageWithTotal(selective, 15, 10)));
    expect(counted(() => runner.pageWithTotal(selective, 0, 0))).toEqual({ total: 25, ids: [], counts: 1 });
  });
});

describe('the asset id covering index', () => {
  const { statements, db, account, fields, seed } = statementLoggedLibrary();
  for (let index = 0; index < 25; index++) seed.insert({ accountId: account.id, id: `a${String(index).padStart(2, '0')}` });
  afterAll(() => db.close());
  const runner = assetSearchRunner(db);
  const who = searchAccount(fields, { accountId: account.id, folders: null });
  const byId = [{ field: { type: 'FIXED', fieldName: 'ASSET_ID' }, order: 'ASC' }];
  const hinted = (run: () => unknown): boolean => {
    statements.length = 0;
    run();
    return statements.some((sql) => sql.includes('INDEXED BY assets_id_scope'));
  };

  it('is named for the count and ranking of a search driven by asset id, with the same answers', () => {
    const selective = compileAssetQuery(who, { type: 'FIELD_IN', field: { type: 'FIXED', fieldName: 'ASSET_ID' }, values: ['a03', 'a01', 'a07'] }, byId);
    expect(hinted(() => runner.count(selective))).toBe(true);
    expect(runner.count(selective)).toBe(3);
    expect(hinted(() => runner.pageWithTotal(selective, 0, 2))).toBe(true);
    expect(runner.pageWithTotal(selective, 0, 2)).toEqual({ rows: runner.page(selective, 0, 2), total: 3 });
  });

  it('is left to the planner for a search that is not driven by asset id', () => {
    const all = compileAssetQuery(who, { type: 'MATCH_ALL' }, byId);
    expect(hinted(() => runner.count(all))).toBe(false);
    expect(runner.count(all)).toBe(25);
  });
});
