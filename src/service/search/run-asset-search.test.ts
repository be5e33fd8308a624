import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../db/open-database.js';
import { accountsRepo } from '../accounts/accounts-repo.js';
import { fieldsRepo } from '../fields/fields-repo.js';
import { assetSeeder } from '../../../test/support/seed-assets.js';
import { compileAssetQuery } from './asset-query.js';
import { assetSearchRunner } from './run-asset-search.js';
import { searchAccount } from './search-account.js';

describe('a page with its total', () => {
  const statements: string[] = [];
  const db = openDatabase(':memory:', { onStatement: (sql) => statements.push(sql) });
  const now = '2026-01-01T00:00:00.000Z';
  const account = accountsRepo(db).createAccount('a', 'A', now);
  const fields = fieldsRepo(db);
  const seed = assetSeeder(db);
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
