/**
 * Synced files a look at hinted paths found gone. A file gone from its path may only have moved, into
 * a folder whose watcher event was lost (an overflowed queue, a burst the watcher coalesced), and from
 * its old path alone that reads as a deletion. Taken as one, its asset was binned (or, when the
 * service had moved or changed it, the plan brought it back by a download) and the moved file went up
 * as a second asset once a scan found it; when another client had moved the asset meanwhile, which
 * brings it back from the bin (a move beats a deletion), both were live. Seen so in the simulation for
 * a file the service renamed (seed 61067), a folder renamed whose new name no event announced (73549)
 * and a single file moved into a folder whose event was lost (87457).
 *
 * So the caller sees the whole root before a plan that would act on such a file: a move found is a
 * move, with its asset's history. One scan a pass, however many files went: a deletion waits that
 * long, and a scan of an unchanged root is a walk of lstat calls (bench `local-scan-100k`).
 */
import { identityOf, type LocalEntry, type SyncedEntry } from './sync-types.js';

/** What a pass saw of the disk (hinted paths only, perhaps) beside what was synced. */
export interface LocalLook {
  local: ReadonlyMap<string, LocalEntry>;
  unstable: ReadonlySet<string>;
  synced: ReadonlyMap<string, SyncedEntry>;
}

/** Synced files neither on disk at their path, nor still being written there, nor seen at another path (same device and inode): sorted. */
export function vanishedFiles(input: LocalLook): string[] {
  const { local, unstable, synced } = input;
  /** A file seen at another path (same device and inode) is a move the plan sees already. */
  const seen = new Set([...local.values()].map((entry) => identityOf(entry)));
  return [...synced.values()]
    .filter((entry) => !local.has(entry.relPath) && !unstable.has(entry.relPath) && !seen.has(identityOf(entry)))
    .map((entry) => entry.relPath)
    .sort();
}
