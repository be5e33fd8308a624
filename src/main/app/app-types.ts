/**
 * The app's public shapes: what a composition root passes in (config and edges), the embedded local
 * library it may hand over, and the controller it gets back. Types only: no code runs here, and nothing
 * here imports Electron or the service (the roots pass in what differs).
 */
import type { Readable } from 'node:stream';
import type { ApiClient, ApiClientOptions } from '../api/index.js';
import type { TokenProvider } from '../api/index.js';
import type { TokenStore } from '../auth/index.js';
import type { EngineEvent } from '../engine/index.js';
import type { Clock, FileSystem, IgnoreRules, Trash, Watcher } from '../local/index.js';
import type { RemoteFeedOptions } from '../remote/remote-feed.js';
import type { AppBridge } from '../../shared/bridge/app-bridge.js';
import type { AccountState, ConflictSideName, HostInfo } from '../../shared/bridge/app-state.js';
import type { ConflictPreview } from './conflict-sides.js';

/** The embedded local service, started on demand (the "built-in local library"). */
export interface LocalLibrarySession {
  server: string;
  tokens: TokenProvider;
  /** Its admin, as whom the app syncs (the id keys the sync state: store/state-owner.ts). */
  user: { id: string; email: string; name: string };
}

export interface LocalLibrary {
  /** Starts the embedded service (or answers the one already running). */
  start(): Promise<LocalLibrarySession>;
  stop(): Promise<void>;
}

export interface AppControllerConfig {
  /** The engine's state directory (state.db, tokens, logs). */
  stateDir: string;
  /** Where `config.json` (the settings) lives. */
  configDir: string;
  /** What the shell is; the platform is this process's, and `canOpenPaths` is whether `openPath` was given. */
  host: Omit<HostInfo, 'platform' | 'canOpenPaths'> & { platform?: HostInfo['platform'] };
  /** The folder a new user of the local library syncs when they have none (headless: ~/Asset Sync). */
  defaultFolder?: string;
  /** Engine tuning (tests shorten these). */
  stableMs?: number;
  remote?: RemoteFeedOptions;
  /** Least time between two published states (default 250 ms: at most 4 a second). */
  publishMs?: number;
  /** Where the proxy variables and ASSET_SYNC_TOKEN are read (default process.env). */
  env?: Record<string, string | undefined>;
  /** The system's Downloads folder, where quick downloads land unless the settings say otherwise (default ~/Downloads). */
  downloadsDir?: string;
}

export interface AppControllerDeps {
  clock?: Clock;
  fs?: FileSystem;
  /** Where local deletions go (Electron: shell.trashItem; default: the freedesktop trash). */
  trash?: Trash;
  /**
   * Opens a folder or file in the file manager (`reveal`: select it). Absent where no file manager can
   * open: the window then offers no "Show in folder" (HostInfo.canOpenPaths).
   */
  openPath?: (path: string, options: { reveal: boolean }) => Promise<void>;
  /** Opens a URL in the system browser; resolves false when none could be opened. */
  openExternal?: (url: string) => Promise<boolean>;
  /** The embedded service, when this build has one. */
  localLibrary?: LocalLibrary;
  /** Where a server's sign-in tokens are kept (Electron: safeStorage; default: the 0600 file in the state dir). */
  tokenStore?: TokenStore;
  /** The token provider of a signed-in server (default: refreshes through `tokenStore`). */
  tokenProvider?: (stateDir: string) => TokenProvider;
  /** The API client factory (tests). */
  createApi?: (options: ApiClientOptions) => ApiClient;
  /** Watches a root for changes (default NativeWatcher). */
  createWatcher?: (root: string, rules: () => IgnoreRules) => Watcher;
  log?: (event: EngineEvent) => void;
}

export interface StreamCopyRequest {
  folderId: string;
  relDir: string;
  /** Path inside the drop, `Shots/a.png`. */
  relPath: string;
  lastModified: number | null;
  size: number | null;
  body: Readable;
}

export interface AppController extends AppBridge {
  /** Reads the settings, restores the account and starts syncing. */
  start(): Promise<void>;
  /** Stops syncing and waits for in-flight journal writes; the embedded library stops too. */
  close(): Promise<void>;
  /** One dropped file as a byte stream (the control server's PUT), never buffered whole. */
  copyInStream(request: StreamCopyRequest): Promise<{ relPath: string }>;
  /**
   * A conflict's thumbnail (`ConflictSide.previewUrl`), found by the conflict's id alone: a small image of
   * the local copy, or the service's preview; undefined when that version has none.
   */
  conflictPreview(request: { conflictId: number; side: ConflictSideName }): Promise<ConflictPreview | undefined>;
  /** The problems the app itself has (a settings file kept aside, …), as shown in the state. */
  readonly settingsPath: string;
  /** The account the state names now (as `getState().account`), without building a state. */
  readonly account: AccountState;
}
