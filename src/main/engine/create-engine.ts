/**
 * The one place that wires the sync engine (DESIGN.md §1): the state store, scanner, stability gates,
 * watchers, folder mapping and executors, with the file system, the clock and the service API passed in
 * (constructor injection, no globals), so the CLI, the desktop app and the simulation harness build
 * the same engine around different edges. Every write of the state goes through the store: the
 * executors and passes get its named records and its repos, never the database.
 */
import { resolve } from 'node:path';
import { parseRemotePath } from '../../shared/api/remote-path.js';
import type { RootRow } from '../db/roots-repo.js';
import { LocalScanner, StabilityGate, checkRoot, createFreedesktopTrash, nodeLocalDisk, readRootMarker, writeRootMarker, type FileSystem, type Watcher } from '../local/index.js';
import { RemoteFeed } from '../remote/remote-feed.js';
import { openStateStore } from '../store/state-store.js';
import { openStateFile } from '../store/state-dir.js';
import { RemoteSide } from '../sync/remote-side.js';
import { DownloadExecutor } from '../sync/download-executor.js';
import { LocalChangeExecutor } from '../sync/local-change-executor.js';
import { applyFolderChanges, spelledOnDisk } from '../sync/apply-folder-changes.js';
import { FolderMapper } from '../remote/folder-mapper.js';
import { UploadExecutor, type UploadRoot } from '../sync/upload-executor.js';
import { PlacementExecutor } from '../sync/placement-executor.js';
import { RootSync, type PassReport } from '../sync/root-sync.js';
import { reportingIncrements } from '../sync/byte-increments.js';
import { SyncError } from '../model/sync-error.js';
import { DEFAULT_RESCAN_INTERVAL_MS, type Engine, type EngineConfig, type EngineDeps, type EngineEvent } from './engine-types.js';
import { WatchSessions } from './watch-session.js';
import { refuseOverlap } from './refuse-overlap.js';
import { moveServiceFolder, type FolderMove } from './move-service-folder.js';
import type { RemapAhead } from '../db/remap-journal.js';
import type { RemapChoice } from '../../shared/sync/remap-choice.js';

/** What REMAP_CHOICE_NEEDED says: the two choices, and that the disk is left alone either way. */
export function remapChoiceMessage(from: string, to: string): string {
  return `Changing the folder in the service from ${from} to ${to}: say what happens to what is already in ${from}: move it along to ${to}, or leave it in ${from} and upload this folder's files to ${to}. Files on this computer stay either way.`;
}

