/**
 * Reads the values of a leaf as the type its field needs (text, boolean, enum member, date, range end),
 * failing with a 400 that names the value's path and what was expected. Pure: no SQL, no database.
 */
import type { ScalarValue } from './criterion-schema.js';
import { parseDateSpan, type DateSpan } from './date-value.js';
import type { Bound } from './compare-sql.js';
import { isNumericRange, parseMatchValue, type RangeEnd } from './range-value.js';
import { invalidCriterion } from './search-errors.js';
import { MAX_WILDCARDS, wildcardToLike } from './wildcard-pattern.js';

/** Text fields take strings; a number is read as its decimal text. */
export function asText(value: ScalarValue, path: string, label: string): string {
  if (typeof value === 'boolean') throw invalidCriterion(path, `${label} takes text, not ${String(value)}`);
  return typeof value === 'number' ? String(value) : value;
}

export function asBoolean(value: ScalarValue, path: string, label: string): boolean {
  if (value === true || value === 'true') return true;
  if (value === false || value === 'false') return false;
  throw invalidCriterion(path, `${label} takes true or false, not ${JSON.stringify(value)}`);
}

export function asEnum(value: ScalarValue, path: string, label: string, allowed: readonly string[]): string {
  if (typeof value === 'string' && allowed.includes(value)) return value;
  throw invalidCriterion(path, `${JSON.stringify(value)} is not a ${label} value; expected one of ${allowed.join(', ')}`);
}

export function asDate(value: ScalarValue, path: string, label: string): DateSpan {
  const span = typeof value === 'string' ? parseDateSpan(value) : undefined;
  if (span === undefined) throw invalidCriterion(path, `${label} takes an ISO-8601 date such as 2026-07-01 or 2026-07-01T09:24:01.417Z, not ${JSON.stringify(value)}`);
  return span;
}

/** A FIELD_MATCHES text pattern, with its wildcard count bounded. */
export function asPattern(text: string, path: string): string {
  if (wildcardToLike(text).wildcards > MAX_WILDCARDS) throw invalidCriterion(path, `at most ${MAX_WILDCARDS} * wildcards in one pattern`);
  return text;
}

export type ParsedMatch =
  | { kind: 'pattern'; text: string }
  | { kind: 'range'; lower: RangeEnd | undefined; upper: RangeEnd | undefined };

/** The value of FIELD_MATCHES: a range `[a TO b]` or a wildcard pattern. */
export function asMatch(value: ScalarValue, path: string, label: string): ParsedMatch {
  const text = asText(value, path, label);
  const parsed = parseMatchValue(text);
  if (parsed.kind === 'malformed') throw invalidCriterion(path, parsed.problem);
  if (parsed.kind === 'range') return parsed;
  return { kind: 'pattern', text: asPattern(text, path) };
}

export function dateBound(end: RangeEnd | undefined, path: string, label: string): Bound<DateSpan> | undefined {
  return end === undefined ? undefined : { value: asDate(end.value, path, label), inclusive: end.inclusive };
}

/** Ends of a range over text values: numbers when every closed end is a number, else text. */
export function textOrNumberBounds(lower: RangeEnd | undefined, upper: RangeEnd | undefined):
  | { numeric: true; lower: Bound<number> | undefined; upper: Bound<number> | undefined }
  | { numeric: false; lower: Bound<string> | undefined; upper: Bound<string> | undefined } {
  if (isNumericRange(lower, upper)) {
    const number = (end: RangeEnd | undefined): Bound<number> | undefined => (end === undefined ? undefined : { value: Number(end.value), inclusive: end.inclusive });
    return { numeric: true, lower: number(lower), upper: number(upper) };
  }
  return { numeric: false, lower, upper };
}
