/**
 * Keyset paging: the condition "sorts after this cursor" for a compiled query, where the cursor is the
 * sort-key values and id of the last asset already returned. Mirrors ORDER BY exactly — directions, NULLS
 * LAST, the keys' collations and the id tie-breaker — so no asset is skipped or repeated whatever is
 * inserted or deleted between pages. Cursor values are bound as parameters, never spliced into SQL.
 */
import type { AssetQuery } from './asset-query.js';
import { SqlParams, type SqlValue } from './sql-params.js';

export interface Cursor {
  values: SqlValue[];
  id: string;
}

export function afterCursor(query: AssetQuery, cursor: Cursor): { sql: string; params: Record<string, SqlValue> } {
  const params = new SqlParams('k');
  const after = (index: number): string => {
    const key = query.keys[index];
    if (key === undefined) return `a.id ${query.tieBreaker === 'ASC' ? '>' : '<'} ${params.bind(cursor.id)}`;
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
