/**
 * Keyset paging: the condition "sorts after this cursor" for a compiled query, where the cursor is the
 * sort-key values and id of the last asset already returned. Mirrors ORDER BY exactly — directions, NULLS
 * LAST, the keys' collations and the id tie-breaker — so no asset is skipped or repeated whatever is
 * inserted or deleted between pages. Cursor values are bound as parameters, never spliced into SQL.
 * The asset id ends the order (as a key or as the tie-breaker): ids are unique, so past a cursor's id
 * nothing else is compared; an order led by the id also bounds the id subqueries (id-bound.ts).
 */
import type { AssetQuery } from './asset-query.js';
import { ASSET_ID_SQL } from './fixed-fields.js';
import { SqlParams, type SqlValue } from './sql-params.js';

export interface Cursor {
  values: SqlValue[];
  id: string;
}

export interface AfterCursor {
  sql: string;
  params: Record<string, SqlValue>;
  /** When the order is led by the asset id: the comparison past the cursor's id (`> @k0`), for boundIds. */
  idBound?: string;
}

export function afterCursor(query: AssetQuery, cursor: Cursor): AfterCursor {
  const params = new SqlParams('k');
  const pastId = (direction: 'ASC' | 'DESC'): string => `${direction === 'ASC' ? '>' : '<'} ${params.bind(cursor.id)}`;
  const first = query.keys[0];
  if (first === undefined || first.sql === ASSET_ID_SQL) {
    const bound = pastId(first?.direction ?? query.tieBreaker);
    return { sql: `${ASSET_ID_SQL} ${bound}`, params: params.values, idBound: bound };
  }
  const after = (index: number): string => {
    const key = query.keys[index];
    if (key === undefined || key.sql === ASSET_ID_SQL) return `${ASSET_ID_SQL} ${pastId(key?.direction ?? query.tieBreaker)}`;
    const value = cursor.values[index] ?? null;
    const rest = after(index + 1);
    // NULLs sort last in both directions: after a NULL come only NULLs; after a value come NULLs too.
    if (value === null) return key.nullable ? `(${key.sql} IS NULL AND ${rest})` : rest;
    const bound = params.bind(value);
    const beyond = `${key.sql} ${key.direction === 'ASC' ? '>' : '<'} ${bound}`;
    return `((${beyond}${key.nullable ? ` OR ${key.sql} IS NULL` : ''}) OR (${key.sql} = ${bound} AND ${rest}))`;
  };
  return { sql: after(0), params: params.values };
}
