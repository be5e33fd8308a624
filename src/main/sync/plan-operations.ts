/**
 * The planner (DESIGN.md §3): a pure function from the local and synced snapshots of one root to the
 * operations that bring the service in line. No I/O, no clock, no randomness: the same snapshots give
 * the same plan, which is what makes the simulation harness deterministic.
 *
 * Don't try to be smart here: a wrong guess means data loss. A path that is still being written is
 * neither new nor deleted; a vanished file is a move only when the same file (inode) or the same bytes
 * (MD5, never for empty files) appeared elsewhere; whatever is left over is a deletion, and deletions
 * past the guard wait for the user.
 */
import { DEFAULT_DELETE_GUARD, type LocalEntry, type Operation, type Plan, type PlanInput, type SyncedEntry } from './sync-types.js';

/** Below this many deletions the fraction rule does not apply (deleting 1 of 3 files is ordinary). */
const FRACTION_RULE_FLOOR = 5;

const basename = (relPath: string): string => relPath.slice(relPath.lastIndexOf('/') + 1);
const byPath = (a: { relPath: string }, b: { relPath: string }): number => (a.relPath < b.relPath ? -1 : a.relPath > b.relPath ? 1 : 0);
const sameIdentity = (local: LocalEntry, synced: SyncedEntry): boolean =>
  local.size === synced.size && local.mtimeMs === synced.mtimeMs && local.ino === synced.ino && local.dev === synced.dev;

export function planOperations(input: PlanInput): Plan {
  const { local, unstable, synced } = input;
  const busy = input.busy ?? new Set<string>();
  const guard = input.guard ?? DEFAULT_DELETE_GUARD;
  const moves: Operation[] = [];
  const versions: Operation[] = [];
  const refreshes: Operation[] = [];

  const vanished: SyncedEntry[] = [];
  for (const entry of [...synced.values()].sort(byPath)) {
    if (busy.has(entry.relPath)) continue;
    const now = local.get(entry.relPath);
    if (now === undefined) {
      if (!unstable.has(entry.relPath)) vanished.push(entry);
    } else if (now.md5 !== entry.md5) {
      versions.push({ kind: 'UPLOAD_VERSION', relPath: entry.relPath, assetId: entry.assetId, local: now });
    } else if (!sameIdentity(now, entry)) {
      refreshes.push({ kind: 'REFRESH_IDENTITY', relPath: entry.relPath, assetId: entry.assetId, local: now });
    }
  }
  const appeared = [...local.values()].filter((entry) => !synced.has(entry.relPath) && !busy.has(entry.relPath)).sort(byPath);

  const claimed = new Set<string>();
  const move = (from: SyncedEntry, to: LocalEntry): void => {
    claimed.add(to.relPath);
    moves.push({ kind: 'MOVE', from: from.relPath, to: to.relPath, assetId: from.assetId, local: to });
    // Moved and edited in one go: the content follows as a new version at the new path.
    if (to.md5 !== from.md5) versions.push({ kind: 'UPLOAD_VERSION', relPath: to.relPath, assetId: from.assetId, local: to });
  };

  // 1. The same file (device + inode) at a new path. Inodes are reused after a delete, so an inode
  //    match also needs the same bytes or the same name before it counts as a move.
  const byInode = new Map(appeared.map((entry) => [`${entry.dev}:${entry.ino}`, entry]));
  const unmatched: SyncedEntry[] = [];
  for (const gone of vanished) {
    const candidate = byInode.get(`${gone.dev}:${gone.ino}`);
    if (candidate !== undefined && !claimed.has(candidate.relPath) && (candidate.md5 === gone.md5 || basename(candidate.relPath) === basename(gone.relPath))) {
      move(gone, candidate);
    } else {
      unmatched.push(gone);
    }
  }

  // 2. The same bytes at a new path (copied then deleted, moved across file systems). Empty files all
  //    share one MD5, so they never match by content.
  const byContent = new Map<string, LocalEntry[]>();
  for (const entry of appeared) {
    if (claimed.has(entry.relPath) || entry.size === 0) continue;
    const key = `${entry.md5}:${entry.size}`;
    byContent.set(key, [...(byContent.get(key) ?? []), entry]);
  }
  // 3. Files still settling: the same inode with the same size and mtime is a rename (a rename
  //    changes neither), whatever the stability gate thinks of the new name. A vanished file that may
  //    be one of the others (same inode, or same size) waits: deleting now and uploading later would
  //    lose the asset's identity.
  const pending = [...(input.pending ?? new Map<string, never>())].filter(([relPath]) => !synced.has(relPath) && !busy.has(relPath));
  const deletes: Extract<Operation, { kind: 'DELETE' }>[] = [];
  for (const gone of unmatched) {
    const candidates = (byContent.get(`${gone.md5}:${gone.size}`) ?? []).filter((entry) => !claimed.has(entry.relPath));
    const candidate = candidates.find((entry) => basename(entry.relPath) === basename(gone.relPath)) ?? candidates[0];
    if (gone.size > 0 && candidate !== undefined) {
      move(gone, candidate);
      continue;
    }
    const renamed = pending.find(([relPath, sig]) => !claimed.has(relPath) && sig.dev === gone.dev && sig.ino === gone.ino && sig.size === gone.size && sig.mtimeMs === gone.mtimeMs);
    if (renamed !== undefined) {
      move(gone, { relPath: renamed[0], ...renamed[1], md5: gone.md5 });
      continue;
    }
    const maybe = pending.some(([, sig]) => (sig.dev === gone.dev && sig.ino === gone.ino) || sig.size === gone.size);
    if (!maybe) deletes.push({ kind: 'DELETE', relPath: gone.relPath, assetId: gone.assetId });
  }

  const uploads: Operation[] = appeared.filter((entry) => !claimed.has(entry.relPath)).map((entry) => ({ kind: 'UPLOAD_NEW', relPath: entry.relPath, local: entry }));

  const tripped =
    input.deletesConfirmed !== true &&
    (deletes.length > guard.maxDeletes || (deletes.length > FRACTION_RULE_FLOOR && deletes.length > guard.maxFraction * synced.size));
  return {
    operations: [...moves, ...versions, ...refreshes, ...uploads, ...(tripped ? [] : deletes)],
    heldDeletes: tripped ? deletes : [],
  };
}
