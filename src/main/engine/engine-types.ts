/**
 * The engine's contract: how it is configured (EngineConfig), what its composition root passes in
 * (EngineDeps: the file system, the clock, the service API and the other edges), and what it offers
 * the app, the CLI and the simulation (Engine, WatchSession). Types only; create-engine.ts builds one.
 */
import type { AssetApi } from '../api/index.js';
import type { StateDb } from '../db/open-state-db.js';
import type { RootRow } from '../db/roots-repo.js';
import type { Clock, FileSystem, IgnoreRules, LocalDisk, Trash, Watcher } from '../local/index.js';
import type { RemoteFeedOptions } from '../remote/remote-feed.js';
import type { EngineStore, StateStore } from '../store/state-store.js';
import type { StateOwner } from '../store/state-owner.js';
import type { PassReport } from '../sync/root-sync.js';
import type { Planner } from '../sync/plan-pass.js';
import type { TransferEvent } from '../../shared/sync/transfer-event.js';
import type { RemapChoice } from '../../shared/sync/remap-choice.js';

export interface EngineConfig {
  /** Where state.db and logs live (never inside a synced folder). */
  stateDir: string;
  /** The service the roots sync with. */
  server: string;
  /** Whose state to open (store/state-owner.ts): another account's state is set aside, never reused. */
  owner?: StateOwner;
  /** A file is uploaded once unchanged for this long (default 1500 ms). */
  stableMs?: number;
  limits?: { filesInFlight?: number; partsInFlight?: number; batchSize?: number };
  /** The remote feed's schedule: poll interval, full listing interval, poll overlap. */
  remote?: RemoteFeedOptions;
  /**
   * Each root is scanned whole at least this often (default 1 h, like Syncthing's rescan with its
   * watcher on): the backstop for watcher events that never arrived (local-refresh.ts).
   */
  rescanIntervalMs?: number;
}

/** The default of `EngineConfig.rescanIntervalMs`. */
export const DEFAULT_RESCAN_INTERVAL_MS = 60 * 60_000;

export interface EngineEvent {
  level: 'info' | 'warn';
  message: string;
  rootId?: string;
  relPath?: string;
}

export interface EngineDeps {
  api: AssetApi;
  fs: FileSystem;
  clock: Clock;
  /** A watcher for a root (the CLI passes NativeWatcher; tests may pass none and hint by hand). */
  createWatcher?: (root: string, rules: () => IgnoreRules) => Watcher;
  log?: (event: EngineEvent) => void;
  /** Bytes uploaded or downloaded for relPath since the last call (an increment, not a total). */
  onBytes?: (relPath: string, bytes: number) => void;
  /** What each pass is about to transfer, and each file that got there (progress and ETA). */
  onTransfer?: (event: TransferEvent) => void;
  /** Where local deletions go (default: the freedesktop trash; Electron passes shell.trashItem). */
  trash?: Trash;
  /** fsync and friends for downloads (default: the real disk). */
  disk?: LocalDisk;
  /** Roots to leave alone for now (the app's per-folder pause): no pass runs for them while true. */
  skipRoot?: (rootId: string) => boolean;
  /** Opens the state database (default: state.db in stateDir; the simulation keeps it in memory). */
  openDb?: () => StateDb;
  /** Builds the state store over the database (default: store/state-store.ts `openStateStore`; the simulation wraps it). */
  openStore?: (db: StateDb) => StateStore;
  /** The planner proper (default: sync/plan-operations.ts `planOperations`; the simulation wraps it). */
  planner?: Planner;
  /** [0, 1), for the change feed's reconnection jitter (default Math.random; the simulation's is seeded). */
  random?: () => number;
}

export interface RootInput {
  path: string;
  /** `/` or `/Brand/Logos`. */
  remotePath: string;
  publishLive: boolean;
  /** When a known root's `remotePath` changes: what happens to what is in the old place (RemapChoice). */
  remap?: RemapChoice;
}

export interface OnceResult {
  converged: boolean;
  reports: PassReport[];
}

export interface Engine {
  /**
   * The state this engine keeps (state.db): the status queries and the user's requests (retry, forget
   * a folder, confirm or restore held deletions, resolve a conflict). The only way to its database.
   */
  readonly store: EngineStore;
  /**
   * Adds (or updates) a root, writing its marker the first time. Refuses (FOLDERS_OVERLAP) a folder that
   * would overlap another synced folder on disk or in the service (folder-overlap.ts). A known root
   * given another `remotePath` is remapped at once, as `remap` says (REMAP_CHOICE_NEEDED without it);
   * no local file is moved or deleted either way.
   */
  addRoot(input: RootInput): Promise<RootRow>;
  roots(): RootRow[];
  /** Passes until every root is at rest (or `maxPasses`); converged when nothing is left to do or fix. */
  syncOnce(options?: { maxPasses?: number; onReport?: (report: PassReport) => void }): Promise<OnceResult>;
  /**
   * Watches every root and syncs on changes until the signal aborts; `followFeed: false` leaves the
   * service's change feed alone (every root paused: only the disk is looked at).
   */
  watch(signal: AbortSignal, onReport?: (report: PassReport) => void, options?: WatchOptions): Promise<void>;
  /**
   * What `watch` runs on, for a caller that keeps its own time (the simulation): a watcher on every
   * root feeding its hints to the root (and `onHints` hears that some arrived), and passes that scan
   * only what was hinted, what the stability gate wants to see again and, when due, the whole root.
   */
  startWatching(onHints: () => void, options?: WatchOptions): Promise<WatchSession>;
  /** Marks the held deletions of every root as confirmed; returns how many. */
  confirmDeletes(): number;
  /** When the service's side of any root next wants a look (epoch ms). */
  nextRemoteCheckAt(): number;
  close(): void;
}

export interface WatchOptions {
  /**
   * Follow the service's change feed while the session is open (`watch` does): it says when, and
   * what, to fetch, and the roots poll only while it is down. `onHints` hears its news too.
   */
  followFeed?: boolean;
}

export interface WatchSession {
  /** One pass over every root (the paused ones only looked at: local-refresh, nothing sent or asked). */
  pass(onReport?: (report: PassReport) => void): Promise<PassReport[]>;
  /** When a pass is next wanted though no hint arrives (gate, remote poll, periodic scan), epoch ms. */
  nextWakeAt(): number;
  /** Stops every watcher (and the change feed); no hint arrives after it resolves. */
  close(): Promise<void>;
}
