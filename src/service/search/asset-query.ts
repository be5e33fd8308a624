/**
 * The entry point of the asset criterion compiler, shared by searches, scrolls and (later) batch-job
 * selectors and saved searches: request JSON in, `{ where, params, orderBy, keys }` out, for
 * `SELECT … FROM assets a WHERE <where> ORDER BY <orderBy>`. `where` always confines to the caller's
 * account and applies the default state filter [real, API.md §5]: a criterion that names neither
 * LIFECYCLE_STATE nor STAGED anywhere matches only LIVE assets. Throws 400 INVALID_CRITERION /
 * INVALID_SORT / UNSUPPORTED_V1_NAME. Builds SQL only; it never runs it.
 *
 * Query planning: without statistics SQLite prefers the (account_id, state, …) index for the scope and
 * then probes every LIVE asset of the account. When the criterion is selective (a folder, a keyword, an
 * asset id: compile-criterion.ts), the scope columns are written `+a.account_id` / `+a.state`, which keeps
 * SQLite from using them as index keys, so it drives from the selective leaf's index instead
 * (bench/search.ts, 100k assets: count by folder 36 ms → 0.5 ms). Unselective criteria keep the scope
 * index, which also serves the common sort on DATE_LAST_MODIFIED without sorting.
 */
import { compileCriterion } from './compile-criterion.js';
import { idBoundMark } from './id-bound.js';
import { compileSorts, orderByClause, tieBreakerDirection, type SortKey } from './compile-sorts.js';
import { parseCriterion, parseSorts, type Criterion, type Sort, type SortOrder } from './criterion-schema.js';
import type { SearchAccount } from './search-account.js';
import { SqlParams, type SqlValue } from './sql-params.js';

/** The table expression the compiled SQL reads: every column reference is through alias `a`. */
export const ASSETS_FROM = 'assets a';

export interface AssetQuery {
  /** Boolean SQL over `assets a`. */
  where: string;
  /** Sort keys then the asset id: a total order. */
  orderBy: string;
  keys: SortKey[];
  tieBreaker: SortOrder;
  /** Named parameters of `where` and of the sort keys (better-sqlite3 binds them from this object). */
  params: Record<string, SqlValue>;
  /** The matches are found from an index lookup of a leaf (compile-criterion.ts): usually few. */
  selective: boolean;
}

/** Where the criterion sits in the request, for messages (`criterion`, `selector.criterion`). */
export interface QueryPaths {
  criterion?: string;
  sorts?: string;
}

export function compileParsedAssetQuery(account: SearchAccount, criterion: Criterion, sorts: readonly Sort[], paths: QueryPaths = {}): AssetQuery {
  const params = new SqlParams('p');
  const compiled = compileCriterion(account, criterion, params, paths.criterion);
  const keys = compileSorts(account, sorts, params, paths.sorts);
  const column = compiled.selective ? '+a.' : 'a.';
  const scope = [`${column}account_id = ${params.bind(account.accountId)}`];
  if (!compiled.mentionsState) scope.push(`${column}state = 'LIVE'`);
  // A folder-limited caller's queries never reach past their folders, whatever the criterion says.
  // As a non-correlated `a.id IN (…)` over a constant folder list (ids bound one by one), SQLite builds
  // the set of reachable asset ids once from the (field, value, asset) index. Measured on 100k assets,
  // a member limited to 1 of 20 folders: count 631 → 54 ms, first page 24 → 57 ms (the correlated
  // EXISTS with a JSON list probed every asset's values); a paged search does both, 655 → 111 ms.
  if (account.folders !== null) {
    const folders = account.folders.folderIds.length === 0 ? 'NULL' : params.bindAll(account.folders.folderIds);
    scope.push(`a.id IN (SELECT sv.asset_id FROM asset_values sv WHERE ${idBoundMark('sv')}sv.field_id = ${params.bind(account.folders.foldersFieldId)} AND sv.value IN (${folders}))`);
  }
  return {
    where: `${scope.join(' AND ')} AND ${compiled.sql}`,
    orderBy: orderByClause(keys),
    keys,
    tieBreaker: tieBreakerDirection(keys),
    params: params.values,
    selective: compiled.selective,
  };
}

/** Validates and compiles a criterion and sorts straight from a request body. */
export function compileAssetQuery(account: SearchAccount, criterion: unknown, sorts: unknown, paths: QueryPaths = {}): AssetQuery {
  return compileParsedAssetQuery(account, parseCriterion(criterion, paths.criterion), parseSorts(sorts, paths.sorts), paths);
}
