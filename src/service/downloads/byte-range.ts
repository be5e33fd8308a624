/**
 * Parses a `Range: bytes=…` header against a file size (RFC 9110 §14). One range is served; a header
 * with several ranges is answered with the whole file (allowed by the RFC), as is one we cannot parse.
 */
export type RangeResult =
  | { kind: 'full' }
  | { kind: 'partial'; start: number; end: number } // end inclusive
  | { kind: 'unsatisfiable' };

export function parseByteRange(header: string | undefined, size: number): RangeResult {
  if (header === undefined) return { kind: 'full' };
  const match = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header);
  if (match === null) return { kind: 'full' };
  const [, first = '', last = ''] = match;
  if (first === '' && last === '') return { kind: 'full' };
  if (first === '') {
    const suffix = Number(last);
    if (suffix === 0 || size === 0) return { kind: 'unsatisfiable' };
    return { kind: 'partial', start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(first);
  if (start >= size) return { kind: 'unsatisfiable' };
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
  if (end < start) return { kind: 'full' };
  return { kind: 'partial', start, end };
}
