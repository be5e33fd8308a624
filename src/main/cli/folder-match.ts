/**
 * Before `folders relink` points a synced folder at a directory again, it checks that the directory
 * really holds that folder's files: every file both sides last agreed on (the synced snapshot, what the
 * service holds) is looked up at its path and its size compared. A directory holding at most half of
 * them — an empty mount point, another folder, a stale backup — is refused: relinking it would read
 * every missing file as a deletion to make on the service. It only reads (lstat); it never writes.
 */
import { join } from 'node:path';
import type { FileSystem } from '../local/index.js';
import type { SyncedEntry } from '../sync/sync-types.js';

export interface FolderMatch {
  /** Files of the synced snapshot. */
  expected: number;
  /** Of those, found at their path with their size. */
  matched: number;
  /** Up to five paths that were missing or different, for the message. */
  missing: string[];
}

export async function matchFolder(fs: FileSystem, dir: string, synced: Iterable<SyncedEntry>): Promise<FolderMatch> {
  const result: FolderMatch = { expected: 0, matched: 0, missing: [] };
  for (const entry of synced) {
    result.expected++;
    const stat = await fs.lstat(join(dir, entry.relPath)).catch(() => undefined);
    if (stat?.kind === 'file' && stat.size === entry.size) result.matched++;
    else if (result.missing.length < 5) result.missing.push(entry.relPath);
  }
  return result;
}

/** More than half of the synced files are there, as they were (a folder that never synced anything matches). */
export function matches(match: FolderMatch): boolean {
  return match.expected === 0 || match.matched * 2 > match.expected;
}
