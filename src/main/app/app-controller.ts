/**
 * The app behind the window (issue 16): one controller that owns the engine of all synced folders,
 * the settings, the account and sign-in and the activity log, and publishes one state. It implements
 * the bridge contract in-process; the loopback control server (src/main/control/) and Electron's IPC
 * (src/main/desktop/) only carry it. It never imports Electron nor the service: the shell passes in what
 * differs (trash, opening paths and URLs, tokens, the embedded local library).
 *
 * State is rebuilt from the engine's state database (read-status.ts, through folder-view.ts) plus what
 * only the running app knows (pass progress, pauses, connectivity) and pushed to subscribers at most
 * every `publishMs` (latest wins), and at once to a new subscriber.
 */
import { mkdir, rm } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve as resolvePath } from 'node:path';
import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { createApiClient, type ApiClient, type ApiClientOptions } from '../api/index.js';
import type { TokenProvider } from '../api/api-client.js';
import { createTokenProvider, fileTokenStore, login, logout, type TokenStore } from '../auth/index.js';
import { createEngine, type Engine, type EngineEvent } from '../engine/index.js';
import { NativeWatcher, NodeFileSystem, createFreedesktopTrash, markerPath, systemClock, type Clock, type FileSystem, type IgnoreRules, type Trash, type Watcher } from '../local/index.js';
import { readStateDir } from '../store/state-dir.js';
import type { RemoteFeedOptions } from '../remote/remote-feed.js';
import type { RootStatus } from '../store/read-status.js';
import { resolveConflict as resolveConflictOnDisk } from '../sync/resolve-conflict.js';
import type { PassReport } from '../sync/root-sync.js';
import type { TransferEvent } from '../../shared/sync/transfer-event.js';
import type { AppBridge, CopyItem } from '../../shared/bridge/app-bridge.js';
import type { AppEvent } from '../../shared/bridge/app-events.js';
import type { AccountState, AppSettings, AppState, BridgeErrorData, HostInfo } from '../../shared/bridge/app-state.js';
import { toBridgeError } from '../../shared/bridge/bridge-error.js';
import { ActivityLog } from './activity-log.js';
import { AppError } from './app-error.js';
import { ServiceReachability } from './service-reachability.js';
import { copyPathInto, copyStreamInto, targetDir, type CopyProgress } from './copy-in.js';
import { conflictViews, folderActivity, folderView, heldDeletionViews, notSyncedViews, overallState, withoutUnreachable, type FolderRuntime } from './folder-view.js';
import { DEFAULT_SETTINGS, openSettingsStore, type SettingsStore, type StoredSettings } from './settings-store.js';
import { SyncRunner } from './sync-runner.js';
import { TransferProgress } from './transfer-progress.js';
import { homedir } from 'node:os';
import { QuickDownloads } from './quick-downloads.js';

/** The embedded local service, started on demand (the "built-in local library"). */
export interface LocalLibrarySession {
  server: string;
  tokens: TokenProvider;
  user: { email: string; name: string };
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
  host: Omit<HostInfo, 'platform'> & { platform?: HostInfo['platform'] };
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
  /** Opens a folder or file in the file manager (`reveal`: select it). */
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
  /** The problems the app itself has (a settings file kept aside, …), as shown in the state. */
  readonly settingsPath: string;
}

interface Session {
  server: string;
  local: boolean;
  user: { email: string; name: string };
  api: ApiClient;
  engine: Engine;
  runner: SyncRunner;
  connectivity: ServiceReachability;
  /** The root whose pass planned last (passes run one root at a time). */
  currentRoot: string | undefined;
  /** Absolute paths of parts being uploaded, to tell an upload's bytes from a download's. */
  uploading: Map<string, number>;
}

const platformOf = (value: NodeJS.Platform): HostInfo['platform'] => (value === 'darwin' || value === 'win32' || value === 'linux' ? value : 'other');

