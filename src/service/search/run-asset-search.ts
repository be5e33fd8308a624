/**
 * Runs compiled asset queries against the database: the count, a page by offset (paged search, bounded by
 * the 10,000 limit) and a page after a keyset cursor (scrolls). Prepared statements are cached by SQL text:
 * queries of the same shape differ only in their bound parameters. Read-only; renders nothing.
 *
 * A page with its total counts the matches only when the page cannot tell the total itself: a page
 * shorter than asked for, and not empty past the start, ends the matches, so the total is the rows
 * before it plus its own. Counting reads every match; most searches (a poll for changes, a text search,
 * a small folder) fit in one page.
 *
 * A paged search with a selective query (its matches found from an index lookup: a folder, a keyword)
 * is ranked instead: the row ids of its first RANKED_MATCHES matches in order, then the page's rows by
 * row id. Fewer than that are all the matches, so their number is the total, read in the same pass that
 * ordered them; a full page and its count each read every match (at a million assets, a keyword's
 * 1,800: 8 + 6 ms). At RANKED_MATCHES or more it counts as well, having ranked in vain (measured: a
 * text search matching 50,000, 675 → 816 ms). A scroll's first page is not ranked: it is read in id
 * order and stops at its page, and sync roots often pass RANKED_MATCHES. Both statements run back to
 * back on this connection, so no write comes between them.
 *
 * A count or ranking the planner drives by asset id (from a folder's or a keyword's index) reads the
 * id's covering index (migration 0024), named with INDEXED BY: without statistics SQLite takes the id's
 * unique index and then reads each asset's row, twice the lookups for the same facts. Only a statement
 * whose plan already searches the assets by id is named so (its plan is asked once per SQL text); any
 * other plan (a poll from the date indexes, a scan in date order) is left to the planner.
 *
 * Pages are read as arrays (better-sqlite3's raw mode) and made into rows here: it builds an object
 * per row a property at a time, which for a page of 1,000 costs more than the page's lookups.
 */
import type { Statement } from 'better-sqlite3';
import { ASSET_COLUMNS, assetFromTuple, type AssetRow, type AssetTuple } from '../assets/assets-repo.js';
import type { Db } from '../db/open-database.js';
import { ASSETS_FROM, type AssetQuery } from './asset-query.js';
import { boundIds } from './id-bound.js';
import { afterCursor, type Cursor } from './keyset.js';
import type { SqlValue } from './sql-params.js';

type Params = Record<string, SqlValue>;
/** An asset's columns, then its sort keys' values (pageAfter's rows). */
type KeyedTuple = [...AssetTuple, ...SqlValue[]];

/** The asset columns a page selects, in AssetTuple's order. */
const ASSET_SELECT = ASSET_COLUMNS.map((column) => `a.${column}`).join(', ');

const CACHE_SIZE = 100;

/** The assets' covering index on their id (migration 0024), and how a plan names the id's unique index. */
const ID_SCOPE_INDEX = 'assets_id_scope';
const BY_ID_PLAN = /^SEARCH a USING INDEX sqlite_autoindex_assets_1 \(id=\?\)$/;

/** How many matches a selective query ranks before it counts instead (the paged search's reach, 10,000). */
export const RANKED_MATCHES = 10_000;

export interface RunnerOptions {
  /** RANKED_MATCHES unless a test sets it. */
  rankedMatches?: number;
}

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

