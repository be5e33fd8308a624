/**
 * The state store: the one owner of the state database (state.db). Every write goes through it — the
 * sync layer's records (sync-records.ts) and single-table writes (its repos), and a user's requests
 * (retry, forget a folder, confirm or restore held deletions, resolve a conflict) and the app's
 * activity (kept a batch at a time, capped; the engine is not handed its table) — and the app, the CLI
 * and the simulation read status through its queries. It sits on the SQL edge (db/) and below the sync
 * layer.
 * Must never: hand out the database connection, talk to the service or the disk, or know the planner.
 */
import type { StateDb } from '../db/open-state-db.js';
import type { Conflict, ConflictsRepo } from '../db/conflicts-repo.js';
import type { HeldDeleteRow } from '../db/issues-repo.js';
import type { RootRow } from '../db/roots-repo.js';
import type { SnapshotsRepo } from '../db/snapshots-repo.js';
import type { SyncedEntry } from '../model/file-entry.js';
import { readStatus, type RootStatus } from './read-status.js';
import type { ActivityEntry } from '../../shared/bridge/app-events.js';
import { activityRepo } from '../db/activity-repo.js';
import { activityEntry, activityRow } from './activity-rows.js';
import { stateRepos, type StateRepos } from './state-repos.js';
import { syncRecords, type SyncRecords } from './sync-records.js';

/** What the app, the CLI and the simulation read of the state. Never writes. */
export interface StoreQueries {
  /** Every root's status, as `asset-sync status` and the app show it (read-status.ts). */
  status: () => RootStatus[];
  roots: () => RootRow[];
  root: (rootId: string) => RootRow | undefined;
  rootByPath: (path: string) => RootRow | undefined;
  /** Every conflict waiting for the user, oldest first. */
  conflicts: () => Conflict[];
  /** The deletions the mass-delete guard holds for the root. */
  heldDeletes: (rootId: string) => HeldDeleteRow[];
  /** The root's synced snapshot: path → the last state both sides agreed on. */
  synced: (rootId: string) => Map<string, SyncedEntry>;
  /** The app's kept activity: the newest `limit` entries, newest first. */
  recentActivity: (limit: number) => ActivityEntry[];
}

/** What resolving a conflict reads and writes (sync/resolve-conflict.ts works on these and the disk). */
export interface ConflictResolution {
  conflicts: ConflictsRepo;
  snapshots: SnapshotsRepo;
  root: (rootId: string) => RootRow | undefined;
}

/** What a user's request changes in the state (the app's commands, the CLI's). */
export interface StoreCommands {
  /** The root's failed paths (or the one path) are tried again on the next pass, whatever their back-off said. */
  retryNow: (rootId: string, relPath?: string) => void;
  /** Forgets the root and its whole state (every row of it goes with it); nothing on disk or on the service. */
  forgetRoot: (rootId: string) => void;
  /** Points the root at `path` (moved there) or, at the same path, lets it run again. */
  relinkRoot: (root: RootRow, path: string) => void;
  /** Confirms the root's held deletions (the next pass carries them out); answers how many. */
  confirmDeletes: (rootId: string) => number;
  /**
   * Forgets that both sides agreed on the files whose deletion is held, and the held set: the side that
   * still has them is then the source, and the next pass copies them back instead of deleting them.
   */
  restoreHeldDeletions: (rootId: string) => void;
  /**
   * Keeps the app's activity entries (new ones, and ones that changed, by id) and drops all but the
   * newest `cap`, in one transaction: the app writes a batch at a time, never one commit per file.
   */
  keepActivity: (entries: readonly ActivityEntry[], cap: number) => void;
  readonly resolution: ConflictResolution;
}

/** What the engine exposes of its store to the app, the CLI and the simulation (`engine.store`). */
export type EngineStore = StoreQueries & StoreCommands;

/** The whole store: the engine's wiring also hands the sync layer its records and repos. */
export interface StateStore extends EngineStore {
  readonly repos: StateRepos;
  readonly records: SyncRecords;
  /** Changes with every commit: this connection's writes, and those of any other (a CLI's confirm-deletes or resolve). */
  stateVersion: () => string;
  close: () => void;
}

export function openStateStore(db: StateDb): StateStore {
  const repos = stateRepos(db);
  const { roots, issues, snapshots, conflicts } = repos;
  const records = syncRecords(db, repos);
  const totalChanges = db.prepare<[], { n: number }>('SELECT total_changes() AS n');
  const restoreHeld = db.transaction((rootId: string) => {
    for (const row of issues.heldDeletes(rootId)) snapshots.deleteSynced(rootId, row.rel_path);
    issues.clearHeld(rootId);
  });
  // The plan reads nothing of the activity: its rows are left out of the state's version, so keeping
  // them never wakes a resting root (sync/plan-rest.ts).
  const activity = activityRepo(db);
  let activityChanges = 0;
  const keepActivity = db.transaction((entries: readonly ActivityEntry[], cap: number) => {
    const before = totalChanges.get()?.n ?? 0;
    for (const entry of entries) activity.put(activityRow(entry));
    activity.trim(cap);
    activityChanges += (totalChanges.get()?.n ?? 0) - before;
  });
  return {
    repos,
    records,
    status: () => readStatus(db),
    roots: () => roots.all(),
    root: (rootId) => roots.byId(rootId),
    rootByPath: (path) => roots.byPath(path),
    conflicts: () => conflicts.all(),
    heldDeletes: (rootId) => issues.heldDeletes(rootId),
    synced: (rootId) => snapshots.synced(rootId),
    retryNow: (rootId, relPath) => issues.retryNow(rootId, relPath),
    forgetRoot: (rootId) => roots.remove(rootId),
    relinkRoot(root, path) {
      if (path !== root.path) roots.move(root.id, path);
      else roots.setStopped(root.id, null);
    },
    confirmDeletes: (rootId) => issues.confirmDeletes(rootId),
    restoreHeldDeletions: (rootId) => restoreHeld(rootId),
    recentActivity: (limit) => activity.newest(limit).flatMap((row) => activityEntry(row) ?? []),
    keepActivity: (rows, cap) => keepActivity(rows, cap),
    resolution: { conflicts, snapshots, root: (rootId) => roots.byId(rootId) },
    stateVersion: () => `${(totalChanges.get()?.n ?? 0) - activityChanges}:${String(db.pragma('data_version', { simple: true }))}`,
    close: () => db.close(),
  };
}
