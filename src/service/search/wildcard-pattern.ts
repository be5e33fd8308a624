/**
 * Turns a FIELD_MATCHES text with `*` wildcards into a LIKE pattern for `… LIKE ? ESCAPE '\'`: `*` matches
 * any run of characters, `\*` and `\\` stand for a literal star and backslash, and LIKE's own specials
 * (`%`, `_`, `\`) are escaped so they match only themselves. The pattern is always bound as a parameter,
 * never spliced into SQL. Bounds the number of wildcards, since LIKE backtracks on each one.
 */

export const MAX_WILDCARDS = 10;

export function wildcardToLike(text: string): { pattern: string; wildcards: number } {
  let pattern = '';
  let wildcards = 0;
  let afterWildcard = false;
  for (let index = 0; index < text.length; index++) {
    const char = text.charAt(index);
    if (char === '*') {
      // `**` is the same as `*`: one LIKE wildcard.
      if (!afterWildcard) {
        pattern += '%';
        wildcards += 1;
      }
      afterWildcard = true;
      continue;
    }
    afterWildcard = false;
    let literal = char;
    if (char === '\\' && index + 1 < text.length) {
      index += 1;
      literal = text.charAt(index);
    }
    pattern += literal === '%' || literal === '_' || literal === '\\' ? `\\${literal}` : literal;
  }
  return { pattern, wildcards };
}
