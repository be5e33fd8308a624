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
import { identityOf, type LocalEntry, type RemoteView, type SyncedEntry } from './sync-types.js';

export function vanishedRestores(input: {
  local: ReadonlyMap<string, LocalEntry>;
  unstable: ReadonlySet<string>;
  synced: ReadonlyMap<string, SyncedEntry>;
  remote: RemoteView;
}): string[] {
  const { local, unstable, synced } = input;
  /** A file seen at another path (same device and inode) is a move the plan sees: no restore. */
  const seen = new Set([...local.values()].map((entry) => identityOf(entry)));
  const vanished = [...synced.values()].filter((entry) => !local.has(entry.relPath) && !unstable.has(entry.relPath) && !seen.has(identityOf(entry)));
  if (vanished.length === 0) return [];
  const states = diffRemote(synced, input.remote).states;
  return vanished.filter((entry) => {
    const kind = states.get(entry.relPath)?.kind;
    return kind === 'changed' || kind === 'moved';
  }).map((entry) => entry.relPath);
}
