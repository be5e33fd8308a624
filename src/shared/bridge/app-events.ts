/**
 * What the app pushes to its windows besides the state: per-file transfer progress and the moments the
 * user should hear about (a new conflict, files that cannot sync, held deletions, sign-in needed). The
 * state snapshot is itself one event, so a window needs only this stream plus the commands.
 *
 * Events are hints for liveliness and notifications; the state is the truth. A window that missed
 * events (reconnect, sleep) loses nothing by rendering the next state.
 */
import type { AppState, BridgeErrorData, ConflictView, HeldDeletionsView, NotSyncedView } from './app-state.js';
import type { QuickDownloadView } from './quick-download.js';

/** One row of the activity list: a transfer or a local change the app made. */
export interface ActivityEntry {
  /** Grows with every new entry, across all folders (the list's sort key and paging cursor). */
  id: number;
  folderId: string;
  relPath: string;
  kind: ActivityKind;
  /** `running` entries get `transfer` events until they end as `done` or `failed`. */
  status: 'running' | 'done' | 'failed';
  /** Where the file was before (a move, a conflict copy's original name); null otherwise. */
  from: string | null;
  /** Bytes moved so far and the file's size (transfers); 0 and null otherwise. */
  bytesDone: number;
  bytesTotal: number | null;
  /** ISO time of the last change to this entry. */
  at: string;
  /** Why it failed, when it did. */
  error: BridgeErrorData | null;
}

export type ActivityKind =
  | 'upload'
  | 'download'
  /** A file moved or renamed on one side and followed on the other. */
  | 'move'
  /** A folder moved or renamed in the service and followed on this computer (relPath the folder). */
  | 'folder-move'
  /** A file removed on one side and removed (to the bin or trash) on the other. */
  | 'delete'
  /** A file moved from the synced folder to this computer's Trash (removed in the service, or a conflict resolved). */
  | 'trash'
  /** Our version of a file both sides changed, set aside under a new name (relPath) so the service's version takes its own (`from`). */
  | 'conflict-copy'
  /** Files copied into the folder from a drop on the window or the tray. */
  | 'copy-in';

export type AppEvent =
  /** A new state snapshot (sent at most a few times a second, and at once on connect). */
  | { type: 'state'; state: AppState }
  /** A new activity entry, or a change to one (progress, done, failed): replace by id. */
  | { type: 'activity'; entry: ActivityEntry }
  /** Conflicts that appeared since the last event (batched: never one event per file). */
  | { type: 'conflicts'; conflicts: ConflictView[] }
  /** Files that could not sync since the last event (batched). */
  | { type: 'not-synced'; items: NotSyncedView[]; total: number }
  /** The mass-delete guard held deletions back. */
  | { type: 'held-deletions'; held: HeldDeletionsView }
  /** The account needs the user to sign in again. */
  | { type: 'sign-in-needed'; server: string; reason: BridgeErrorData | null }
  /** A quick download started, moved on (at most a few times a second), finished or failed: replace by id. */
  | { type: 'quick-download'; download: QuickDownloadView };

export type AppEventType = AppEvent['type'];
