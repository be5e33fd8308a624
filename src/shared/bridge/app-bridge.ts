/**
 * The one contract between the app and its windows (STYLE.md "one typed bridge"): every command a
 * window can send, the queries it can make, and the event stream. Two transports implement it, Electron
 * IPC (src/main/desktop/) and the loopback control server (src/main/control/), and the renderer talks only
 * to this interface, so the same UI runs in the Electron window and in any browser.
 *
 * Every method either resolves or rejects with a `BridgeError` (`{ name, code, message }` on the wire).
 * Commands are idempotent where they can be (pausing a paused folder is a success), so a retry after a
 * lost answer is harmless.
 */
import type { CopyResult } from './copy-result.js';
import type { ActivityEntry, AppEvent } from './app-events.js';
import type { AppSettings, AppState } from './app-state.js';
import type { RemapChoice } from '../sync/remap-choice.js';
import type { QuickDownloadRequest, QuickDownloadView, QuickPreset, QuickSearchResult } from './quick-download.js';

/** How long a pause lasts. */
export type PauseSpan = 'one-hour' | 'until-resumed';

export type ConflictChoice = 'mine' | 'theirs' | 'both';

/** A file or folder to copy into a synced folder (drag and drop, tray drop). Never moved: copied. */
export type CopyItem =
  /** A path on this machine (Electron: the dropped file's path; the CLI). Folders are copied whole. */
  | { kind: 'path'; path: string }
  /** Bytes from a browser drop, with their relative path inside the drop (`Shots/a.png`). */
  | { kind: 'bytes'; relPath: string; lastModified: number; body: Blob };

export interface AddFolderRequest {
  /** Absolute local path; created when missing. */
  path: string;
  /** `/` or `/Brand/Logos`. */
  remotePath: string;
  publishLive: boolean;
}

export interface UpdateFolderRequest {
  folderId: string;
  /** `/` or `/Brand/Logos`: the folder's new place in the service. */
  remotePath?: string;
  publishLive?: boolean;
  /** With a new `remotePath`: move what is in the old place along to the new one, or leave it there. */
  remap?: RemapChoice;
}

export interface SignInRequest {
  /** The service's base URL, e.g. `https://acme.example.com` or `http://127.0.0.1:7480`. */
  server: string;
}

export interface AppBridge {
  // Queries
  /** The current state (also pushed as `state` events). */
  getState(): Promise<AppState>;
  /** Activity entries, newest first: `before` an id (exclusive) for the next page; at most `limit` (≤ 5,000). */
  listActivity(query: { before?: number; limit: number }): Promise<ActivityEntry[]>;

  // Folders
  addFolder(request: AddFolderRequest): Promise<void>;
  /** Forgets a synced folder. Never touches files, on disk or in the service. */
  removeFolder(request: { folderId: string }): Promise<void>;
  /**
   * Changes a folder's place in the service (`remotePath`) or publish-as-live, in effect at once. A new
   * place needs `remap`, what happens to what is already in the old place (REMAP_CHOICE_NEEDED without
   * it); either way no file on this computer is moved or deleted.
   */
  updateFolder(request: UpdateFolderRequest): Promise<void>;

  // Flow control: without a folderId, every folder (the tray's pause/resume).
  pause(request: { folderId?: string; span: PauseSpan }): Promise<void>;
  resume(request: { folderId?: string }): Promise<void>;
  /** A full pass now: rescan the disk and relist the service. */
  syncNow(request: { folderId?: string }): Promise<void>;

  // What needs attention
  resolveConflict(request: { conflictId: number; keep: ConflictChoice }): Promise<void>;
  /** Tries the not-synced items again now: one path, or every item of the folder when relPath is absent. */
  retry(request: { folderId: string; relPath?: string }): Promise<void>;
  /** Lets the held deletions of a folder go ahead. */
  confirmDeletions(request: { folderId: string }): Promise<void>;
  /** Undoes the held deletions instead: files come back from the other side. */
  restoreDeletions(request: { folderId: string }): Promise<void>;
  /** Copies files or folders into a synced folder (at `relDir` inside it); an existing name gets ` (2)`, and the answer says so. */
  copyIn(request: { folderId: string; relDir: string; items: CopyItem[] }): Promise<CopyResult>;

  // Account
  /** Starts sign-in in the system browser (loopback flow); resolves once the browser is open. */
  signIn(request: SignInRequest): Promise<{ authorizeUrl: string }>;
  /** Uses the built-in local library (the embedded service) as the account. */
  useLocalLibrary(): Promise<void>;
  /** Signs out: forgets the tokens; files stay. */
  signOut(): Promise<void>;

  // Settings and the desktop
  updateSettings(patch: Partial<AppSettings>): Promise<AppSettings>;
  /** Opens a synced folder or a file in it with the system's file manager (`reveal`: select it). */
  openPath(request: { folderId: string; relPath?: string; reveal?: boolean }): Promise<void>;

  // Quick download: find an asset, fetch it as it is or through a preset, follow its progress.
  /** Assets whose file name or keywords contain `text` (staged, pending or live), at most `limit` (≤ 100), by name. */
  searchAssets(request: { text: string; limit: number }): Promise<QuickSearchResult[]>;
  /** The service's presets, read again now (the state keeps the last answer for the tray). */
  listPresets(): Promise<QuickPreset[]>;
  /**
   * Downloads one asset's current file, as it is or through a preset, into the downloads folder under a
   * free name (never over an existing file); resolves once it is in place and verified. Progress comes as
   * `quick-download` events; the asset becomes the newest of `state.quickDownload.recent`.
   */
  quickDownload(request: QuickDownloadRequest): Promise<QuickDownloadView>;
  /** Shows a finished quick download's file in the system's file manager. */
  revealDownload(request: { downloadId: number }): Promise<void>;

  /** Subscribes to events; the current state arrives first. Returns the unsubscribe function. */
  subscribe(listener: (event: AppEvent) => void): () => void;
}

/** The command and query names, for transports that route by name (IPC channels, HTTP paths). */
export const bridgeMethods = [
  'getState',
  'listActivity',
  'addFolder',
  'removeFolder',
  'updateFolder',
  'pause',
  'resume',
  'syncNow',
  'resolveConflict',
  'retry',
  'confirmDeletions',
  'restoreDeletions',
  'copyIn',
  'signIn',
  'useLocalLibrary',
  'signOut',
  'updateSettings',
  'openPath',
  'searchAssets',
  'listPresets',
  'quickDownload',
  'revealDownload',
] as const satisfies readonly Exclude<keyof AppBridge, 'subscribe'>[];

export type BridgeMethod = (typeof bridgeMethods)[number];
