/**
 * The one place that wires the sync engine (DESIGN.md §1): state database, scanner, stability gates,
 * watchers, folder mapping and executors, with the file system, the clock and the service API passed in
 * (constructor injection, no globals), so the CLI, the desktop app and the simulation harness build
 * the same engine around different edges.
 */
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseRemotePath } from '../shared/api/remote-path.js';
import type { AssetApi } from './api/index.js';
import { openStateDb, type StateDb } from './db/open-state-db.js';
import { rootsRepo, type RootRow } from './db/roots-repo.js';
import { snapshotsRepo } from './db/snapshots-repo.js';
import { successorsRepo } from './db/successors-repo.js';
import { moveJournal, type MoveAhead } from './db/move-journal.js';
import { uploadJournal } from './db/upload-journal.js';
import { landingJournal, type Landing } from './db/landing-journal.js';
import { issuesRepo } from './db/issues-repo.js';
import { foldersRepo } from './db/folders-repo.js';
import { remoteRepo } from './db/remote-repo.js';
import { conflictsRepo } from './db/conflicts-repo.js';
import { renameDirRows } from './db/rename-dir.js';
import { CommitBatches } from './db/commit-batches.js';
import {
  LocalScanner,
  StabilityGate,
  checkRoot,
  createFreedesktopTrash,
  loadIgnoreRules,
  nodeLocalDisk,
  readRootMarker,
  writeRootMarker,
  type Clock,
  type FileSystem,
  type IgnoreRules,
  type LocalDisk,
  type Trash,
  type Watcher,
} from './local/index.js';
import { DEFAULT_POLL_MS, RemoteFeed, type RemoteFeedOptions } from './remote/remote-feed.js';
import { ChangeListener } from './remote/change-listener.js';
import { RemoteSide } from './sync/remote-side.js';
import { DownloadExecutor } from './sync/download-executor.js';
import { LocalChangeExecutor } from './sync/local-change-executor.js';
import { applyFolderChanges, spelledOnDisk } from './sync/apply-folder-changes.js';
import { FolderMapper } from './sync/folder-mapper.js';
import { UploadExecutor, type UploadRoot } from './sync/upload-executor.js';
import { PlacementExecutor } from './sync/placement-executor.js';
import { RootSync, type PassReport } from './sync/root-sync.js';
import { landedRecord } from './sync/recover-landings.js';
import { isScannerReason } from './sync/local-refresh.js';
import { reportingIncrements } from './sync/byte-increments.js';
import type { TransferEvent } from '../shared/sync/transfer-event.js';
import { SyncError } from './sync/sync-error.js';
import type { PlantedBug } from './sync/planted-bug.js';
import type { Planner } from './sync/plan-pass.js';
import type { HashedEntry, LocalEntry, SyncedEntry } from './sync/sync-types.js';

export interface EngineConfig {
  /** Where state.db and logs live (never inside a synced folder). */
  stateDir: string;
  /** The service the roots sync with. */
  server: string;
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
  /** The planner proper (default: sync/plan-operations.ts; the simulation wraps it to plant bugs: sim/plants.ts). */
  planner?: Planner;
  /**
   * A journal bug planted on purpose [test-only]: the simulation's proof that it catches bugs
   * (sync/planted-bug.ts). Never set by the app or the CLI.
   */
  plantedBug?: PlantedBug;
  /** [0, 1), for the change feed's reconnection jitter (default Math.random; the simulation's is seeded). */
  random?: () => number;
}

export interface RootInput {
  path: string;
  /** `/` or `/Brand/Logos`. */
  remotePath: string;
  publishLive: boolean;
}

export interface OnceResult {
  converged: boolean;
  reports: PassReport[];
}

