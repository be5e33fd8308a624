/**
 * The state the app publishes to its windows (DESIGN.md §5, STYLE.md "closed sets"): one snapshot,
 * computed in the main process from the engines, the account and the settings. The UI renders it and
 * never recomputes sync logic from it; a new state is a compile error in every exhaustive `switch`.
 *
 * Leaf file of the bridge contract: plain data only (JSON-safe: no Dates, Maps or class instances), so
 * it crosses Electron IPC and the loopback control server unchanged.
 */
import type { QuickDownloadState } from './quick-download.js';

/** A failure as it crosses the bridge (STYLE.md: errors cross IPC as `{ name, code, message }`). */
export interface BridgeErrorData {
  /** The error class, e.g. `SyncError`, `ApiError`, `BridgeError`. */
  name: string;
  /** Stable code a UI or script switches on, e.g. `NOT_FOUND`, `SERVICE_UNREACHABLE`. */
  code: string;
  /** One sentence a person can act on: what happened and what to do. */
  message: string;
}

/** Files and bytes of one direction: done so far of what the current pass planned. */
export interface TransferTally {
  filesDone: number;
  filesPlanned: number;
  bytesDone: number;
  bytesPlanned: number;
}

/** A sync in progress, for a progress bar that never jumps backwards within one pass. */
export interface SyncProgress {
  send: TransferTally;
  receive: TransferTally;
  /** Smoothed bytes per second over both directions; null until there is enough to say. */
  bytesPerSecond: number | null;
  /** Seconds left at the smoothed rate, counting files not yet started; null when unknown. */
  etaSeconds: number | null;
}

/** Why a folder is stopped: a guard that refused to act rather than risk data (DESIGN.md §3 Safety). */
export type StopReason = 'MISSING_FOLDER' | 'MISSING_MARKER' | 'MARKER_MISMATCH' | 'OTHER';

/**
 * What one synced folder is doing. Exactly one at a time; what needs the user's attention (conflicts,
 * files that could not sync, held deletions) is counted beside it in `FolderView.attention`. A folder
 * is `up-to-date` only when nothing waits, fails, is held or is in conflict, and it is not paused.
 */
export type FolderActivity =
  /** Nothing to do: local, service and the last agreed state match, and nothing waits for the user. */
  | { kind: 'up-to-date'; lastSyncedAt: string | null }
  /**
   * Nothing moves right now, but `waiting` files have not reached the service yet: changes a pass has
   * not sent, or files that failed only because the service could not be reached (tried again by
   * themselves). Waiting is not failing.
   */
  | { kind: 'waiting'; waiting: number }
  /** Nothing moves, and conflicts, files that could not sync or held deletions wait for the user (`attention` counts them). */
  | { kind: 'attention' }
  /** Looking at the disk or the service to find out what changed. */
  | { kind: 'scanning' }
  /** Transfers under way. */
  | { kind: 'syncing'; progress: SyncProgress }
  /** Paused by the user: nothing moves until `until` (ISO time) or, when null, until resumed. */
  | { kind: 'paused'; until: string | null; waiting: number }
  /** The service cannot be reached; local changes are kept and wait. `nextTryAt` is ISO time. */
  | { kind: 'offline'; waiting: number; nextTryAt: string | null }
  /** The account's sign-in is gone or expired; nothing syncs until the user signs in again. */
  | { kind: 'signed-out' }
  /** A guard stopped the folder; nothing was deleted. `fix` names the way out (a command or action). */
  | { kind: 'stopped'; reason: StopReason; message: string; fix: string }
  /** Anything else that stops the folder from syncing. */
  | { kind: 'error'; error: BridgeErrorData };

/** What waits for the user in one folder. */
export interface FolderAttention {
  conflicts: number;
  notSynced: number;
  heldDeletions: number;
}

export interface FolderView {
  /** Stable id of the synced folder (the engine's root id). */
  id: string;
  /** Absolute local path. */
  path: string;
  /** The service folder it maps to: `/` or `/Brand/Logos`. */
  remotePath: string;
  /** New assets go LIVE instead of staying STAGED. */
  publishLive: boolean;
  activity: FolderActivity;
  attention: FolderAttention;
  /** Files known on disk and files in step with the service (synced ≤ local + remote-only). */
  localFiles: number;
  syncedFiles: number;
  /** Where the folder is in the service's web app, when the server has one; null otherwise. */
  serviceUrl: string | null;
}

/** Who the app syncs as. */
export type AccountState =
  /** No account yet (first run): the UI offers sign-in or the built-in local library. */
  | { kind: 'none' }
  /** The system browser is open on the server's sign-in page; `authorizeUrl` is shown as a fallback. */
  | { kind: 'signing-in'; server: string; authorizeUrl: string }
  /** Signed in. `local` is true for the built-in local library (the embedded service). */
  | { kind: 'signed-in'; server: string; email: string; name: string; local: boolean }
  /** Was signed in; the sign-in expired or was revoked. Files are kept; nothing syncs until sign-in. */
  | { kind: 'signed-out'; server: string; reason: BridgeErrorData | null };

/**
 * The one-word summary the window header and the tray icon show, most urgent first. `no-folders`: signed
 * in with no synced folder, so nothing is synced yet. `waiting`: nothing moves, but files wait to reach
 * the service (in a paused folder, or to be tried again). `up-to-date` only when every folder is.
 */
