/**
 * Synced files a look at hinted paths found gone. A file gone from its path may only have moved, into
 * a folder whose watcher event was lost (an overflowed queue, a burst the watcher coalesced), and from
 * its old path alone that reads as a deletion: its asset binned (or, when the service had moved or
 * changed it, brought back by a download) and the moved file up as a second asset once a scan finds
 * it; when another client had moved the asset meanwhile, which brings it back from the bin (a move
 * beats a deletion), both live. That holds for a file the service renamed, a folder renamed whose new
 * name no event announced, and a single file moved into a folder whose event was lost (the regression
 * seeds of docs/simulation.md).
 *
 * So the pass sees the whole root before a plan that would act on such a file: a move found is a move,
 * with its asset's history. One scan a pass, however many files went: a deletion waits that long, and a
 * scan of an unchanged root is a walk of lstat calls (bench `local-scan-100k`). Pure, but for the
 * memory of what the last whole-root look found gone (`GoneWhenSeenWhole`).
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

/**
 * Synced files the last whole-root look found gone: their deletion, held for the user's word (the
 * mass-delete guard) or waiting for a quiet disk, was seen whole already, and the passes until it goes
 * through look at the whole root again only for a file gone since. One back since may move again
 * unannounced, so it leaves this memory.
 */
export class GoneWhenSeenWhole {
  private gone = new Set<string>();

  /** Whether a look at hinted paths must become a whole-root look before the plan. */
  needsWholeLook(look: LocalLook, sawWholeRoot: boolean): boolean {
    for (const relPath of this.gone) if (look.local.has(relPath)) this.gone.delete(relPath);
    return !sawWholeRoot && vanishedFiles(look).some((relPath) => !this.gone.has(relPath));
  }

  /** After the pass's look: a whole-root one remembers what it found gone. */
  looked(look: LocalLook, sawWholeRoot: boolean): void {
    if (sawWholeRoot) this.gone = new Set(vanishedFiles(look));
  }
}
