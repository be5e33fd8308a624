/**
 * Synced files a look at hinted paths found gone while the service moved or changed their asset: the
 * plan brings such a file back ("deleted here, edited there: the edit wins"), by a download at the
 * service's path. A file gone from its path may only have moved, into a folder whose watcher event was
 * lost: brought back, it was on disk twice, and the moved copy went up as a second asset once a scan
 * found it (simulation seed 61067: folder `B` renamed `D` with `D`'s event dropped, the colleague
 * renamed `B/c.txt`; the client downloaded it to `B/logo.png` and later uploaded `D/c.txt`). The caller
 * scans the whole root before such a plan. Rare (an edit or move on the service meeting a local
 * deletion), so the whole-root scan costs nothing in the common case of a plain deletion.
 */
import { diffRemote } from './diff-remote.js';
import { relDirOf } from './folder-mapper.js';
import { identityOf, type LocalEntry, type RemoteView, type SyncedEntry } from './sync-types.js';

/** What a pass saw of the disk (hinted paths only, perhaps) beside what was synced. */
interface LocalLook {
  local: ReadonlyMap<string, LocalEntry>;
  unstable: ReadonlySet<string>;
  synced: ReadonlyMap<string, SyncedEntry>;
}

export function vanishedRestores(input: LocalLook & { remote: RemoteView }): string[] {
  const vanished = vanishedFiles(input);
  if (vanished.length === 0) return [];
  const states = diffRemote(input.synced, input.remote).states;
  return vanished.filter((entry) => {
    const kind = states.get(entry.relPath)?.kind;
    return kind === 'changed' || kind === 'moved';
  }).map((entry) => entry.relPath);
}

/**
 * The folders that held synced files a hinted look found gone (sorted, the root's top left out), for
 * the caller to ask the disk whether one is gone as a whole. A folder renamed whose new name no watcher
 * event announced reads, from its old path alone, as the deletion of everything in it: each file's
 * asset was binned and went up again as a new asset at the next whole-root scan; once another client
 * had moved the folder too, and brought the asset back for its move (a move beats a deletion), both
 * were live (simulation seed 73549). A file deleted from a folder that is still there costs no scan.
 */
export function vanishedFolders(input: LocalLook): string[] {
  const folders = new Set(vanishedFiles(input).map((entry) => relDirOf(entry.relPath)));
  folders.delete('');
  return [...folders].sort();
}

/** Synced files neither on disk at their path, nor still being written there, nor seen at another path (same device and inode). */
function vanishedFiles(input: LocalLook): SyncedEntry[] {
  const { local, unstable, synced } = input;
  /** A file seen at another path (same device and inode) is a move the plan sees: no restore. */
  const seen = new Set([...local.values()].map((entry) => identityOf(entry)));
  return [...synced.values()].filter((entry) => !local.has(entry.relPath) && !unstable.has(entry.relPath) && !seen.has(identityOf(entry)));
}
