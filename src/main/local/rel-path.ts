/**
 * Relative paths as the engine keys them (DESIGN.md §3): relative to the sync root, `/` separators,
 * NFC-normalised, '' for the root itself. Only the spelling lives here; what a path may contain is
 * check-name.ts, and turning one back into a place on disk is locate-path.ts (names on disk may be NFD).
 */
import { isAbsolute, relative, sep } from 'node:path';

// eslint-disable-next-line no-control-regex -- the ASCII range is the point
const NON_ASCII = /[^\u0000-\u007f]/;

/** NFC form of a name; ASCII names (the vast majority) skip the ICU call. */
export function nfc(name: string): string {
  return NON_ASCII.test(name) ? name.normalize('NFC') : name;
}

export function isAscii(name: string): boolean {
  return !NON_ASCII.test(name);
}

export function joinRel(parent: string, name: string): string {
  return parent === '' ? name : `${parent}/${name}`;
}

/** '' for a top-level path. */
export function parentRel(relPath: string): string {
  const slash = relPath.lastIndexOf('/');
  return slash < 0 ? '' : relPath.slice(0, slash);
}

export function baseName(relPath: string): string {
  return relPath.slice(relPath.lastIndexOf('/') + 1);
}

export function relSegments(relPath: string): string[] {
  return relPath === '' ? [] : relPath.split('/');
}

/** Whether `relPath` is `ancestor` or inside it ('' contains everything). */
export function isSameOrInside(ancestor: string, relPath: string): boolean {
  return ancestor === '' || relPath === ancestor || relPath.startsWith(`${ancestor}/`);
}

/**
 * The relPath of an absolute path under `root` (as a watcher reports it), or undefined when it is not
 * under the root. Both are absolute native paths; the result is NFC with `/` separators.
 */
export function toRelPath(root: string, absolutePath: string): string | undefined {
  const rel = relative(root, absolutePath);
  if (rel === '') return '';
  if (rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return undefined;
  const slashed = sep === '/' ? rel : rel.split(sep).join('/');
  return nfc(slashed);
}

/**
 * Reduces a set of relPaths to the ones not covered by another in the set (a directory covers what is
 * inside it), sorted. Used to merge hints before a rescan.
 */
export function outermostPaths(relPaths: Iterable<string>): string[] {
  const sorted = [...new Set(relPaths)].sort();
  const result: string[] = [];
  for (const relPath of sorted) {
    const last = result.at(-1);
    if (last !== undefined && isSameOrInside(last, relPath)) continue;
    result.push(relPath);
  }
  return result;
}
