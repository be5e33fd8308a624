/**
 * Reads the range syntax of FIELD_MATCHES (API.md §5): `[a TO b]` inclusive, `{a TO b}` exclusive, mixed
 * `[a TO b}`, `*` for an open end; ends may be double-quoted. Pure text handling: it never decides what an
 * end means (date, number or text) — the compiler does, per field.
 */

export interface RangeEnd {
  value: string;
  inclusive: boolean;
}

export type MatchValue =
  | { kind: 'range'; lower: RangeEnd | undefined; upper: RangeEnd | undefined }
  | { kind: 'text' }
  | { kind: 'malformed'; problem: string };

const RANGE = /^\s*([[{])(.*)\s+TO\s+(.*)([\]}])\s*$/s;
const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

function unquote(end: string): string {
  const trimmed = end.trim();
  return trimmed.length >= 2 && trimmed.startsWith('"') && trimmed.endsWith('"') ? trimmed.slice(1, -1) : trimmed;
}

/** A FIELD_MATCHES value is a range when it is bracketed and has ` TO ` inside; otherwise it is text. */
export function parseMatchValue(text: string): MatchValue {
  const match = RANGE.exec(text);
  if (match === null) return { kind: 'text' };
  const [, open = '[', rawLower = '', rawUpper = '', close = ']'] = match;
  if (rawLower.trim() === '' || rawUpper.trim() === '') {
    return { kind: 'malformed', problem: `the range ${JSON.stringify(text)} needs a value or * on both sides of TO` };
  }
  const end = (raw: string, inclusive: boolean): RangeEnd | undefined => (raw.trim() === '*' ? undefined : { value: unquote(raw), inclusive });
  return { kind: 'range', lower: end(rawLower, open === '['), upper: end(rawUpper, close === ']') };
}

/** True when every closed end of the range is a plain decimal number. */
export function isNumericRange(lower: RangeEnd | undefined, upper: RangeEnd | undefined): boolean {
  return [lower, upper].every((end) => end === undefined || NUMBER.test(end.value.trim()));
}
