/**
 * One signed-in session's machinery: the API client of its server, the engine over the state
 * directory, the sync runner and the reachability monitor, opened together and closed together. The
 * engine's byte-moving API calls wait at the runner's pause gates, and an upload's bytes are told from
 * a download's by the file they read. It never decides who is signed in (app-session.ts does) and never
 * outlives its close: a closed session hears nothing more from its API client.
 */
import { createApiClient, type ApiClient } from '../api/index.js';
import type { TokenProvider } from '../api/index.js';
import { createEngine, type Engine } from '../engine/index.js';
import { NativeWatcher } from '../local/index.js';
import type { PassReport } from '../sync/root-sync.js';
import type { TransferEvent } from '../../shared/sync/transfer-event.js';
import { toBridgeError } from '../../shared/bridge/bridge-error.js';
import type { StateOwner } from '../store/state-owner.js';
import type { AppEdges } from './app-edges.js';
import { ServiceReachability } from './service-reachability.js';
import type { StoredSettings } from './settings-store.js';
import { SyncRunner } from './sync-runner.js';

export interface EngineSession {
  server: string;
  local: boolean;
  user: { email: string; name: string };
  /** The signed-in user's id on the service (null when it could not be asked), to tell their changes from others'. */
  userId: string | null;
  api: ApiClient;
  engine: Engine;
  runner: SyncRunner;
  connectivity: ServiceReachability;
  /** The root whose pass planned last (passes run one root at a time). */
  currentRoot: string | undefined;
  /** Absolute paths of parts being uploaded, to tell an upload's bytes from a download's. */
  uploading: Map<string, number>;
}

/** Where a session's engine reports to (the transfer tracker, the publisher). */
export interface EngineSessionListeners {
  onBytes: (relPath: string, bytes: number) => void;
  onTransfer: (event: TransferEvent) => void;
  onReport: (report: PassReport) => void;
  /** Something the state shows changed. */
  changed: () => void;
}

/** Who the session syncs as, learnt before its engine opens the state (the state belongs to them). */
export interface SessionIdentity {
  user: { email: string; name: string };
  owner: StateOwner;
}

export interface OpenEngineSession {
  server: string;
  local: boolean;
  /** The account's tokens (already watched for "sign in again"). */
  tokens: TokenProvider;
  /** Asks who is signed in, over the session's own API client; never throws. */
  identify: (api: ApiClient) => Promise<SessionIdentity>;
  /** The settings now (the bandwidth limits). */
  settings: StoredSettings;
}

/** The API the engine gets: its byte-moving calls wait at the pause gates, and uploads are told apart. */
function gatedApi(api: ApiClient, runner: () => SyncRunner | undefined, uploading: Map<string, number>): ApiClient {
  return {
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
  };
}

/** Opens the API client, asks who is signed in, then opens that account's state in the engine. */
export async function openEngineSession(edges: AppEdges, listeners: EngineSessionListeners, open: OpenEngineSession): Promise<EngineSession> {
  const { config, deps, clock, env } = edges;
  const { server, settings: stored } = open;
  const holder: { runner?: SyncRunner; connectivity?: ServiceReachability; onOnline?: () => void } = {};
  const rawApi = (deps.createApi ?? createApiClient)({
    server,
    tokens: open.tokens,
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
      listeners.changed();
      if (change.state === 'reachable') holder.onOnline?.();
    },
  });
  const uploading = new Map<string, number>();
  const api = gatedApi(rawApi, () => holder.runner, uploading);
  let identity: SessionIdentity;
  let engine: Engine;
  try {
    identity = await open.identify(rawApi);
    engine = createEngine(
      { stateDir: config.stateDir, server, owner: identity.owner, ...(config.stableMs === undefined ? {} : { stableMs: config.stableMs }), ...(config.remote === undefined ? {} : { remote: config.remote }) },
      {
        api,
        fs: edges.fs,
        clock,
        createWatcher: deps.createWatcher ?? ((root, rules) => new NativeWatcher({ root, rules, clock })),
        log: (event) => deps.log?.(event),
        onBytes: listeners.onBytes,
        onTransfer: listeners.onTransfer,
        trash: edges.trash,
        skipRoot: (rootId) => holder.runner?.isRootPaused(rootId) === true,
      },
    );
  } catch (error) {
    rawApi.close();
    throw error;
  }
  const runner = new SyncRunner({
    engine,
    clock,
    onReport: listeners.onReport,
    onError: (error) => deps.log?.({ level: 'warn', message: `sync stopped for a moment: ${toBridgeError(error).message}` }),
    onPassStart: listeners.changed,
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
  return { server, local: open.local, user: identity.user, userId: identity.owner.userId, api: rawApi, engine, runner, connectivity, currentRoot: undefined, uploading };
}

/** Fails fast what waits on the network, then lets the pass end (and its journal writes land) and closes the engine. */
export async function closeEngineSession(session: EngineSession, stopped?: () => void): Promise<void> {
  session.connectivity.close();
  const stopping = session.runner.stop();
  session.api.close();
  await stopping;
  // The last writes to the state database, once the passes ended and before it closes.
  stopped?.();
  session.engine.close();
}