export type OverallState = 'starting' | 'no-account' | 'signed-out' | 'no-folders' | 'attention' | 'offline' | 'paused' | 'syncing' | 'waiting' | 'up-to-date';

/** Settings as the user sees them; persisted by the main process (its settings store, `config.json`). */
export interface AppSettings {
  /** New folders' default for "publish as live". */
  publishLive: boolean;
  /** Bandwidth caps in bytes per second; null = no cap. */
  uploadBytesPerSecond: number | null;
  downloadBytesPerSecond: number | null;
  /** Start the app when the user logs in (desktop only; ignored headless). */
  launchAtLogin: boolean;
  /** With no account, start with the built-in local library instead of asking. */
  startWithLocalLibrary: boolean;
  /** Native notifications for conflicts, files that cannot sync, held deletions, sign-in needed. */
  notifications: boolean;
  /** Where quick downloads land (absolute); null = the system's Downloads folder. */
  downloadFolder: string | null;
}

/** A file changed on both sides. The service's version has the name; the user's is kept beside it. */
export interface ConflictView {
  id: number;
  folderId: string;
  /** The service's version, at the original name. */
  relPath: string;
  /** The user's version, kept as `name (conflict YYYY-MM-DD HHMMSS).ext`. */
  copyPath: string;
  detectedAt: string;
  mine: ConflictSide;
  theirs: ConflictSide;
}

export interface ConflictSide {
  size: number | null;
  modifiedAt: string | null;
  /** Who made the change, where the service says; null when it is not known (yet). */
  modifiedBy: ConflictAuthor | null;
  /**
   * A thumbnail, if any: the app's `/conflict-preview/<id>/<mine|theirs>` address, which it answers by
   * conflict id alone (a small image of the local copy; the service's preview of the asset's file).
   */
  previewUrl: string | null;
}

/** Who changed a version: the signed-in user (elsewhere than on this computer), or another person. */
export type ConflictAuthor = { kind: 'you' } | { kind: 'person'; name: string };

/** The two versions of a conflict: `mine` the local copy, `theirs` the service's. */
export type ConflictSideName = 'mine' | 'theirs';

/**
 * A file (or folder) that could not sync: what happened and what to try in a designer's words, and the
 * engine's code and technical message for whoever needs them.
 */
export interface NotSyncedView {
  folderId: string;
  relPath: string;
  /** A folder (nothing in it syncs while it is listed here) or anything else on disk. */
  kind: 'file' | 'folder';
  /** Stable code, e.g. `UNREADABLE`, `INVALID_NAME`, `NAME_CLASH`. */
  code: string;
  /** What happened, in plain words: no error codes, no jargon. */
  reason: string;
  /** The fix to try, in plain words; never repeats `reason`. */
  fix: string;
  /** The technical message as the engine recorded it (e.g. `cannot read the file: EACCES`), for "Details". */
  detail: string;
  attempts: number;
  /** When the engine tries again by itself (ISO time), or null when it waits for the user. */
  retryAt: string | null;
}

/**
 * Deletions the mass-delete guard held back in one folder, waiting for confirm or restore, counted by
 * the side they happened on. Confirming carries each one to the other side; restoring undoes it.
 */
export interface HeldDeletionsView {
  folderId: string;
  /** Deleted on this computer: confirming deletes them in the service (to its bin). */
  deletedOnComputer: number;
  /** Deleted in the service: confirming deletes them on this computer (to the Trash). */
  deletedInService: number;
  /** Both sides together. */
  count: number;
  /** Up to 200 of the paths, for the user to check. */
  sample: string[];
}

/** The whole published state. `revision` grows with every change, so a transport may drop stale ones. */
export interface AppState {
  revision: number;
  overall: OverallState;
  account: AccountState;
  /** The service's reachability, shared by all folders (one calm line, not one per file). */
  connection: { kind: 'online' } | { kind: 'offline'; server: string; since: string; nextTryAt: string | null; error: BridgeErrorData };
  /** Global pause (tray "pause for 1 hour / until resumed"): ISO end, or null = until resumed. */
  paused: { until: string | null } | null;
  folders: FolderView[];
  conflicts: ConflictView[];
  /** The first 1,000 not-synced items of all folders; `notSyncedTotal` counts them all. */
  notSynced: NotSyncedView[];
  notSyncedTotal: number;
  heldDeletions: HeldDeletionsView[];
  settings: AppSettings;
  /** Quick download: where files land, the recent downloads and the service's presets. */
  quickDownload: QuickDownloadState;
  /** Desktop only: what the shell can do, so the UI hides what does not apply headless. */
  host: HostInfo;
  /**
   * Problems of the app itself the user should see, each once (e.g. SETTINGS_UNREADABLE: a hand-edited
   * settings file that no longer parsed, kept aside; SIGN_IN_FAILED). Absent or empty when none.
   */
  problems?: BridgeErrorData[];
}

export interface HostInfo {
  kind: 'electron' | 'headless';
  platform: 'darwin' | 'win32' | 'linux' | 'other';
  /** Whether tokens can be kept encrypted (Electron safeStorage); false means sign-in at each start. */
  secureStorage: boolean;
  version: string;
  /**
   * Whether a file manager can show a path here ("Show in folder", "Open folder"). Decided once at
   * start: false for the headless app where no opener can run (no display, no xdg-open); the window
   * then shows the path to copy instead of a button that would only fail.
   */
  canOpenPaths: boolean;
}
