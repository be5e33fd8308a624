/**
 * Which conflict copies still wait for the user (DESIGN.md §3: a copy is not uploaded until its conflict
 * is resolved), and what the conflicts table must learn for that to stay true. Pure: it answers the
 * copies the plan leaves alone and the bookkeeping (`changes`, in the order the pass applies them); it
 * never writes the table itself. Part of the plan's input shaping (plan-pass.ts).
 */
import { identityOf, type LocalEntry, type PendingSignature, type SyncedEntry } from './sync-types.js';

/** What the planner reads of a recorded conflict. */
export interface ConflictRecord {
  id: number;
  /** The original's path. */
  relPath: string;
  assetId: string;
  copyPath: string;
  /** The copy's file (device, inode) when it was made. */
  copyFile?: { ino: number; dev: number };
}

/** What the conflicts table learns this pass, in order. */
export type ConflictChange =
  | { kind: 'ORIGINAL_MOVED'; assetId: string; from: string; to: string }
  | { kind: 'COPY_MOVED'; id: number; to: string }
  | { kind: 'RESOLVED'; id: number };

export interface ConflictCopiesInput {
  conflicts: readonly ConflictRecord[];
  /** Stable local files. */
  local: ReadonlyMap<string, LocalEntry>;
  /** The whole local snapshot (unstable paths too): where a moved copy is looked for. */
  snapshot: ReadonlyMap<string, LocalEntry>;
  unstable: ReadonlySet<string>;
  pending: ReadonlyMap<string, PendingSignature>;
  synced: ReadonlyMap<string, SyncedEntry>;
  /** Whether the pass saw the whole root (not only hinted paths). */
  sawWholeRoot: boolean;
}

const baseName = (relPath: string): string => relPath.slice(relPath.lastIndexOf('/') + 1);

/**
 * A copy at its path is waiting. A copy the user moved without renaming it (its folder renamed or moved,
 * or the copy alone moved: the same file under its conflict name) is still waiting, at its new path,
 * even while its old path is still in the snapshot (its folder not yet rescanned). A copy that is gone
 * (deleted, or renamed: it then syncs as a file of its own, as `resolve --keep both` would have it)
 * resolves its conflict, but only once the pass can tell: not while a file of its name is unreadable
 * (it may be the copy, moved with its folder), nor after a look at hinted paths only (it may be in a
 * folder whose event was lost).
 */
export function conflictCopies(input: ConflictCopiesInput): { copies: Set<string>; changes: ConflictChange[] } {
  const changes: ConflictChange[] = followOriginals(input.conflicts, input.synced);
  const copies = new Set<string>();
  /** Files on disk that are no synced placement, by identity (the paths a file's identity was seen at). */
  let unsynced: Map<string, string[]> | undefined;
  const seenAt = (file: { ino: number; dev: number }): string[] => {
    if (unsynced === undefined) {
      unsynced = new Map();
      // A file just moved is often still settling (`pending`), not yet in the snapshot.
      const entries = [...[...input.snapshot.values()].filter((entry) => !input.synced.has(entry.relPath)).map((entry) => [identityOf(entry), entry.relPath] as const), ...[...input.pending].map(([relPath, signature]) => [identityOf(signature), relPath] as const)];
      for (const [key, relPath] of entries) unsynced.set(key, [...(unsynced.get(key) ?? []), relPath]);
    }
    return unsynced.get(identityOf(file)) ?? [];
  };
  for (const conflict of input.conflicts) {
    const atItsPath = input.local.has(conflict.copyPath) || input.unstable.has(conflict.copyPath);
    const moved = conflict.copyFile === undefined ? undefined : seenAt(conflict.copyFile).find((relPath) => relPath !== conflict.copyPath && baseName(relPath) === baseName(conflict.copyPath));
    if (moved !== undefined) {
      changes.push({ kind: 'COPY_MOVED', id: conflict.id, to: moved });
      copies.add(moved);
      if (atItsPath) copies.add(conflict.copyPath);
    } else if (atItsPath) {
      copies.add(conflict.copyPath);
    } else if (conflict.copyFile !== undefined && [...input.unstable].some((relPath) => baseName(relPath) === baseName(conflict.copyPath))) {
      continue;
    } else if (conflict.copyFile !== undefined && !input.sawWholeRoot) {
      continue;
    } else {
      changes.push({ kind: 'RESOLVED', id: conflict.id });
    }
  }
  return { copies, changes };
}

/**
 * A conflict whose original is no longer synced at its path, while its asset is synced at exactly one
 * other path, names that path. The moves' own transactions do so; this catches a move recorded another
 * way, such as one a crash rolled back and the next pass found already done.
 */
function followOriginals(conflicts: readonly ConflictRecord[], synced: ReadonlyMap<string, SyncedEntry>): ConflictChange[] {
  const changes: ConflictChange[] = [];
  /** Each asset's synced paths: built once, and only when a conflict's original left its path. */
  let pathsOf: Map<string, string[]> | undefined;
  for (const conflict of conflicts) {
    if (synced.get(conflict.relPath)?.assetId === conflict.assetId) continue;
    if (pathsOf === undefined) {
      pathsOf = new Map();
      for (const entry of synced.values()) pathsOf.set(entry.assetId, [...(pathsOf.get(entry.assetId) ?? []), entry.relPath]);
    }
    const paths = pathsOf.get(conflict.assetId) ?? [];
    const [only] = paths;
    if (only !== undefined && paths.length === 1) changes.push({ kind: 'ORIGINAL_MOVED', assetId: conflict.assetId, from: conflict.relPath, to: only });
  }
  return changes;
}
