/**
 * The one adapter between what the engine records (read-status.ts, the state database, pass reports)
 * and what the window shows (FolderView, ConflictView, NotSyncedView, HeldDeletionsView, the overall
 * word). Whatever the engine's reports add goes in here, and nowhere else in the app derives a
 * folder's state.
 */
import type { Conflict } from '../db/conflicts-repo.js';
import type { RootStatus } from '../store/read-status.js';
import type { StoreQueries } from '../store/state-store.js';
import { notSyncedWords } from './not-synced-words.js';
import type {
  AccountState,
  AppState,
  ConflictView,
  FolderActivity,
  FolderView,
  HeldDeletionsView,
  NotSyncedView,
  OverallState,
  StopReason,
  SyncProgress,
} from '../../shared/bridge/app-state.js';

/** What the controller knows of one folder beyond the database. */
export interface FolderRuntime {
  /** Paused until (ISO) or until resumed (null); undefined when not paused. */
  paused: { until: string | null } | undefined;
  /** A pass has finished since the watch started. */
  passedOnce: boolean;
  /** Transfers under way, when a pass planned some. */
  progress: SyncProgress | undefined;
  lastSyncedAt: string | null;
}

export interface ConnectionView {
  online: boolean;
  nextTryAt: string | null;
}

function stopReason(stopped: string): StopReason {
  if (stopped.startsWith('MISSING_FOLDER')) return 'MISSING_FOLDER';
  if (stopped.startsWith('MISSING_MARKER')) return 'MISSING_MARKER';
  if (stopped.startsWith('MARKER_MISMATCH')) return 'MARKER_MISMATCH';
  return 'OTHER';
}

const stopFix: Record<StopReason, string> = {
  MISSING_FOLDER: 'Put the folder back (or reconnect its drive), or remove it from Asset Sync.',
  MISSING_MARKER: 'The folder lost its .asset-sync marker: remove the folder from Asset Sync and add it again.',
  MARKER_MISMATCH: 'This folder belongs to another Asset Sync setup: remove it here, or use that setup.',
  OTHER: 'Remove the folder from Asset Sync and add it again.',
};

/**
 * What the folder is doing, most pressing first. It is up to date only when nothing else holds: not
 * stopped, signed out, paused, offline, moving or still looking; no conflict, file not synced or held
 * deletion; and no file waiting (`waiting`, from `waitingFiles`).
 */
export function folderActivity(status: RootStatus, runtime: FolderRuntime, account: AccountState, connection: ConnectionView, waiting: number): FolderActivity {
  if (status.stopped !== null) {
    const reason = stopReason(status.stopped);
    return { kind: 'stopped', reason, message: `Stopped: ${status.stopped}. Nothing was deleted.`, fix: stopFix[reason] };
  }
  if (account.kind === 'signed-out' || account.kind === 'none') return { kind: 'signed-out' };
  if (runtime.paused !== undefined) return { kind: 'paused', until: runtime.paused.until, waiting };
  if (!connection.online) return { kind: 'offline', waiting, nextTryAt: connection.nextTryAt };
  if (runtime.progress !== undefined) return { kind: 'syncing', progress: runtime.progress };
  if (!runtime.passedOnce) return { kind: 'scanning' };
  if (status.conflicts.length + status.notSynced.length + status.heldDeletes.count > 0) return { kind: 'attention' };
  if (waiting > 0) return { kind: 'waiting', waiting };
  return { kind: 'up-to-date', lastSyncedAt: runtime.lastSyncedAt };
}

/**
 * Files of the folder that have not reached the service and will by themselves: local files new or
 * changed since they were synced (or uploads under way), and the `unreachable` files that failed only
 * because the service could not be reached (an upload of theirs left in the journal is counted once).
 */
export function waitingFiles(status: RootStatus, unreachable: readonly string[]): number {
  const failed = new Set(unreachable);
  const underWay = status.uploadsInProgress.filter((upload) => !failed.has(upload.relPath)).length;
  return Math.max(status.pendingUploads, underWay) + failed.size;
}

export function folderView(status: RootStatus, activity: FolderActivity, serviceUrl: string | null): FolderView {
  return {
    id: status.id,
    path: status.path,
    remotePath: status.remotePath,
    publishLive: status.publishLive,
    activity,
    attention: { conflicts: status.conflicts.length, notSynced: status.notSynced.length, heldDeletions: status.heldDeletes.count },
    localFiles: status.localFiles,
    syncedFiles: status.syncedFiles,
    serviceUrl,
  };
}

/** Reasons that only say the service could not be reached: these files are waiting, not failing. */
const UNREACHABLE_REASONS: ReadonlySet<string> = new Set(['NETWORK', 'TIMEOUT', 'ABORTED', 'SERVICE_UNAVAILABLE', 'BAD_GATEWAY', 'GATEWAY_TIMEOUT', 'CLOSED']);

