/**
 * Runs compiled asset queries against the database: the count, a page by offset (paged search, bounded by
 * the 10,000 limit) and a page after a keyset cursor (scrolls). Prepared statements are cached by SQL text:
 * queries of the same shape differ only in their bound parameters. Read-only; renders nothing.
 *
 * A page with its total counts the matches only when the page cannot tell the total itself: a page
 * shorter than asked for, and not empty past the start, ends the matches, so the total is the rows
 * before it plus its own. Counting reads every match; most searches (a poll for changes, a text search,
 * a small folder) fit in one page.
 */
import type { Statement } from 'better-sqlite3';
import type { AssetRow } from '../assets/assets-repo.js';
import type { Db } from '../db/open-database.js';
import { ASSETS_FROM, type AssetQuery } from './asset-query.js';
import { afterCursor, type Cursor } from './keyset.js';
import type { SqlValue } from './sql-params.js';

type KeyedRow = AssetRow & Record<`sort_${number}`, SqlValue>;
type Params = Record<string, SqlValue>;

const CACHE_SIZE = 100;

export interface AssetSearchRunner {
  count(query: AssetQuery): number;
  /** Assets in order, skipping `offset`. */
  page(query: AssetQuery, offset: number, limit: number): AssetRow[];
  /** Assets in order after `cursor` (from the start when undefined), with the cursor of the last one. */
  pageAfter(query: AssetQuery, cursor: Cursor | undefined, limit: number): { rows: AssetRow[]; last: Cursor | undefined };
  /** `page` with the number of all matches (see the header). */
  pageWithTotal(query: AssetQuery, offset: number, limit: number): { rows: AssetRow[]; total: number };
  /** The first `pageAfter` page with the number of all matches. */
  firstPageWithTotal(query: AssetQuery, limit: number): { rows: AssetRow[]; last: Cursor | undefined; total: number };
}

/** The total a page tells by itself: when it is short and not empty past the start. */
function totalFromPage(offset: number, limit: number, rows: number): number | undefined {
  return rows < limit && (rows > 0 || offset === 0) ? offset + rows : undefined;
}

export function assetSearchRunner(db: Db): AssetSearchRunner {
  const cache = new Map<string, Statement<[Params]>>();
  const prepare = (sql: string): Statement<[Params]> => {
    const cached = cache.get(sql);
    if (cached !== undefined) {
      cache.delete(sql);
      cache.set(sql, cached);
      return cached;
    }
    const statement = db.prepare<[Params]>(sql);
    cache.set(sql, statement);
    const oldest = cache.keys().next();
    if (cache.size > CACHE_SIZE && oldest.done !== true) cache.delete(oldest.value);
    return statement;
  };
  const keyColumns = (query: AssetQuery): string => query.keys.map((key, index) => `, ${key.sql} AS sort_${index}`).join('');

  const runner: AssetSearchRunner = {
    count(query) {
      const row = prepare(`SELECT count(*) AS n FROM ${ASSETS_FROM} WHERE ${query.where}`).get(query.params) as { n: number } | undefined;
      return row?.n ?? 0;
    },
    page(query, offset, limit) {
      const sql = `SELECT a.* FROM ${ASSETS_FROM} WHERE ${query.where} ORDER BY ${query.orderBy} LIMIT @limit OFFSET @offset`;
      return prepare(sql).all({ ...query.params, limit, offset }) as AssetRow[];
    },
    pageAfter(query, cursor, limit) {
      const after = cursor === undefined ? undefined : afterCursor(query, cursor);
      const where = after === undefined ? query.where : `${query.where} AND ${after.sql}`;
      const sql = `SELECT a.*${keyColumns(query)} FROM ${ASSETS_FROM} WHERE ${where} ORDER BY ${query.orderBy} LIMIT @limit`;
      const rows = prepare(sql).all({ ...query.params, ...after?.params, limit }) as KeyedRow[];
      const lastRow = rows[rows.length - 1];
      const last = lastRow === undefined ? undefined : { values: query.keys.map((_, index) => lastRow[`sort_${index}`] ?? null), id: lastRow.id };
      return { rows, last };
    },
    pageWithTotal(query, offset, limit) {
      const rows = limit === 0 ? [] : runner.page(query, offset, limit);
      return { rows, total: totalFromPage(offset, limit, rows.length) ?? runner.count(query) };
    },
    firstPageWithTotal(query, limit) {
      const page = runner.pageAfter(query, undefined, limit);
      return { ...page, total: totalFromPage(0, limit, page.rows.length) ?? runner.count(query) };
    },
  };
  return runner;
}