export interface Engine {
  readonly db: StateDb;
  /** Adds (or updates) a root, writing its marker the first time. */
  addRoot(input: RootInput): Promise<RootRow>;
  roots(): RootRow[];
  /** Passes until every root is at rest (or `maxPasses`); converged when nothing is left to do or fix. */
  syncOnce(options?: { maxPasses?: number; onReport?: (report: PassReport) => void }): Promise<OnceResult>;
  /** Watches every root and syncs on changes until the signal aborts. */
  watch(signal: AbortSignal, onReport?: (report: PassReport) => void): Promise<void>;
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
  /** One pass over every root (the paused ones left out). */
  pass(onReport?: (report: PassReport) => void): Promise<PassReport[]>;
  /** When a pass is next wanted though no hint arrives (gate, remote poll, periodic scan), epoch ms. */
  nextWakeAt(): number;
  /** Stops every watcher (and the change feed); no hint arrives after it resolves. */
  close(): Promise<void>;
}

export function createEngine(config: EngineConfig, deps: EngineDeps): Engine {
  const db = deps.openDb?.() ?? openStateFile(config.stateDir);
  const roots = rootsRepo(db);
  const snapshots = snapshotsRepo(db);
  const journal = uploadJournal(db);
  const landings = landingJournal(db);
  const issues = issuesRepo(db);
  const successors = successorsRepo(db);
  const movesAhead = moveJournal(db);
  const folders = new FolderMapper(deps.api, foldersRepo(db));
  const log = deps.log ?? (() => undefined);
  const nowIso = (): string => new Date(deps.clock.now()).toISOString();
  const scanner = new LocalScanner({ fs: deps.fs });
  const remote = remoteRepo(db);
  const conflicts = conflictsRepo(db);
  const renameRows = renameDirRows(db);
  const folderCache = foldersRepo(db);
  const disk = deps.disk ?? nodeLocalDisk;
  const gates = new Map<string, StabilityGate>();
  const landed = (rootId: string, relPath: string): void => gates.get(rootId)?.forget(relPath);
  const transferred = (rootId: string, relPath: string, direction: 'send' | 'receive'): void => deps.onTransfer?.({ kind: 'file-done', rootId, relPath, direction });
  // onBytes promises increments; the API's listeners report each request's running total.
  const transferApi = deps.onBytes === undefined ? deps.api : reportingIncrements(deps.api);
  // Written ahead of each download's rename: the landings of the files that finish together share a commit.
  const landingCommits = new CommitBatches<{ rootId: string; landing: Landing }>(db, ({ rootId, landing }) => landings.landing(rootId, landing));
  const downloads = new DownloadExecutor({
    api: transferApi,
    fs: deps.fs,
    disk,
    commit: db.transaction((rootId: string, landed: readonly { local: HashedEntry; assetId: string }[]) => {
      for (const { local, assetId } of landed) {
        snapshots.putLocal(rootId, local);
        snapshots.putSynced(rootId, { ...local, assetId });
        issues.cleared(rootId, local.relPath);
        landings.finish(rootId, local.relPath);
      }
    }),
    landings: { landing: (rootId, landing) => landingCommits.commit({ rootId, landing }), finish: landings.finish },
    landed,
    placed: (rootId, relPath) => transferred(rootId, relPath, 'receive'),
    ...(deps.onBytes === undefined ? {} : { onBytes: deps.onBytes }),
    ...(config.limits?.filesInFlight === undefined ? {} : { limits: { filesInFlight: config.limits.filesInFlight } }),
  });
  /** A synced row moved from `from` to `synced.relPath`, its conflict's original following it. Call inside a transaction. */
  const syncedMoved = (rootId: string, from: string, synced: SyncedEntry): void => {
    snapshots.deleteSynced(rootId, from);
    snapshots.putSynced(rootId, synced);
    conflicts.originalMoved(rootId, synced.assetId, from, synced.relPath);
  };
  // A landing recovered after a crash (recover-landings.ts): recorded as its batch's commit would have.
  // A move's leaves the synced row's old path, as `moved` below does (unless that row is another's by now).
  const recordLandings = db.transaction((rootId: string, landed: readonly Landing[]) => {
    for (const landing of landed) {
      const synced = landedRecord(landing);
      const from = landing.moved?.from;
      if (from !== undefined && snapshots.syncedEntry(rootId, from)?.assetId === synced.assetId) syncedMoved(rootId, from, synced);
      else snapshots.putSynced(rootId, synced);
      snapshots.fillUnread(rootId, { ...synced, md5: landing.local.md5 });
      // The scan's own report stays (UNREADABLE: the landed file cannot be opened now): it is what has
      // the scan look at the path again, and it clears the report once it can (seed 131802).
      const report = issues.notSyncedEntry(rootId, synced.relPath);
      if (report !== undefined && !isScannerReason(report.reason)) issues.cleared(rootId, synced.relPath);
      landings.finish(rootId, synced.relPath);
    }
  });
  const localChanges = new LocalChangeExecutor({
    fs: deps.fs,
    disk,
    trash: deps.trash ?? createFreedesktopTrash({ now: () => deps.clock.now() }),
    nowIso,
    moved: db.transaction((rootId: string, from: string, local: LocalEntry, syncedFrom: string, synced: SyncedEntry) => {
      snapshots.deleteLocal(rootId, from);
      snapshots.putLocal(rootId, local);
      syncedMoved(rootId, syncedFrom, synced);
      landings.finish(rootId, synced.relPath);
    }),
    landings,
    removed: db.transaction((rootId: string, relPath: string) => {
      snapshots.deleteLocal(rootId, relPath);
      snapshots.deleteSynced(rootId, relPath);
    }),
    atomically: (work) => db.transaction(work)(),
    addConflict: (rootId, conflict) => conflicts.add(rootId, conflict),
    dropConflict: (id) => conflicts.resolved(id),
    copied: db.transaction((rootId: string, relPath: string, copy: LocalEntry) => {
      snapshots.deleteLocal(rootId, relPath);
      snapshots.putLocal(rootId, copy);
    }),
    putSynced: (rootId, entry) => snapshots.putSynced(rootId, entry),
    deleteSynced: (rootId, relPath) => snapshots.deleteSynced(rootId, relPath),
    outlives: successors.outlives,
    landed,
  });

  const uploadCommits = new CommitBatches<{ rootId: string; synced: SyncedEntry }>(db, ({ rootId, synced }) => {
    snapshots.putSynced(rootId, synced);
    snapshots.fillUnread(rootId, synced);
    journal.finish(rootId, synced.relPath);
    issues.cleared(rootId, synced.relPath);
  });
  const uploads = new UploadExecutor({
    api: transferApi,
    fs: deps.fs,
    journal,
    folders,
    nowIso,
    clock: deps.clock,
    commit: async (rootId, synced) => {
      await uploadCommits.commit({ rootId, synced });
      transferred(rootId, synced.relPath, 'send');
    },
    syncedAt: (rootId, relPath) => snapshots.syncedEntry(rootId, relPath),
    outlived: successors.outlived,
    ...(deps.onBytes === undefined ? {} : { onBytes: deps.onBytes }),
    ...(config.limits === undefined ? {} : { limits: config.limits }),
    ...(deps.plantedBug === undefined ? {} : { plantedBug: deps.plantedBug }),
  });
  const placements = new PlacementExecutor({
    api: deps.api,
    folders,
    optionsAt: (rootId, relDir) => remote.folders(rootId).flatMap((row) => (row.relDir === relDir ? [row.optionId] : [])),
    otherPlacements: (rootId, assetId, relPath) => snapshots.placements(rootId, assetId) - (snapshots.syncedEntry(rootId, relPath)?.assetId === assetId ? 1 : 0),
    moved: db.transaction((rootId: string, from: string, to: SyncedEntry) => {
      syncedMoved(rootId, from, to);
      movesAhead.finish(rootId, from);
    }),
    movingAhead: db.transaction((rootId: string, move: MoveAhead, synced?: SyncedEntry) => {
      if (synced !== undefined) snapshots.putSynced(rootId, synced);
      movesAhead.ahead(rootId, move);
    }),
    moveOff: movesAhead.finish,
    removed: (rootId, relPath) => snapshots.deleteSynced(rootId, relPath),
  });

  // This connection's writes, and the commits of any other (a CLI's confirm-deletes or resolve).
  const totalChanges = db.prepare<[], { n: number }>('SELECT total_changes() AS n');
  const stateVersion = (): string => `${totalChanges.get()?.n ?? 0}:${String(db.pragma('data_version', { simple: true }))}`;

  const syncs = new Map<string, RootSync>();
  /** Each watched root's watcher, while a watch session runs. */
  const watching = new Map<string, Watcher>();
  // Whether watch() follows the service's change feed right now (every root's feed waits for it then).
  let feedFollowed = false;
  const syncFor = (row: RootRow): RootSync => {
    let sync = syncs.get(row.id);
    if (sync === undefined) {
      const root: UploadRoot = { id: row.id, path: row.path, remotePath: row.remote_path, publishLive: row.publish_live === 1 };
      const gate = new StabilityGate(deps.clock, config.stableMs === undefined ? {} : { stableMs: config.stableMs });
      gates.set(row.id, gate);
      const feed = new RemoteFeed(root, { api: deps.api, folders, repo: remote, now: () => deps.clock.now(), ...(config.remote === undefined ? {} : { options: config.remote }) });
      feed.follow(feedFollowed);
      const rootLog = (event: Omit<EngineEvent, 'rootId'>): void => log({ ...event, rootId: row.id });
      const remoteSide = new RemoteSide(feed, {
        repo: remote,
        applyFolders: (target, changes) =>
          applyFolderChanges(target, changes, {
            fs: deps.fs,
            disk,
            renameRows,
            remember: (rootId, relDir, optionId) => folderCache.remember(rootId, relDir, optionId),
            forget: (rootId, relDir) => folderCache.forget(rootId, relDir),
            log: rootLog,
          }),
        spelledOnDisk: (target, relDir) => spelledOnDisk(deps.fs, target.path, relDir),
      });
      sync = new RootSync(root, {
        fs: deps.fs,
        scanner,
        gate,
        remote: remoteSide,
        remoteChanges: { local: localChanges, downloads },
        conflicts,
        landings: {
          unrecorded: (rootId) => landings.all(rootId),
          dropped: (rootId, relPath) => landings.finish(rootId, relPath),
          recorded: recordLandings,
        },
        movesAhead: { unfinished: movesAhead.all, dropped: movesAhead.finish },
        snapshots,
        successors,
        issues,
        journal,
        uploads,
        placements,
        now: () => deps.clock.now(),
        rescanIntervalMs: config.rescanIntervalMs ?? DEFAULT_RESCAN_INTERVAL_MS,
        setStopped: (reason) => roots.setStopped(row.id, reason),
        log: (event) => log({ ...event, rootId: row.id }),
        planned: (transfers) => deps.onTransfer?.({ kind: 'planned', rootId: row.id, ...transfers }),
        stateVersion,
        lastLocalEventAt: () => watching.get(row.id)?.lastEventAt(),
        ...(deps.planner === undefined ? {} : { planner: deps.planner }),
      });
      syncs.set(row.id, sync);
    }
    return sync;
  };

  const passAll = async (onReport?: (report: PassReport) => void): Promise<PassReport[]> => {
    const reports: PassReport[] = [];
    for (const row of roots.all()) {
      if (deps.skipRoot?.(row.id) === true) continue;
      const report = await syncFor(row).pass();
      onReport?.(report);
      reports.push(report);
    }
    return reports;
  };

  const atRest = (): boolean =>
    roots
      .all()
      .every(
        (row) =>
          row.stopped === null &&
          issues.notSynced(row.id).length === 0 &&
          issues.heldDeletes(row.id).length === 0 &&
          journal.all(row.id).length === 0 &&
          landings.all(row.id).length === 0 &&
          conflicts.ofRoot(row.id).length === 0 &&
          syncs.get(row.id)?.remoteFailure === undefined,
      );

  /** The change feeds of the open watch sessions: `close` stops them before the database goes. */
  const feedStops = new Set<AbortController>();
  /**
   * One change feed for every root: it says when (and what) to fetch; without it the roots poll. Runs
   * until the signal aborts; what it hears after that (an answer already under way) is dropped.
   */
  const followFeed = (signal: AbortSignal, nudge: () => void): Promise<void> => {
    const feeds = (): RemoteFeed[] => (signal.aborted ? [] : roots.all().map((row) => syncFor(row).remoteFeed));
    return new ChangeListener({
      api: deps.api,
      clock: deps.clock,
      ...(deps.random === undefined ? {} : { random: deps.random }),
      following: (followed) => {
        feedFollowed = followed;
        for (const feed of feeds()) feed.follow(followed);
        nudge();
      },
      changed: (kinds) => {
        for (const feed of feeds()) feed.changed(kinds);
        nudge();
      },
      reset: () => {
        for (const feed of feeds()) feed.requestFull();
        nudge();
      },
      log: (level, message) => log({ level, message }),
    }).run(signal);
  };

  const unwatch = (closing: readonly Watcher[]): void => {
    for (const [rootId, watcher] of watching) if (closing.includes(watcher)) watching.delete(rootId);
  };

  const startWatching = async (onHints: () => void, options: WatchOptions = {}): Promise<WatchSession> => {
    const watchers: Watcher[] = [];
    try {
      for (const row of roots.all()) {
        if (deps.createWatcher === undefined) break;
        const sync = syncFor(row);
        let rules = await loadIgnoreRules(deps.fs, row.path);
        const watcher = deps.createWatcher(row.path, () => rules);
        await watcher.start((hints) => {
          if (hints.includes('.assetsyncignore')) void loadIgnoreRules(deps.fs, row.path).then((fresh) => (rules = fresh), () => undefined);
          sync.hint(hints);
          onHints();
        });
        watchers.push(watcher);
        watching.set(row.id, watcher);
        // What changed between an earlier pass's scan and this watcher's start was seen by neither:
        // look at the whole root once (a root's first pass scans it whole anyway).
        sync.hint(['']);
      }
    } catch (error) {
      unwatch(watchers);
      await Promise.all(watchers.map((watcher) => watcher.close()));
      throw error;
    }
    const feedStop = new AbortController();
    feedStops.add(feedStop);
    const listening = options.followFeed === true ? followFeed(feedStop.signal, onHints) : undefined;
    return {
      pass: passAll,
      nextWakeAt: () =>
        Math.min(
          ...[...syncs.values()].map((sync) => Math.min(sync.nextCheckAt() ?? Infinity, sync.remoteFeed.nextDueAt(), sync.nextFullScanAt() ?? Infinity)),
          // At least every poll interval even while the change feed makes polls unneeded: a resting
          // pass asks the service nothing, and it is how another process's writes to the state
          // database (`confirm-deletes`) are noticed.
          deps.clock.now() + Math.min(60_000, config.remote?.pollIntervalMs ?? DEFAULT_POLL_MS),
        ),
      close: async () => {
        feedStop.abort();
        feedStops.delete(feedStop);
        unwatch(watchers);
        await Promise.all([...watchers.map((watcher) => watcher.close()), listening]);
      },
    };
  };

  return {
    db,
    roots: () => roots.all(),

    async addRoot(input) {
      const path = resolve(input.path);
      const stat = await deps.fs.stat(path).catch(() => undefined);
      if (stat?.kind !== 'directory') throw new SyncError('ROOT_STOPPED', `${path} is not a folder; create it first.`);
      const parsed = input.remotePath === '/' ? undefined : parseRemotePath(input.remotePath.replace(/\/+$/, ''));
      if (parsed !== undefined && !parsed.ok) throw new SyncError('INVALID_NAME', `--remote ${input.remotePath}: ${parsed.reason}.`);
      const existing = roots.byPath(path);
      const row = roots.upsert({ path, server: config.server, remotePath: input.remotePath === '/' ? '/' : input.remotePath.replace(/\/+$/, '').normalize('NFC'), publishLive: input.publishLive }, nowIso());
      if (existing === undefined) {
        const marker = await readRootMarker(deps.fs, path).catch(() => undefined);
        if (marker !== undefined && marker.rootId !== row.id) {
          db.prepare('DELETE FROM roots WHERE id = ?').run(row.id);
          throw new SyncError('ROOT_IN_USE', `${path} is already synced by another Asset Sync state (root ${marker.rootId}); use that state directory, or remove ${path}/.asset-sync to start over.`);
        }
        await writeRootMarker(deps.fs, path, { rootId: row.id, server: config.server, remotePath: row.remote_path }, deps.clock);
      }
      return row;
    },

    async syncOnce(options = {}) {
      const maxPasses = options.maxPasses ?? 50;
      const reports: PassReport[] = [];
      // One full pass: every root is scanned whole first, and listed whole on the service, whatever the
      // watcher and the feed's schedule said before.
      for (const row of roots.all()) {
        const sync = syncFor(row);
        sync.hint(['']);
        sync.remoteFeed.requestFull();
      }
      for (let pass = 0; pass < maxPasses; pass++) {
        const round = await passAll(options.onReport);
        reports.push(...round);
        if (round.some((report) => report.stopped !== undefined)) break;
        const settling = round.some((report) => report.settling > 0);
        const busy = round.some((report) => report.operations > 0 && report.failed < report.operations);
        if (!settling && !busy) break;
        if (settling && !busy) {
          const next = Math.min(...[...syncs.values()].map((sync) => sync.nextCheckAt() ?? Infinity));
          if (Number.isFinite(next)) await deps.clock.sleep(Math.max(0, next - deps.clock.now()));
        }
      }
      return { converged: atRest(), reports };
    },

    startWatching,

    async watch(signal, onReport) {
      let wake: (() => void) | undefined;
      // A hint that arrives while a pass runs must not wait for the next timer.
      let dirty = false;
      const nudge = (): void => {
        dirty = true;
        wake?.();
      };
      const takeDirty = (): boolean => {
        const was = dirty;
        dirty = false;
        return was;
      };
      const stopped = (): boolean => signal.aborted;
      const session = await startWatching(nudge, { followFeed: true });
      try {
        signal.addEventListener('abort', nudge, { once: true });
        while (!stopped()) {
          takeDirty();
          await session.pass(onReport);
          if (stopped() || takeDirty()) continue;
          const next = session.nextWakeAt();
          await new Promise<void>((resolveWait) => {
            const cancel = deps.clock.setTimer(Math.max(0, next - deps.clock.now()), () => resolveWait());
            wake = () => {
              cancel();
              resolveWait();
            };
          });
          wake = undefined;
        }
      } finally {
        await session.close();
      }
    },

    confirmDeletes() {
      return roots.all().reduce((count, row) => count + issues.confirmDeletes(row.id), 0);
    },

    nextRemoteCheckAt() {
      return Math.min(...roots.all().map((row) => syncFor(row).remoteFeed.nextDueAt()));
    },

    close() {
      for (const stop of feedStops) stop.abort();
      db.close();
    },
  };
}

function openStateFile(stateDir: string): StateDb {
  mkdirSync(stateDir, { recursive: true, mode: 0o700 });
  return openStateDb(join(stateDir, 'state.db'));
}

/** Whether a root folder and its marker are in place (for `status`). */
export async function rootHealth(fs: FileSystem, row: RootRow): Promise<string> {
  const check = await checkRoot(fs, row.path, row.id);
  return check.status === 'OK' ? 'OK' : `${check.status}: ${check.detail}`;
}
