/**
 * SQL comparisons shared by the leaf compilers: ranges (dates, numbers, text), wildcard matches and
 * two-valued wrapping of nullable expressions. `expr` is always constant SQL from the compiler; values are
 * bound through SqlParams. Never validates user input: callers pass ends they have already checked.
 */
import type { DateSpan } from './date-value.js';
import type { SqlParams } from './sql-params.js';
import { wildcardToLike } from './wildcard-pattern.js';

export interface Bound<T> {
  value: T;
  inclusive: boolean;
}

/**
 * NULL in, false out: keeps every leaf two-valued, so NOT of a leaf matches exactly the assets the leaf
 * does not (an asset without a current file is "not named logo.png", not "unknown").
 */
export function definitely(sql: string, nullable: boolean): string {
  return nullable ? `ifnull(${sql}, 0)` : sql;
}

/** `expr` within a range of dates: each end is a span (a day or a millisecond), see date-value.ts. */
export function dateRangeSql(expr: string, lower: Bound<DateSpan> | undefined, upper: Bound<DateSpan> | undefined, params: SqlParams): string {
  const parts = [`${expr} IS NOT NULL`];
  if (lower !== undefined) parts.push(`${expr} >= ${params.bind(lower.inclusive ? lower.value.start : lower.value.end)}`);
  if (upper !== undefined) parts.push(`${expr} < ${params.bind(upper.inclusive ? upper.value.end : upper.value.start)}`);
  return `(${parts.join(' AND ')})`;
}

/** `expr` (text) read as a number within a range; text that does not look like a number never matches. */
export function numberRangeSql(expr: string, lower: Bound<number> | undefined, upper: Bound<number> | undefined, params: SqlParams): string {
  const parts = [`${expr} GLOB '*[0-9]*'`, `${expr} NOT GLOB '*[^0-9.eE+-]*'`];
  if (lower !== undefined) parts.push(`CAST(${expr} AS REAL) ${lower.inclusive ? '>=' : '>'} ${params.bind(lower.value)}`);
  if (upper !== undefined) parts.push(`CAST(${expr} AS REAL) ${upper.inclusive ? '<=' : '<'} ${params.bind(upper.value)}`);
  return `(${parts.join(' AND ')})`;
}

/** `expr` within a range of text, compared by code point. */
export function textRangeSql(expr: string, lower: Bound<string> | undefined, upper: Bound<string> | undefined, params: SqlParams): string {
  const parts = [`${expr} IS NOT NULL`];
  if (lower !== undefined) parts.push(`${expr} ${lower.inclusive ? '>=' : '>'} ${params.bind(lower.value)}`);
  if (upper !== undefined) parts.push(`${expr} ${upper.inclusive ? '<=' : '<'} ${params.bind(upper.value)}`);
  return `(${parts.join(' AND ')})`;
}

/** Whole-value, case-insensitive (ASCII, SQLite's LIKE) match with `*` wildcards. */
export function likeSql(expr: string, pattern: string, params: SqlParams): string {
  return escapedLikeSql(expr, wildcardToLike(pattern).pattern, params);
}

/** `expr LIKE pattern ESCAPE '\'` for a pattern already in LIKE's escaped form (wildcard-pattern.ts). */
export function escapedLikeSql(expr: string, likePattern: string, params: SqlParams): string {
  return `${expr} LIKE ${params.bind(likePattern)} ESCAPE '\\'`;
}