/**
 * Files that failed only because the service could not be reached (offline, or just back and not yet
 * tried again) are part of what waits rather than problems to fix: the engine tries them again by
 * itself. The status without them, and how many.
 */
export function withoutUnreachable(status: RootStatus): { status: RootStatus; waiting: number; unreachable: string[] } {
  const kept = status.notSynced.filter((issue) => !UNREACHABLE_REASONS.has(issue.reason));
  const unreachable = status.notSynced.filter((issue) => UNREACHABLE_REASONS.has(issue.reason)).map((issue) => issue.relPath);
  return { status: { ...status, notSynced: kept }, waiting: unreachable.length, unreachable };
}

/**
 * Every folder's view from the store's status and what the running app knows of it, and the statuses
 * with the files that only wait for the service left out (what the not-synced and held lists read).
 */
export function folderViews(
  statuses: readonly RootStatus[],
  runtime: (rootId: string) => FolderRuntime,
  account: AccountState,
  connection: ConnectionView,
): { roots: RootStatus[]; folders: FolderView[] } {
  const split = statuses.map((status) => withoutUnreachable(status));
  return {
    roots: split.map((part) => part.status),
    folders: split.map(({ status, unreachable }) => folderView(status, folderActivity(status, runtime(status.id), account, connection, waitingFiles(status, unreachable)), null)),
  };
}

/** The not-synced items, each in plain words (not-synced-words.ts) with its code and technical message kept. */
export function notSyncedViews(statuses: readonly RootStatus[]): NotSyncedView[] {
  return statuses.flatMap((status) =>
    status.notSynced.map((issue) => {
      const kind = issue.isFolder ? 'folder' : 'file';
      const words = notSyncedWords({ code: issue.reason, detail: issue.detail, relPath: issue.relPath, kind });
      return {
        folderId: status.id,
        relPath: issue.relPath,
        kind,
        code: issue.reason,
        reason: words.reason,
        fix: words.fix,
        detail: issue.detail,
        attempts: issue.attempts,
        retryAt: issue.retryAt,
      };
    }),
  );
}

/**
 * The conflicts as the window lists them; `sides` adds to each what only the running app knows of its
 * two versions (who changed the service's, the thumbnails: conflict-sides.ts).
 */
export function conflictViews(store: Pick<StoreQueries, 'conflicts'>, sides: (conflict: Conflict) => Pick<ConflictView, 'mine' | 'theirs'>): ConflictView[] {
  return store.conflicts().map((conflict) => ({
    id: conflict.id,
    folderId: conflict.rootId,
    relPath: conflict.relPath,
    copyPath: conflict.copyPath,
    detectedAt: conflict.dateCreated,
    ...sides(conflict),
  }));
}

export function heldDeletionViews(store: Pick<StoreQueries, 'heldDeletes'>, statuses: readonly RootStatus[]): HeldDeletionsView[] {
  return statuses
    .filter((status) => status.heldDeletes.count > 0)
    .map((status) => {
      const rows = store.heldDeletes(status.id);
      // A held row names the side the deletion would be carried out on, the opposite of where it happened.
      const deletedInService = rows.filter((row) => row.direction === 'LOCAL').length;
      return {
        folderId: status.id,
        deletedOnComputer: rows.length - deletedInService,
        deletedInService,
        count: rows.length,
        sample: rows.slice(0, 200).map((row) => row.rel_path),
      };
    });
}

/**
 * The one word for the header and the tray, most urgent first. Up to date only when every folder is:
 * with no folder at all nothing is synced yet, and a folder that waits (paused with changes, or files to
 * try again) makes the whole app wait.
 */
export function overallState(state: Pick<AppState, 'account' | 'folders' | 'connection' | 'paused'>, starting: boolean): OverallState {
  if (starting) return 'starting';
  if (state.account.kind === 'none' || state.account.kind === 'signing-in') return 'no-account';
  if (state.account.kind === 'signed-out') return 'signed-out';
  if (state.folders.length === 0) return 'no-folders';
  const attention = state.folders.some(
    (folder) =>
      folder.activity.kind === 'stopped' ||
      folder.activity.kind === 'error' ||
      folder.activity.kind === 'attention' ||
      folder.attention.conflicts + folder.attention.notSynced + folder.attention.heldDeletions > 0,
  );
  if (attention) return 'attention';
  if (state.connection.kind === 'offline') return 'offline';
  if (state.paused !== null || state.folders.every((folder) => folder.activity.kind === 'paused')) return 'paused';
  if (state.folders.some((folder) => folder.activity.kind === 'syncing' || folder.activity.kind === 'scanning')) return 'syncing';
  if (state.folders.every((folder) => folder.activity.kind === 'up-to-date' || (folder.activity.kind === 'paused' && folder.activity.waiting === 0))) return 'up-to-date';
  return 'waiting';
}