export function createEngine(config: EngineConfig, deps: EngineDeps): Engine {
  const store = (deps.openStore ?? openStateStore)(deps.openDb?.() ?? openStateFile(config.stateDir, config.owner));
  const { records } = store;
  const { roots, snapshots, journal, landings, issues, successors, movesAhead, remote, conflicts } = store.repos;
  const folders = new FolderMapper(deps.api, store.repos.folders);
  const log = deps.log ?? (() => undefined);
  const nowIso = (): string => new Date(deps.clock.now()).toISOString();
  const scanner = new LocalScanner({ fs: deps.fs });
  const folderCache = store.repos.folders;
  const disk = deps.disk ?? nodeLocalDisk;
  const gates = new Map<string, StabilityGate>();
  const landed = (rootId: string, relPath: string): void => gates.get(rootId)?.forget(relPath);
  const transferred = (rootId: string, relPath: string, direction: 'send' | 'receive'): void => deps.onTransfer?.({ kind: 'file-done', rootId, relPath, direction });
  // onBytes promises increments; the API's listeners report each request's running total.
  const transferApi = deps.onBytes === undefined ? deps.api : reportingIncrements(deps.api);
  const downloads = new DownloadExecutor({
    api: transferApi,
    fs: deps.fs,
    disk,
    commit: records.downloadsLanded,
    landings: { landing: records.landingWritten, finish: landings.finish },
    landed,
    placed: (rootId, relPath) => transferred(rootId, relPath, 'receive'),
    ...(deps.onBytes === undefined ? {} : { onBytes: deps.onBytes }),
    ...(config.limits?.filesInFlight === undefined ? {} : { limits: { filesInFlight: config.limits.filesInFlight } }),
  });
  const localChanges = new LocalChangeExecutor({
    fs: deps.fs,
    disk,
    trash: deps.trash ?? createFreedesktopTrash({ now: () => deps.clock.now() }),
    nowIso,
    moved: (rootId, from, local, syncedFrom, synced) => {
      records.localMoved(rootId, from, local, syncedFrom, synced);
      deps.onTransfer?.({ kind: 'local-change', rootId, relPath: local.relPath, change: 'moved', from });
    },
    landings,
    removed: (rootId, relPath) => {
      records.localRemoved(rootId, relPath);
      deps.onTransfer?.({ kind: 'local-change', rootId, relPath, change: 'trashed' });
    },
    atomically: records.atomically,
    addConflict: (rootId, conflict) => conflicts.add(rootId, conflict),
    dropConflict: (id) => conflicts.resolved(id),
    copied: (rootId, relPath, copy) => {
      records.conflictCopied(rootId, relPath, copy);
      deps.onTransfer?.({ kind: 'local-change', rootId, relPath: copy.relPath, change: 'conflict-copy', from: relPath });
    },
    putSynced: (rootId, entry) => snapshots.putSynced(rootId, entry),
    deleteSynced: (rootId, relPath) => snapshots.deleteSynced(rootId, relPath),
    outlives: successors.outlives,
    landed,
  });

  const uploads = new UploadExecutor({
    api: transferApi,
    fs: deps.fs,
    journal,
    folders,
    nowIso,
    clock: deps.clock,
    commit: async (rootId, synced) => {
      await records.uploadCommitted(rootId, synced);
      transferred(rootId, synced.relPath, 'send');
    },
    syncedAt: (rootId, relPath) => snapshots.syncedEntry(rootId, relPath),
    outlived: successors.outlived,
    ...(deps.onBytes === undefined ? {} : { onBytes: deps.onBytes }),
    ...(config.limits === undefined ? {} : { limits: config.limits }),
  });
  const placements = new PlacementExecutor({
    api: deps.api,
    folders,
    optionsAt: (rootId, relDir) => remote.folders(rootId).flatMap((row) => (row.relDir === relDir ? [row.optionId] : [])),
    otherPlacements: (rootId, assetId, relPath) => snapshots.placements(rootId, assetId) - (snapshots.syncedEntry(rootId, relPath)?.assetId === assetId ? 1 : 0),
    moved: records.placementMoved,
    movingAhead: records.movingAhead,
    moveOff: movesAhead.finish,
    removed: (rootId, relPath) => snapshots.deleteSynced(rootId, relPath),
  });

  const syncs = new Map<string, RootSync>();
  /** Each watched root's watcher, while a watch session runs. */
  const watching = new Map<string, Watcher>();
  // Whether watch() follows the service's change feed right now (every root's feed waits for it then).
  let feedFollowed = false;
  /** Each root's pass while it runs, and the roots a remap holds (no pass starts for them meanwhile). */
  const passing = new Map<string, Promise<PassReport | undefined>>();
  const held = new Set<string>();
  const syncFor = (given: RootRow): RootSync => {
    let sync = syncs.get(given.id);
    if (sync === undefined) {
      // Built from the root's row as it is now: a remap drops the pass, and its successor must see the new place.
      const row = roots.byId(given.id) ?? given;
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
            renameRows: (rootId, from, to) => {
              store.repos.renameDir(rootId, from, to);
              deps.onTransfer?.({ kind: 'local-change', rootId, relPath: to, change: 'folder-moved', from });
            },
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
          recorded: records.landingsRecovered,
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
        stateVersion: store.stateVersion,
        lastLocalEventAt: () => watching.get(row.id)?.lastEventAt(),
        ...(deps.planner === undefined ? {} : { planner: deps.planner }),
      });
      syncs.set(row.id, sync);
    }
    return sync;
  };

  /**
   * One pass over a root, after finishing a remap written ahead and left unfinished (its answer lost,
   * a crash): until it is, the place the state names and the folder in the service disagree. No pass
   * runs while it cannot be finished (undefined).
   */
  const passRoot = async (row: RootRow): Promise<PassReport | undefined> => {
    const pending = store.repos.remapsAhead.pending(row.id);
    if (pending !== undefined) {
      const finished = await finishRemap(row, pending).then(
        () => true,
        (error: unknown) => {
          log({ level: 'warn', rootId: row.id, message: `the move to ${pending.to} in the service is not finished yet: ${error instanceof Error ? error.message : String(error)}` });
          return false;
        },
      );
      if (!finished) return undefined;
    }
    return syncFor(row).pass();
  };

  const passAll = async (onReport?: (report: PassReport) => void): Promise<PassReport[]> => {
    const reports: PassReport[] = [];
    for (const row of roots.all()) {
      if (held.has(row.id)) continue;
      // A paused root is looked at, not synced: its edits count as waiting while it is paused. Its
      // report (nothing done) tells the listener to read the state again; a round's result leaves it out.
      if (deps.skipRoot?.(row.id) === true) {
        onReport?.(await syncFor(row).look());
        continue;
      }
      const running = passRoot(row);
      passing.set(row.id, running);
      const report = await running.finally(() => passing.delete(row.id));
      if (report === undefined) continue;
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

  const watchSessions = new WatchSessions({
    config,
    deps,
    log,
    roots: () => roots.all(),
    syncFor,
    syncs: () => syncs.values(),
    passAll,
    feedFollowed: (followed) => {
      feedFollowed = followed;
    },
    watching,
  });

  /**
   * A root's place in the service changes (RemapChoice): asked of the user first (REMAP_CHOICE_NEEDED),
   * carried out between the root's passes, and in effect at once: the root's pass, its listing of the
   * service and its folder cache are built again for the new place. Never moves or deletes a local
   * file: `move` carries the state along with the service's folder, `leave` forgets what the root held
   * in the old place, so the next pass is a first sync that uploads the local files to the new place.
   */
  const remap = async (root: RootRow, remotePath: string, choice: RemapChoice | undefined): Promise<void> => {
    if (choice === undefined) throw new SyncError('REMAP_CHOICE_NEEDED', remapChoiceMessage(root.remote_path, remotePath));
    held.add(root.id);
    try {
      for (let running = passing.get(root.id); running !== undefined; running = passing.get(root.id)) await running.catch(() => undefined);
      // A move is written ahead of its call to the service: a lost answer or a crash leaves it to finish.
      if (choice === 'move') store.repos.remapsAhead.ahead(root.id, { to: remotePath, choice });
      await finishRemap(root, { to: remotePath, choice });
    } finally {
      held.delete(root.id);
    }
  };

  /** Carries out a remap (again, after a lost answer: moving a folder already moved changes nothing). */
  const finishRemap = async (root: RootRow, { to, choice }: RemapAhead): Promise<void> => {
    let moved: FolderMove | undefined;
    try {
      moved = choice === 'move' ? await moveServiceFolder(deps.api, folders, { id: root.id, remotePath: root.remote_path }, to) : undefined;
    } catch (error) {
      // Refused before anything changed in the service: there is nothing to finish.
      if (error instanceof SyncError) store.repos.remapsAhead.dropped(root.id);
      throw error;
    }
    // Nothing in the old place to move: the new place starts as `leave` starts it.
    records.rootRemapped(root.id, to, moved === 'moved' ? 'move' : 'leave');
    syncs.delete(root.id);
    gates.delete(root.id);
    log({ level: 'info', rootId: root.id, message: moved === 'moved' ? `moved from ${root.remote_path} to ${to} in the service, with its files` : `now syncs with ${to} in the service; ${root.remote_path} keeps what it holds` });
  };

  return {
    store,
    roots: () => roots.all(),

    async addRoot(input) {
      const path = resolve(input.path);
      const stat = await deps.fs.stat(path).catch(() => undefined);
      if (stat?.kind !== 'directory') throw new SyncError('ROOT_STOPPED', `${path} is not a folder; create it first.`);
      const parsed = input.remotePath === '/' ? undefined : parseRemotePath(input.remotePath.replace(/\/+$/, ''));
      if (parsed !== undefined && !parsed.ok) throw new SyncError('INVALID_NAME', `--remote ${input.remotePath}: ${parsed.reason}.`);
      const existing = roots.byPath(path);
      const remotePath = input.remotePath === '/' ? '/' : input.remotePath.replace(/\/+$/, '').normalize('NFC');
      // A new folder is checked on disk and in the service; a known one only when its service folder changes.
      if (existing === undefined || existing.remote_path !== remotePath) {
        const others = roots.all().filter((row) => row.id !== existing?.id);
        await refuseOverlap(deps.fs, { path, remotePath }, others, existing === undefined ? 'both' : 'service');
      }
      if (existing !== undefined && existing.remote_path !== remotePath) await remap(existing, remotePath, input.remap);
      const row = roots.upsert({ path, server: config.server, remotePath, publishLive: input.publishLive }, nowIso());
      // A running root publishes as its row now says from its next new file on, without a restart.
      const running = syncs.get(row.id);
      if (running !== undefined) running.root.publishLive = row.publish_live === 1;
      if (existing === undefined) {
        const marker = await readRootMarker(deps.fs, path).catch(() => undefined);
        if (marker !== undefined && marker.rootId !== row.id) {
          store.forgetRoot(row.id);
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

    startWatching: (onHints, options) => watchSessions.start(onHints, options),

    watch: (signal, onReport, options) => watchSessions.watch(signal, onReport, options),

    confirmDeletes() {
      return roots.all().reduce((count, row) => count + issues.confirmDeletes(row.id), 0);
    },

    nextRemoteCheckAt() {
      return Math.min(...roots.all().map((row) => syncFor(row).remoteFeed.nextDueAt()));
    },

    close() {
      watchSessions.stopAll();
      store.close();
    },
  };
}

/** Whether a root folder and its marker are in place (for `status`). */
export async function rootHealth(fs: FileSystem, row: RootRow): Promise<string> {
  const check = await checkRoot(fs, row.path, row.id);
  return check.status === 'OK' ? 'OK' : `${check.status}: ${check.detail}`;
}
