/**
 * Index-backed candidates for wildcard text matches (FIELD_MATCHES `*text*`) on file names and text
 * field values, from the trigram indexes of migration 0021 (file_name_trigrams, value_trigrams).
 * An FTS5 trigram index answers `LIKE` only without an ESCAPE clause, and only narrows anything when the
 * pattern holds a run of at least three literal characters; so the candidates come from a looser
 * pattern (each escaped `%` or `_` becomes the one-character wildcard `_`), and the caller keeps its exact
 * `LIKE … ESCAPE` test beside them. The index folds case at least as widely as LIKE does (ASCII), so
 * its candidates always include every exact match. Builds SQL only; the pattern is bound as a parameter.
 */
import type { SqlParams } from './sql-params.js';
import { wildcardToLike } from './wildcard-pattern.js';

/** Fewer literal characters in a row than this and the trigram index cannot narrow the search. */
const TRIGRAM = 3;

/**
 * The pattern for the index from an escaped LIKE pattern (wildcard-pattern.ts), or undefined when no
 * run of literal characters is long enough for the index to help.
 */
export function trigramPattern(likePattern: string): string | undefined {
  let pattern = '';
  let run = 0;
  let longest = 0;
  // Code points, as the trigram tokenizer counts characters.
  const chars = Array.from(likePattern);
  for (let index = 0; index < chars.length; index++) {
    let char = chars[index] ?? '';
    if (char === '\\' && index + 1 < chars.length) {
      index += 1;
      const literal = chars[index] ?? '';
      // A literal `%` or `_` cannot be written without ESCAPE: any one character stands in for it.
      char = literal === '%' || literal === '_' ? '_' : literal;
    }
    if (char === '%' || char === '_') {
      run = 0;
    } else {
      run += 1;
      longest = Math.max(longest, run);
    }
    pattern += char;
  }
  return longest >= TRIGRAM ? pattern : undefined;
}

/** Whether a FIELD_MATCHES pattern (with `*` wildcards) can take its candidates from a trigram index. */
export function hasTrigrams(wildcardText: string): boolean {
  return trigramPattern(wildcardToLike(wildcardText).pattern) !== undefined;
}

/**
 * `exact` (the match on the current file's name), narrowed first to assets with a file whose name may
 * match or that the index has not taken in yet; `exact` alone when the index cannot narrow it. Older
 * files' names are candidates too: `exact` decides.
 */
export function fileNameMatchSql(likePattern: string, exact: string, params: SqlParams): string {
  const loose = trigramPattern(likePattern);
  if (loose === undefined) return exact;
  // The files added since the index last caught up (its tail, file-name-index.ts) are candidates too.
  return (
    `(a.id IN (SELECT f.asset_id FROM asset_files f WHERE f.rowid IN (SELECT rowid FROM file_name_trigrams WHERE filename LIKE ${params.bind(loose)})` +
    ` UNION ALL SELECT f.asset_id FROM asset_files f WHERE f.rowid > (SELECT indexed_through FROM text_index_progress WHERE name = 'file_names'))` +
    ` AND ${exact})`
  );
}

/**
 * The condition on an `asset_values v` row of a text field: `exact`, narrowed first to the rows the
 * value index names; `exact` alone when the index cannot narrow it.
 */
export function valueMatchSql(likePattern: string, exact: string, params: SqlParams): string {
  const loose = trigramPattern(likePattern);
  if (loose === undefined) return exact;
  return `v.rowid IN (SELECT rowid FROM value_trigrams WHERE value LIKE ${params.bind(loose)}) AND ${exact}`;
}