export function createAppController(config: AppControllerConfig, deps: AppControllerDeps = {}): AppController {
  const clock = deps.clock ?? systemClock;
  const fs = deps.fs ?? new NodeFileSystem();
  const env = config.env ?? process.env;
  const trash = deps.trash ?? createFreedesktopTrash({ env });
  const publishMs = config.publishMs ?? 250;
  const tokenStore = deps.tokenStore ?? fileTokenStore(config.stateDir);
  const host: HostInfo = { platform: platformOf(process.platform), ...config.host };
  const listeners = new Set<(event: AppEvent) => void>();

  let settings: SettingsStore | undefined;
  let problems: BridgeErrorData[] = [];
  let account: AccountState = { kind: 'none' };
  let session: Session | undefined;
  let starting = true;
  let closed = false;
  let revision = 0;
  let globalPause: { until: string | null; cancel: () => void } | undefined;
  const folderPauses = new Map<string, { until: string | null; cancel: () => void }>();
  const progress = new Map<string, TransferProgress>();
  const passedOnce = new Set<string>();
  const lastSynced = new Map<string, string>();
  const running = new Map<string, number>();
  let seenConflicts = new Set<number>();
  let seenNotSynced = new Set<string>();
  let seenHeld = new Map<string, number>();
  let signInAttempt: AbortController | undefined;

  const emit = (event: AppEvent): void => {
    for (const listener of listeners) {
      try {
        listener(event);
      } catch {
        // A window's listener failing must not stop the others.
      }
    }
  };

  const activity = new ActivityLog({ now: () => clock.now(), onChange: (entry) => emit({ type: 'activity', entry }) });

  const downloadFolder = (): string => (settings === undefined ? null : readSettings().downloadFolder) ?? config.downloadsDir ?? join(homedir(), 'Downloads');
  const openPath = deps.openPath;
  const quick = new QuickDownloads({
    api: () => requireSession().api,
    folder: downloadFolder,
    recent: () => readSettings().recentQuickDownloads,
    remember: (recent) => readSettingsStore().update({ recentQuickDownloads: recent }),
    ...(openPath === undefined ? {} : { reveal: (path: string) => openPath(path, { reveal: true }) }),
    now: () => clock.now(),
    onDownload: (download) => emit({ type: 'quick-download', download }),
    changed: () => changed(),
  });

  // ---- state ----------------------------------------------------------------------------------

  const readSettings = (): StoredSettings => {
    if (settings === undefined) throw new AppError('CLOSED', 'The app has not started yet.');
    return settings.read();
  };

  const userSettings = (stored: StoredSettings): AppSettings => ({
    publishLive: stored.publishLive,
    uploadBytesPerSecond: stored.uploadBytesPerSecond,
    downloadBytesPerSecond: stored.downloadBytesPerSecond,
    launchAtLogin: stored.launchAtLogin,
    startWithLocalLibrary: stored.startWithLocalLibrary,
    notifications: stored.notifications,
    downloadFolder: stored.downloadFolder,
  });

  const statuses = (): RootStatus[] => {
    if (session !== undefined) return session.engine.store.status();
    return readStateDir(config.stateDir, (store) => store.status()) ?? [];
  };

  const buildState = (): AppState => {
    const connection = session?.connectivity.status() ?? { online: true, since: null, nextTryAt: null, error: null };
    // Offline, a failed upload is a file waiting for the service, not a problem for the user to fix.
    const unreachable = new Map<string, number>();
    const roots = statuses().map((status) => {
      if (connection.online) return status;
      const split = withoutUnreachable(status);
      unreachable.set(status.id, split.waiting);
      return split.status;
    });
    const folders = roots.map((status) => {
      const runtime: FolderRuntime = {
        paused: globalPause === undefined ? (folderPauses.has(status.id) ? { until: folderPauses.get(status.id)?.until ?? null } : undefined) : { until: globalPause.until },
        passedOnce: passedOnce.has(status.id),
        progress: progress.get(status.id)?.running === true ? progress.get(status.id)?.view() : undefined,
        lastSyncedAt: lastSynced.get(status.id) ?? null,
      };
      const waiting = session !== undefined && (runtime.paused !== undefined || !connection.online) ? Math.max(session.engine.store.waitingCount(status.id), unreachable.get(status.id) ?? 0) : 0;
      const activityNow = folderActivity(status, runtime, account, { online: connection.online, nextTryAt: connection.nextTryAt }, waiting);
      return folderView(status, activityNow, null);
    });
    const notSynced = notSyncedViews(roots);
    const conflicts = session === undefined ? [] : conflictViews(session.engine.store);
    const heldDeletions = session === undefined ? [] : heldDeletionViews(session.engine.store, roots);
    const base = {
      account,
      folders,
      connection:
        connection.online || session === undefined
          ? ({ kind: 'online' } as const)
          : {
              kind: 'offline' as const,
              server: session.server,
              since: connection.since ?? new Date(clock.now()).toISOString(),
              nextTryAt: connection.nextTryAt,
              error: { name: 'ApiError', code: 'SERVICE_UNREACHABLE', message: `${session.server} cannot be reached (${connection.error ?? 'no answer'}); files wait and sync when it is back.` },
            },
      paused: globalPause === undefined ? null : { until: globalPause.until },
    };
    const state: AppState = {
      revision: ++revision,
      overall: overallState(base, starting),
      ...base,
      conflicts,
      notSynced: notSynced.slice(0, 1000),
      notSyncedTotal: notSynced.length,
      heldDeletions,
      settings: settings === undefined ? userSettings(DEFAULT_SETTINGS) : userSettings(readSettings()),
      quickDownload: { folder: downloadFolder(), recent: settings === undefined ? [] : readSettings().recentQuickDownloads, presets: quick.presets() },
      host,
      problems,
    };
    announceNews(state);
    return state;
  };

  /** Conflicts, not-synced files and held deletions that are new since the last state: one event each kind. */
  const announceNews = (state: AppState): void => {
    const fresh = state.conflicts.filter((conflict) => !seenConflicts.has(conflict.id));
    seenConflicts = new Set(state.conflicts.map((conflict) => conflict.id));
    if (fresh.length > 0) emit({ type: 'conflicts', conflicts: fresh });
    const key = (item: { folderId: string; relPath: string }): string => `${item.folderId}\u0000${item.relPath}`;
    const newItems = state.notSynced.filter((item) => !seenNotSynced.has(key(item)));
    seenNotSynced = new Set(state.notSynced.map(key));
    if (newItems.length > 0) emit({ type: 'not-synced', items: newItems, total: state.notSyncedTotal });
    const held = new Map(state.heldDeletions.map((view) => [view.folderId, view.count]));
    for (const view of state.heldDeletions) if ((seenHeld.get(view.folderId) ?? 0) !== view.count) emit({ type: 'held-deletions', held: view });
    seenHeld = held;
  };

  let lastPublish = -Infinity;
  let publishTimer: (() => void) | undefined;
  const publishNow = (): void => {
    publishTimer = undefined;
    lastPublish = clock.now();
    if (listeners.size === 0 || closed) return;
    try {
      emit({ type: 'state', state: buildState() });
    } catch {
      // The database closed under us (shutting down): the next state says it.
    }
  };
  /** A change: publish now if the last one is old enough, else once, latest wins. */
  const changed = (): void => {
    if (publishTimer !== undefined || closed) return;
    const wait = lastPublish + publishMs - clock.now();
    if (wait <= 0) publishNow();
    else publishTimer = clock.setTimer(wait, publishNow);
  };

  // ---- transfers and passes -------------------------------------------------------------------

  const progressOf = (rootId: string): TransferProgress => {
    let tally = progress.get(rootId);
    if (tally === undefined) {
      tally = new TransferProgress(() => clock.now());
      progress.set(rootId, tally);
    }
    return tally;
  };

  const onTransfer = (event: TransferEvent): void => {
    const current = session;
    if (current === undefined) return;
    switch (event.kind) {
      case 'planned':
        current.currentRoot = event.rootId;
        progressOf(event.rootId).planned(event);
        break;
      case 'file-done': {
        progressOf(event.rootId).fileDone(event.direction);
        const key = `${event.rootId}\u0000${event.direction}\u0000${event.relPath}`;
        const id = running.get(key);
        running.delete(key);
        if (id === undefined) activity.add({ folderId: event.rootId, relPath: event.relPath, kind: event.direction === 'send' ? 'upload' : 'download', status: 'done' });
        else activity.finish(id, { status: 'done' });
        break;
      }
    }
    changed();
  };

  const onBytes = (relPath: string, bytes: number): void => {
    const current = session;
    const rootId = current?.currentRoot;
    if (current === undefined || rootId === undefined) return;
    const root = current.engine.roots().find((row) => row.id === rootId);
    const direction = root !== undefined && current.uploading.has(join(root.path, relPath)) ? 'send' : 'receive';
    progressOf(rootId).bytes(direction, bytes);
    const key = `${rootId}\u0000${direction}\u0000${relPath}`;
    let id = running.get(key);
    if (id === undefined) {
      id = activity.add({ folderId: rootId, relPath, kind: direction === 'send' ? 'upload' : 'download', status: 'running' }).id;
      running.set(key, id);
    }
    activity.progress(id, bytes);
    changed();
  };

  const onReport = (report: PassReport): void => {
    passedOnce.add(report.rootId);
    progress.get(report.rootId)?.ended();
    if (report.operations > 0 && report.failed === 0 && report.remoteError === undefined) lastSynced.set(report.rootId, new Date(clock.now()).toISOString());
    if (!lastSynced.has(report.rootId) && report.failed === 0 && report.remoteError === undefined) lastSynced.set(report.rootId, new Date(clock.now()).toISOString());
    // Entries still running when their pass ended did not get there this time.
    for (const [key, id] of running) {
      if (!key.startsWith(`${report.rootId}\u0000`)) continue;
      running.delete(key);
      activity.finish(id, { status: 'failed', error: { name: 'SyncError', code: 'TRANSFER_INTERRUPTED', message: 'The transfer did not finish; it is tried again.' } });
    }
    changed();
  };

  // ---- sessions -------------------------------------------------------------------------------

  /** The API the engine gets: its byte-moving calls wait at the pause gates, and uploads are told apart. */
  const gatedApi = (api: ApiClient, runner: () => SyncRunner | undefined, uploading: Map<string, number>): ApiClient => ({
    ...api,
    putPart: async (request) => {
      await runner()?.gate(request.filePath);
      uploading.set(request.filePath, (uploading.get(request.filePath) ?? 0) + 1);
      try {
        return await api.putPart(request);
      } finally {
        const left = (uploading.get(request.filePath) ?? 1) - 1;
        if (left <= 0) uploading.delete(request.filePath);
        else uploading.set(request.filePath, left);
      }
    },
    downloadToFile: async (url, tempPath, options) => {
      await runner()?.gate(tempPath);
      return api.downloadToFile(url, tempPath, options);
    },
  });

  const openSession = (server: string, local: boolean, tokens: TokenProvider, user: { email: string; name: string }): Session => {
    const stored = readSettings();
    const holder: { runner?: SyncRunner; connectivity?: ServiceReachability; onOnline?: () => void } = {};
    const rawApi = (deps.createApi ?? createApiClient)({
      server,
      tokens: watchSignIn(tokens, server),
      env,
      bandwidth: { uploadBytesPerSecond: stored.uploadBytesPerSecond, downloadBytesPerSecond: stored.downloadBytesPerSecond },
      // The client's monitor holds reachability (service-reachability.ts keeps trying while it is away),
      // so a request while the service is away fails at once instead of waiting for the next try.
      whileUnreachable: 'fail',
      onConnectivity: (change) => {
        const watch = holder.connectivity;
        // A session already closed hears nothing more (its engine is gone).
        if (watch === undefined || !watch.open) return;
        watch.changed();
        changed();
        if (change.state === 'reachable') holder.onOnline?.();
      },
    });
    const uploading = new Map<string, number>();
    const api = gatedApi(rawApi, () => holder.runner, uploading);
    const engine = createEngine(
      { stateDir: config.stateDir, server, ...(config.stableMs === undefined ? {} : { stableMs: config.stableMs }), ...(config.remote === undefined ? {} : { remote: config.remote }) },
      {
        api,
        fs,
        clock,
        createWatcher: deps.createWatcher ?? ((root, rules) => new NativeWatcher({ root, rules, clock })),
        log: (event) => deps.log?.(event),
        onBytes,
        onTransfer,
        trash,
        skipRoot: (rootId) => holder.runner?.isRootPaused(rootId) === true,
      },
    );
    const runner = new SyncRunner({
      engine,
      clock,
      onReport,
      onError: (error) => deps.log?.({ level: 'warn', message: `sync stopped for a moment: ${toBridgeError(error).message}` }),
      onPassStart: changed,
    });
    holder.runner = runner;
    const connectivity = new ServiceReachability({
      state: () => rawApi.connectivity(),
      retryNow: () => {
        rawApi.retryNow();
      },
      // Any HTTP answer counts; the features document is small and needs no sign-in.
      tryOnce: () => rawApi.serviceFeatures(),
      clock,
    });
    holder.connectivity = connectivity;
    holder.onOnline = () => {
      // Back online: whatever failed while away is tried again now, in one full pass.
      for (const row of engine.roots()) engine.store.retryNow(row.id);
      runner.requestFullPass();
    };
    return { server, local, user, api: rawApi, engine, runner, connectivity, currentRoot: undefined, uploading };
  };

  /** The account's tokens, watched for "sign in again". */
  const watchSignIn = (tokens: TokenProvider, server: string): TokenProvider => {
    const signedOut = (error: unknown): never => {
      const data = toBridgeError(error);
      if (data.code === 'NOT_SIGNED_IN' && account.kind === 'signed-in') {
        account = { kind: 'signed-out', server, reason: data };
        emit({ type: 'sign-in-needed', server, reason: data });
        changed();
      }
      throw error;
    };
    return {
      accessToken: (forServer) => tokens.accessToken(forServer).catch(signedOut),
      refreshed: (previous, forServer) => tokens.refreshed(previous, forServer).catch(signedOut),
    };
  };

  const closeSession = async (): Promise<void> => {
    const current = session;
    if (current === undefined) return;
    session = undefined;
    quick.clearPresets();
    current.connectivity.close();
    // Fail fast what waits on the network, then let the pass end (and its journal writes land).
    const stopping = current.runner.stop();
    current.api.close();
    await stopping;
    current.engine.close();
    progress.clear();
    passedOnce.clear();
    running.clear();
  };

  const begin = (next: Session): void => {
    session = next;
    for (const [rootId] of folderPauses) next.runner.setPaused(rootId, true);
    if (globalPause !== undefined) next.runner.setPaused(undefined, true);
    next.runner.start();
    // The presets once per session, for the tray's quick download menu; the window asks again itself.
    void quick.refreshPresets().catch(() => undefined);
    changed();
  };

  const startLocal = async (): Promise<void> => {
    const library = deps.localLibrary;
    if (library === undefined) throw new AppError('NO_LOCAL_LIBRARY', 'This build has no built-in local library; sign in to a server instead.');
    const local = await library.start();
    await closeSession();
    account = { kind: 'signed-in', server: local.server, email: local.user.email, name: local.user.name, local: true };
    begin(openSession(local.server, true, local.tokens, local.user));
  };

  const startRemote = async (server: string): Promise<void> => {
    const tokens = (deps.tokenProvider ?? ((stateDir: string) => createTokenProvider({ stateDir, env, store: tokenStore })))(config.stateDir);
    await closeSession();
    let user = { email: '', name: '' };
    const next = openSession(server, false, tokens, user);
    try {
      const me = await next.api.currentUser();
      user = { email: me.result.email, name: me.result.name ?? me.result.email };
      account = { kind: 'signed-in', server, email: user.email, name: user.name, local: false };
    } catch (error) {
      const data = toBridgeError(error);
      if (data.code === 'NOT_SIGNED_IN') account = { kind: 'signed-out', server, reason: data };
      else account = { kind: 'signed-in', server, email: user.email, name: user.name, local: false };
    }
    next.user = user;
    begin(next);
  };

  const requireSession = (): Session => {
    if (session === undefined) throw new AppError('NOT_SIGNED_IN', 'Sign in (or use the built-in local library) first.');
    return session;
  };

  const rootOf = (current: Session, folderId: string): { id: string; path: string } => {
    const row = current.engine.store.root(folderId);
    if (row === undefined) throw new AppError('NOT_FOUND', `There is no synced folder ${folderId}.`);
    return row;
  };

  // ---- pause ----------------------------------------------------------------------------------

  const HOUR = 3600_000;
  const pauseEntry = (span: 'one-hour' | 'until-resumed', onEnd: () => void): { until: string | null; cancel: () => void } => {
    if (span === 'until-resumed') return { until: null, cancel: () => undefined };
    return { until: new Date(clock.now() + HOUR).toISOString(), cancel: clock.setTimer(HOUR, onEnd) };
  };

  const resumeFolder = (folderId: string | undefined): void => {
    if (folderId === undefined) {
      globalPause?.cancel();
      globalPause = undefined;
      session?.runner.setPaused(undefined, false);
    } else {
      folderPauses.get(folderId)?.cancel();
      folderPauses.delete(folderId);
      session?.runner.setPaused(folderId, false);
    }
    changed();
  };

  // ---- copy in --------------------------------------------------------------------------------

  const copyProgress = (folderId: string, root: string): CopyProgress => ({
    started: (target, bytes) => activity.add({ folderId, relPath: relative(root, target).split('\\').join('/'), kind: 'copy-in', status: 'running', bytesTotal: bytes }).id,
    bytes: (id, count) => activity.progress(id, count),
    finished: (id, error) => activity.finish(id, error === undefined ? { status: 'done' } : { status: 'failed', error: toBridgeError(error) }),
  });

  // ---- the bridge -----------------------------------------------------------------------------

  const controller: AppController = {
    get settingsPath() {
      return settings?.path ?? join(config.configDir, 'config.json');
    },

    async start() {
      settings = openSettingsStore({ configDir: config.configDir, now: () => clock.now() });
      if (settings.problem !== null) problems = [settings.problem];
      const stored = settings.read();
      try {
        if (stored.account?.kind === 'local' || (stored.account === null && stored.startWithLocalLibrary && deps.localLibrary !== undefined)) await startLocal();
        else if (stored.account?.kind === 'remote') await startRemote(stored.account.server);
      } catch (error) {
        problems = [...problems, toBridgeError(error)];
      }
      starting = false;
      changed();
    },

    async close() {
      if (closed) return;
      signInAttempt?.abort();
      quick.close();
      globalPause?.cancel();
      for (const pause of folderPauses.values()) pause.cancel();
      await closeSession();
      closed = true;
      publishTimer?.();
      listeners.clear();
      await deps.localLibrary?.stop();
    },

    async getState() {
      return buildState();
    },

    async listActivity(query) {
      if (!Number.isFinite(query.limit) || query.limit < 0) throw new AppError('INVALID_REQUEST', 'limit must be a number from 0 to 5,000.');
      return activity.list(query);
    },

    async addFolder(request) {
      const current = requireSession();
      if (typeof request.path !== 'string' || request.path.trim() === '') throw new AppError('INVALID_REQUEST', 'Choose a folder to sync.');
      const path = resolvePath(request.path);
      await mkdir(path, { recursive: true });
      await current.engine.addRoot({ path, remotePath: request.remotePath === '' ? '/' : request.remotePath, publishLive: request.publishLive });
      current.runner.rootsChanged();
      changed();
    },

    async removeFolder(request) {
      const current = requireSession();
      const root = rootOf(current, request.folderId);
      // Forget the folder; its files stay. Only the engine's marker goes, so it can be added again.
      await current.runner.exclusive(async () => {
        current.engine.store.forgetRoot(root.id);
        await rm(markerPath(root.path), { force: true });
      });
      folderPauses.get(root.id)?.cancel();
      folderPauses.delete(root.id);
      current.runner.rootsChanged();
      changed();
    },

    async updateFolder(request) {
      const current = requireSession();
      const root = current.engine.store.root(request.folderId);
      if (root === undefined) throw new AppError('NOT_FOUND', `There is no synced folder ${request.folderId}.`);
      await current.engine.addRoot({ path: root.path, remotePath: request.remotePath ?? root.remote_path, publishLive: request.publishLive ?? root.publish_live === 1 });
      current.runner.rootsChanged();
      changed();
    },

    async pause(request) {
      if (!['one-hour', 'until-resumed'].includes(request.span)) throw new AppError('INVALID_REQUEST', 'span is "one-hour" or "until-resumed".');
      if (request.folderId === undefined) {
        globalPause?.cancel();
        globalPause = pauseEntry(request.span, () => resumeFolder(undefined));
        session?.runner.setPaused(undefined, true);
      } else {
        if (session !== undefined) rootOf(session, request.folderId);
        const folderId = request.folderId;
        folderPauses.get(folderId)?.cancel();
        folderPauses.set(folderId, pauseEntry(request.span, () => resumeFolder(folderId)));
        session?.runner.setPaused(folderId, true);
      }
      changed();
    },

    async resume(request) {
      resumeFolder(request.folderId);
    },

    async syncNow() {
      const current = requireSession();
      current.api.retryNow();
      current.runner.requestFullPass();
      await current.connectivity.retryNow();
      changed();
    },

    async resolveConflict(request) {
      const current = requireSession();
      const store = current.engine.store;
      if (!['mine', 'theirs', 'both'].includes(request.keep)) throw new AppError('INVALID_REQUEST', 'keep is "mine", "theirs" or "both".');
      // Between passes: a pass in flight may still be landing the service's version of this file.
      await current.runner.exclusive(() =>
        resolveConflictOnDisk({ fs, trash, ...store.resolution }, request.conflictId, request.keep),
      );
      changed();
    },

    async retry(request) {
      const current = requireSession();
      const root = rootOf(current, request.folderId);
      current.engine.store.retryNow(root.id, request.relPath);
      current.runner.requestFullPass();
      await current.connectivity.retryNow();
      changed();
    },

    async confirmDeletions(request) {
      const current = requireSession();
      const root = rootOf(current, request.folderId);
      current.engine.store.confirmDeletes(root.id);
      current.runner.requestFullPass();
      changed();
    },

    async restoreDeletions(request) {
      const current = requireSession();
      const root = rootOf(current, request.folderId);
      // Forgetting that both sides agreed on these files makes the side that still has them the
      // source: the next pass copies them back instead of deleting them.
      await current.runner.exclusive(async () => {
        current.engine.store.restoreHeldDeletions(root.id);
      });
      changed();
    },

    async copyIn(request) {
      const current = requireSession();
      const root = rootOf(current, request.folderId);
      const dir = await targetDir(root.path, request.relDir);
      let copied = 0;
      for (const item of request.items as readonly CopyItem[]) {
        if (item.kind === 'path') {
          copied += await copyPathInto(item.path, dir, copyProgress(root.id, root.path));
        } else {
          const body = Readable.fromWeb(item.body.stream() as NodeReadableStream<Uint8Array>);
          await copyStreamInto(body, dir, item.relPath, { size: item.body.size, lastModified: item.lastModified }, copyProgress(root.id, root.path));
          copied++;
        }
      }
      changed();
      return { copied };
    },

    async copyInStream(request) {
      const current = requireSession();
      const root = rootOf(current, request.folderId);
      const dir = await targetDir(root.path, request.relDir);
      const written = await copyStreamInto(request.body, dir, request.relPath, { size: request.size, lastModified: request.lastModified }, copyProgress(root.id, root.path));
      changed();
      return { relPath: relative(root.path, join(dir, written)).split('\\').join('/') };
    },

    async signIn(request) {
      const server = typeof request.server === 'string' ? request.server.trim().replace(/\/+$/, '') : '';
      if (!URL.canParse(server) || !/^https?:$/.test(new URL(server).protocol)) throw new AppError('INVALID_REQUEST', `The server address must be an http(s) URL, got "${request.server}".`);
      signInAttempt?.abort();
      const attempt = new AbortController();
      signInAttempt = attempt;
      const previous = account;
      return new Promise<{ authorizeUrl: string }>((resolve, reject) => {
        let opened = false;
        login({
          server,
          stateDir: config.stateDir,
          store: tokenStore,
          env,
          signal: attempt.signal,
          openUrl: async (url) => {
            account = { kind: 'signing-in', server, authorizeUrl: url };
            changed();
            if (deps.openExternal !== undefined) await deps.openExternal(url);
            opened = true;
            resolve({ authorizeUrl: url });
          },
        })
          .then(async () => {
            if (attempt.signal.aborted) return;
            readSettingsStore().update({ account: { kind: 'remote', server } });
            await startRemote(server);
          })
          .catch((error: unknown) => {
            if (signInAttempt === attempt) account = previous.kind === 'signing-in' ? { kind: 'none' } : previous;
            if (!opened) reject(error instanceof Error ? error : new AppError('INVALID_REQUEST', String(error)));
            else if (!attempt.signal.aborted) {
              problems = [...problems.filter((problem) => problem.code !== 'SIGN_IN_FAILED'), { name: 'AppError', code: 'SIGN_IN_FAILED', message: `Sign-in to ${server} did not finish: ${toBridgeError(error).message}` }];
            }
            changed();
          });
      });
    },

    async useLocalLibrary() {
      signInAttempt?.abort();
      await startLocal();
      readSettingsStore().update({ account: { kind: 'local' } });
      const current = requireSession();
      if (current.engine.roots().length === 0 && config.defaultFolder !== undefined) {
        await controller.addFolder({ path: config.defaultFolder, remotePath: '/', publishLive: readSettings().publishLive });
      }
      changed();
    },

    async signOut() {
      signInAttempt?.abort();
      const wasLocal = session?.local === true;
      await closeSession();
      if (wasLocal) await deps.localLibrary?.stop();
      else await logout({ stateDir: config.stateDir, store: tokenStore });
      readSettingsStore().update({ account: null });
      account = { kind: 'none' };
      changed();
    },

    async updateSettings(patch) {
      const allowed: (keyof AppSettings)[] = ['publishLive', 'uploadBytesPerSecond', 'downloadBytesPerSecond', 'launchAtLogin', 'startWithLocalLibrary', 'notifications', 'downloadFolder'];
      const clean: Partial<AppSettings> = {};
      for (const key of Object.keys(patch)) {
        if (!allowed.includes(key as keyof AppSettings)) throw new AppError('INVALID_REQUEST', `There is no setting "${key}".`);
      }
      Object.assign(clean, patch);
      if (typeof clean.downloadFolder === 'string') {
        // A folder the user typed: kept absolute, and refused when it is not a folder we can use.
        const folder = clean.downloadFolder.trim();
        if (folder === '' || !isAbsolute(folder)) throw new AppError('INVALID_REQUEST', `The download folder must be a full path, got "${clean.downloadFolder}".`);
        clean.downloadFolder = folder;
      }
      const next = readSettingsStore().update(clean);
      session?.api.setBandwidthLimits({ uploadBytesPerSecond: next.uploadBytesPerSecond, downloadBytesPerSecond: next.downloadBytesPerSecond });
      changed();
      return userSettings(next);
    },

    async openPath(request) {
      const current = requireSession();
      const root = rootOf(current, request.folderId);
      const target = request.relPath === undefined || request.relPath === '' ? root.path : await targetDir(root.path, request.relPath);
      if (deps.openPath === undefined) throw new AppError('OPEN_FAILED', `Opening folders is not available here; the folder is ${target}.`);
      await deps.openPath(target, { reveal: request.reveal === true });
    },

    searchAssets: (request) => quick.search(request),
    listPresets: () => quick.refreshPresets(),
    quickDownload: (request) => quick.download(request),
    revealDownload: (request) => quick.reveal(request),

    subscribe(listener) {
      listeners.add(listener);
      try {
        listener({ type: 'state', state: buildState() });
      } catch {
        // As in emit: one listener's failure is its own.
      }
      return () => {
        listeners.delete(listener);
      };
    },
  };

  const readSettingsStore = (): SettingsStore => {
    if (settings === undefined) throw new AppError('CLOSED', 'The app has not started yet.');
    return settings;
  };

  return controller;
}