export function assetSearchRunner(db: Db, options: RunnerOptions = {}): AssetSearchRunner {
  const rankedMatches = options.rankedMatches ?? RANKED_MATCHES;
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
  /** `sql` over `from`, reading the id's covering index when the planner drives it by asset id (see the header). */
  const byIdChoices = new Map<string, string>();
  const countOrRank = (sqlOver: (from: string) => string, params: Params): Statement<[Params]> => {
    const plain = sqlOver(ASSETS_FROM);
    let chosen = byIdChoices.get(plain);
    if (chosen === undefined) {
      const plan = db.prepare<[Params], { detail: string }>(`EXPLAIN QUERY PLAN ${plain}`).all(params);
      chosen = plan.some((step) => BY_ID_PLAN.test(step.detail)) ? sqlOver(`${ASSETS_FROM} INDEXED BY ${ID_SCOPE_INDEX}`) : plain;
      byIdChoices.set(plain, chosen);
      const oldest = byIdChoices.keys().next();
      if (byIdChoices.size > CACHE_SIZE && oldest.done !== true) byIdChoices.delete(oldest.value);
    }
    return prepare(chosen);
  };
  const keyColumns = (query: AssetQuery): string => query.keys.map((key, index) => `, ${key.sql} AS sort_${index}`).join('');
  const cursorOf = (query: AssetQuery, tuples: readonly KeyedTuple[]): Cursor | undefined => {
    const last = tuples[tuples.length - 1];
    return last === undefined ? undefined : { values: query.keys.map((_, index) => last[ASSET_COLUMNS.length + index] ?? null), id: last[0] };
  };
  /** The rows of a page statement that selects ASSET_SELECT first. */
  const rowsOfPage = (sql: string, params: Params): { rows: AssetRow[]; tuples: KeyedTuple[] } => {
    const tuples = prepare(sql).raw().all(params) as KeyedTuple[];
    return { rows: tuples.map(assetFromTuple), tuples };
  };
  /** The row ids of the first `rankedMatches` matches, in order. */
  const ranked = (query: AssetQuery): number[] =>
    countOrRank((from) => `SELECT a.rowid FROM ${from} WHERE ${query.where} ORDER BY ${query.orderBy} LIMIT ${rankedMatches}`, query.params)
      .pluck()
      .all(query.params) as number[];
  /** The rows of these row ids, in their order. */
  const rowsOf = (rowids: readonly number[]): AssetRow[] =>
    rowids.length === 0 ? [] : rowsOfPage(`SELECT ${ASSET_SELECT} FROM json_each(@rowids) r JOIN ${ASSETS_FROM} ON a.rowid = r.value ORDER BY r.key`, { rowids: JSON.stringify(rowids) }).rows;
  /** A page of a selective query with its total, from its ranked matches (see the header); undefined when it is not ranked. */
  const rankedPage = (query: AssetQuery, offset: number, limit: number): { rows: AssetRow[]; total: number } | undefined => {
    if (!query.selective || limit === 0 || offset + limit > rankedMatches) return undefined;
    const rowids = ranked(query);
    const rows = rowsOf(rowids.slice(offset, offset + limit));
    return { rows, total: rowids.length < rankedMatches ? rowids.length : runner.count(query) };
  };

  const runner: AssetSearchRunner = {
    count(query) {
      const row = countOrRank((from) => `SELECT count(*) AS n FROM ${from} WHERE ${query.where}`, query.params).get(query.params) as { n: number } | undefined;
      return row?.n ?? 0;
    },
    page(query, offset, limit) {
      return rowsOfPage(`SELECT ${ASSET_SELECT} FROM ${ASSETS_FROM} WHERE ${query.where} ORDER BY ${query.orderBy} LIMIT @limit OFFSET @offset`, { ...query.params, limit, offset }).rows;
    },
    pageAfter(query, cursor, limit) {
      const after = cursor === undefined ? undefined : afterCursor(query, cursor);
      const where = after === undefined ? query.where : `${boundIds(query.where, after.idBound)} AND ${after.sql}`;
      const sql = `SELECT ${ASSET_SELECT}${keyColumns(query)} FROM ${ASSETS_FROM} WHERE ${where} ORDER BY ${query.orderBy} LIMIT @limit`;
      const { rows, tuples } = rowsOfPage(sql, { ...query.params, ...after?.params, limit });
      return { rows, last: cursorOf(query, tuples) };
    },
    pageWithTotal(query, offset, limit) {
      const page = rankedPage(query, offset, limit);
      if (page !== undefined) return page;
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
