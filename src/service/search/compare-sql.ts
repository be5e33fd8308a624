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

/**
 * SQLite's belief that "changed since T" holds for an asset: about one in a million. Without table
 * statistics it guesses a quarter of the rows, and so drives a poll of a root from the root's every
 * asset rather than from the few changed since the last poll (below 1e-4 it takes the date index).
 */
const SINCE_LIKELIHOOD = '0.000001';

/**
 * `expr` within a range of dates: each end is a span (a day or a millisecond), see date-value.ts.
 * Two-valued by itself (NULL is out of every range). `since`: a lower bound with no upper one ("changed
 * since T", what sync polls ask) is told to SQLite as matching few assets, so it starts from an index on
 * `expr` (migration 0023); the answer is the same either way.
 */
export function dateRangeSql(expr: string, lower: Bound<DateSpan> | undefined, upper: Bound<DateSpan> | undefined, params: SqlParams, since = false): string {
  const parts = [`${expr} IS NOT NULL`];
  if (lower !== undefined) {
    const bound = `${expr} >= ${params.bind(lower.inclusive ? lower.value.start : lower.value.end)}`;
    parts.push(since && upper === undefined ? `likelihood(${bound}, ${SINCE_LIKELIHOOD})` : bound);
  }
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
