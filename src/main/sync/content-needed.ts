/**
 * Which unread local files (md5 null: new files the scanner was allowed not to read) the planner needs
 * the content of. A new file is only ever compared by its bytes when something could be the same file:
 * a synced entry at its path, a service file at its path, a synced file that vanished and has its
 * size or inode (a move, detected by content or inode: diff-local.ts), or a synced file whose path
 * holds another file now and has its inode (moved away, a new file made at its old path). Any other
 * new file can only be uploaded, and the upload's completion tells its MD5 (the service's checksum of
 * the bytes sent), so reading it beforehand would only delay the first byte (for a 1 GiB file, 1.5 s
 * of MD5 here) or, for a small file, read it twice (again for its PUT).
 *
 * Pure. The planner holds back what this names (never deciding on unknown content); the caller reads
 * those files and plans again.
 */
import { identityOf, type PlanInput } from './sync-types.js';

export function contentNeeded(input: Pick<PlanInput, 'local' | 'synced' | 'remote'>): Set<string> {
  const needed = new Set<string>();
  const unread = [...input.local.values()].filter((entry) => entry.md5 === null);
  if (unread.length === 0) return needed;
  // Sizes and inodes of synced files that are not where they were: what a move could be.
  const sizes = new Set<number>();
  const inodes = new Set<string>();
  for (const synced of input.synced.values()) {
    const now = input.local.get(synced.relPath);
    if (now === undefined) {
      sizes.add(synced.size);
      inodes.add(identityOf(synced));
    } else if (now.dev !== synced.dev || now.ino !== synced.ino) {
      // Another file at its path: the synced one may have moved away, a new file made where it was
      // (diff-local-displaced.ts `displacedFiles`). Left unread, it would go up as a second asset.
      inodes.add(identityOf(synced));
    }
  }
  for (const entry of unread) {
    const { relPath } = entry;
    if (input.synced.has(relPath) || input.remote?.entries.has(relPath) === true || sizes.has(entry.size) || inodes.has(identityOf(entry))) needed.add(relPath);
  }
  return needed;
}
