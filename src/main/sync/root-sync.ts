/**
 * One sync root's pass (DESIGN.md §3): check the root marker, bring the local snapshot up to date
 * (local-refresh.ts), settle the downloads and moves a crash interrupted (recover-landings.ts), finish
 * the moves on the service one cut short (resume-moves.ts), read the service's side, plan, and carry out
 * the plan. Knows the order of things; the pieces (scanner, planner, executors) know how. A missing
 * root or marker stops the root: never read an empty mount point as "delete all".
 */
import { checkRoot, errnoCode, foldsCase, type FileSystem, type LocalScanner, type StabilityGate } from '../local/index.js';
import type { IssuesRepo } from '../db/issues-repo.js';
import type { SnapshotsRepo } from '../db/snapshots-repo.js';
import type { SuccessorsRepo } from '../db/successors-repo.js';
import type { UploadJournal } from '../db/upload-journal.js';
import { classifyFailure } from './classify-failure.js';
import { caseFoldedNames, exactNames, type NameKey } from '../local/local-names.js';
import { contentNeeded } from './content-needed.js';
import { planOperations } from './plan-operations.js';
import { plantedPlan, type PlantedBug } from './planted-bug.js';
import { PlanRest } from './plan-rest.js';
import type { PlacementExecutor } from './placement-executor.js';
import type { UploadExecutor, UploadOutcome, UploadRoot, VersionItem } from './upload-executor.js';
import { identityOf, type LocalEntry, type Operation, type SyncedEntry } from './sync-types.js';
import { LocalRefresh, isScannerReason } from './local-refresh.js';
import type { Asset } from '../../shared/api/resources.js';
import type { ConflictsRepo } from '../db/conflicts-repo.js';
import { movedOwnUploads, serviceNames, withOwnUploads, type RemoteSide } from './remote-side.js';
import { executeRemoteChanges, isRemoteChange, type RemoteChangeDeps, type RemoteChangeOp } from './execute-remote-changes.js';
import { plannedTransfers } from './planned-transfers.js';
import { relDirOf } from '../remote/folder-mapper.js';
import { folderPair, folderRenames } from './folder-renames.js';
import { recoverLandings, type RecoverLandingsDeps } from './recover-landings.js';
import { resumeMoves, type ResumeMovesDeps } from './resume-moves.js';
import { settledReports, type ReportsInput } from './settled-reports.js';
import { staleOrigins } from './stale-origins.js';
import { SyncError } from '../model/sync-error.js';
import { vanishedFiles } from './vanished-files.js';
import { directoriesOf } from './remote-placements.js';
import type { PlannedTransfers } from '../../shared/sync/transfer-event.js';

/** What one pass did, for progress output and `--once`'s verdict. */
export interface PassReport {
  rootId: string;
  stopped?: string;
  scanned: boolean;
  uploaded: number;
  versions: number;
  moved: number;
  removed: number;
  failed: number;
  bytesSent: number;
  heldDeletes: number;
  /** Files still being written (not yet stable). */
  settling: number;
  /**
   * Operations tried this pass, the interrupted uploads it finished among them (0 means the root is at
   * rest unless files are settling).
   */
  operations: number;
  /** The service's side: files downloaded (and their bytes), moved or trashed on disk, conflicts found. */
  downloaded: number;
  bytesReceived: number;
  localMoved: number;
  trashed: number;
  conflicts: number;
  /** Why the service could not be read this pass (the last complete listing served instead). */
  remoteError?: string;
  /** No plan was made: the last one found nothing to do and nothing it reads changed since (plan-rest.ts). */
  rested?: boolean;
}

export interface RootSyncDeps {
  fs: FileSystem;
  scanner: LocalScanner;
  gate: StabilityGate;
  snapshots: SnapshotsRepo;
  issues: IssuesRepo;
  journal: UploadJournal;
  uploads: UploadExecutor;
  placements: PlacementExecutor;
  /** The service's side: feed, folder changes, remote view (two-way sync). */
  remote: RemoteSide;
  /** Executors of the service's changes on disk (downloads, local moves, trash, conflicts). */
  remoteChanges: Pick<RemoteChangeDeps, 'local' | 'downloads'>;
  conflicts: ConflictsRepo;
  /** Files that outlive their binned asset (db/migrations/0008-successors.ts), let go here once done. */
  successors: Pick<SuccessorsRepo, 'outlived' | 'drop'>;
  /** The download journal, read after a crash (recover-landings.ts). */
  landings: Omit<RecoverLandingsDeps, 'fs'>;
  /** The moves written ahead, finished after a crash or a failure (resume-moves.ts). */
  movesAhead: Pick<ResumeMovesDeps, 'unfinished' | 'dropped'>;
  now(): number;
  /** A whole-root scan at least this often (local-refresh.ts); undefined: only when asked. */
  rescanIntervalMs?: number;
  /** Stops the root with a reason (null: running). */
  setStopped(reason: string | null): void;
  log(event: { level: 'info' | 'warn'; message: string; relPath?: string }): void;
  /** Told what the pass is about to upload and download, before the first byte (progress and ETA). */
  planned?(transfers: PlannedTransfers): void;
  /**
   * Changes whenever the state database changed, through this connection or another (a CLI's
   * confirm-deletes or resolve). Without it every pass plans.
   */
  stateVersion?(): string;
  /**
   * When the root's watcher last heard of a change on disk (clock ms; undefined: no watcher, or no
   * event yet). A pass whose look began before it saw the disk mid-change (watcher.ts).
   */
  lastLocalEventAt?(): number | undefined;
  /** A bug planted for the simulation's own test [test-only] (planted-bug.ts); never set otherwise. */
  plantedBug?: PlantedBug;
}


export class RootSync {
  /** Journal entries the restart's resume could not finish yet (undefined until the first pass resumes). */
  private resumeLeft: Set<string> | undefined;
  private readonly local: LocalRefresh;
  private readonly rest = new PlanRest();
  /** How this root's disk tells names apart, once the disk has said (case-probe.ts). */
  private nameKey: NameKey | undefined;
  /**
   * Synced files the last whole-root scan found gone: their deletion, held for the user's word (the
   * mass-delete guard) or waiting for a quiet disk, was seen whole already, and the passes until it
   * goes through scan the root again only for a file gone since.
   */
  private goneWhenSeenWhole = new Set<string>();

  constructor(
    readonly root: UploadRoot,
    private readonly deps: RootSyncDeps,
  ) {
    this.local = new LocalRefresh(root, deps);
  }

  /** Paths a watcher says may have changed ('' = everything). */
  hint(relPaths: readonly string[]): void {
    this.local.hint(relPaths);
  }

  /** The root's remote change feed (its schedule, and `requestFull` for `--once`). */
  get remoteFeed(): RemoteSide['feed'] {
    return this.deps.remote.feed;
  }

  /** Why the service could not be read on the last pass, if it could not. */
  get remoteFailure(): unknown {
    return this.deps.remote.lastError;
  }

  /** When the stability gate next wants a look (epoch ms), if ever. */
  nextCheckAt(): number | undefined {
    return this.deps.gate.nextCheckAt();
  }

  /** When the periodic whole-root scan is next due (epoch ms), if there is one. */
  nextFullScanAt(): number | undefined {
    return this.local.nextFullScanAt();
  }

  async pass(): Promise<PassReport> {
    const { deps, root } = this;
    const report: PassReport = {
      rootId: root.id,
      scanned: false,
      uploaded: 0,
      versions: 0,
      moved: 0,
      removed: 0,
      failed: 0,
      bytesSent: 0,
      heldDeletes: 0,
      settling: 0,
      operations: 0,
      downloaded: 0,
      bytesReceived: 0,
      localMoved: 0,
      trashed: 0,
      conflicts: 0,
    };
    const check = await checkRoot(deps.fs, root.path, root.id);
    if (check.status !== 'OK') {
      report.stopped = `${check.status}: ${check.detail}`;
      deps.setStopped(report.stopped);
      return report;
    }
    deps.setStopped(null);

    let resumedAny = false;
    if (this.resumeLeft === undefined || this.resumeLeft.size > 0) {
      // The first pass resumes the whole journal; a later one what it could not finish, once its
      // backoff is over. Left to the planner instead, such a file (its upload landed unheard, then
      // could not be read to tell) met the colleague's newer version at its path as a conflict, and its
      // journal entry stayed for good (simulation seed 84002).
      const left = this.resumeLeft;
      const now = deps.now();
      const backingOff = new Set(deps.issues.notSynced(root.id).filter((row) => row.retry_at !== null && row.retry_at > now).map((row) => row.rel_path));
      const resumed = await deps.uploads.resume(root, (relPath) => left === undefined || (left.has(relPath) && !backingOff.has(relPath)));
      // A file that changed since its upload began is the planner's from here (the resume forgot the
      // upload, keeping the asset for the file's next one): resumed again, it failed the same way each
      // time its backoff ended, and the backoff it set kept the planner off the file for good (seed 61013).
      const undecided = resumed.filter((outcome) => !outcome.result.ok && !(outcome.result.error instanceof SyncError && outcome.result.error.code === 'LOCAL_FILE_CHANGED'));
      this.resumeLeft = new Set([...undecided.map((outcome) => outcome.relPath), ...[...(left ?? [])].filter((relPath) => backingOff.has(relPath))]);
      // Work like any planned operation: a pass that finished an interrupted upload is not at rest.
      report.operations += resumed.length;
      resumedAny = resumed.length > 0;
      this.record(report, resumed, 'uploaded');
    }
    // A disk that ignores case answers a hinted `A/x.txt` with the folder renamed `a`: hints are looked
    // up as spelled on disk there, or the old spelling lives on in the snapshot beside the new one.
    this.local.exactNames = (await this.names()) === caseFoldedNames;
    const lookedAt = deps.now();
    report.scanned = await this.local.refresh();
    report.settling = deps.gate.settlingCount;
    // Downloads and moves a crash left renamed but unrecorded are recorded (or forgotten) before anything plans.
    try {
      await recoverLandings(root.id, () => ({ local: deps.snapshots.local(root.id), pending: this.local.pending, unstable: this.local.unstable }), { fs: deps.fs, ...deps.landings });
    } catch (error) {
      report.failed++;
      deps.log({ level: 'warn', message: `cannot settle the downloads and moves a crash interrupted: ${error instanceof Error ? error.message : 'unexpected failure'}; the pass waits for them` });
      return report;
    }
    // A move on the service cut short is finished before the service is read: work like any planned move.
    try {
      const moved = await resumeMoves(root, { ...deps.movesAhead, syncedAt: (rootId, relPath) => deps.snapshots.syncedEntry(rootId, relPath), placements: deps.placements });
      deps.remote.feed.touched(moved);
      report.moved += moved.length;
      report.operations += moved.length;
    } catch (error) {
      report.failed++;
      deps.log({ level: 'warn', message: `cannot finish moving a file's asset on the service: ${error instanceof Error ? error.message : 'unexpected failure'}; the pass waits for it` });
      return report;
    }
    const remote = await deps.remote.prepare(root, await this.local.rules(), await this.names(), directoriesOf(deps.snapshots.localPaths(root.id)));
    if (remote.error !== undefined) {
      report.remoteError = remote.error instanceof Error ? remote.error.message : 'unexpected failure';
      deps.log({ level: 'warn', message: `could not read the service's changes: ${report.remoteError}` });
    }
    if (remote.renamed.length > 0) {
      this.local.hint(remote.renamed);
      await this.local.refresh();
    }

    const now = deps.now();
    const busy = new Set(deps.issues.notSynced(root.id).filter((row) => row.retry_at !== null && row.retry_at > now && !isScannerReason(row.reason)).map((row) => row.rel_path));
    const waiting = `${[...busy].sort().join('\n')}\n\n${[...(remote.view?.unknownAssets ?? [])].sort().join('\n')}`;
    const resting = this.rest.resting({ now, observed: report.scanned || remote.renamed.length > 0, state: deps.stateVersion?.(), waiting });
    if (resting !== undefined) {
      report.rested = true;
      report.heldDeletes = resting.heldDeletes;
      return report;
    }
    const synced = deps.snapshots.synced(root.id);
    const stableLocal = (): Map<string, LocalEntry> => new Map([...deps.snapshots.local(root.id)].filter(([relPath]) => !this.local.unstable.has(relPath)));
    let local = stableLocal();
    const stale = staleOrigins(local, synced);
    if (stale.length > 0) {
      this.local.hint(stale);
      await this.local.refresh();
      local = stableLocal();
    }
    // A synced file gone from a hinted look may have moved where no event said: the whole root is
    // seen first, so a move is a move, not a deletion and a second asset (vanished-files.ts).
    const look = { local, unstable: this.local.unstable, synced };
    // One back since the scan that saw it gone may move again unannounced.
    for (const relPath of this.goneWhenSeenWhole) if (local.has(relPath)) this.goneWhenSeenWhole.delete(relPath);
    if (!this.local.sawWholeRoot && vanishedFiles(look).some((relPath) => !this.goneWhenSeenWhole.has(relPath))) {
      this.local.hint(['']);
      await this.local.refresh();
      local = stableLocal();
    }
    if (this.local.sawWholeRoot) this.goneWhenSeenWhole = new Set(vanishedFiles({ local, unstable: this.local.unstable, synced }));
    // Our own uploads not settled yet are the resume's, never remote files to download (seed 100391).
    const uploads = deps.journal.all(root.id);
    // A file whose new-file upload is not settled, moved on disk since, waits for the upload's record
    // where it was sent, then moves (seed 142763; remote-side.ts `movedOwnUploads`).
    const movedUploads = movedOwnUploads(uploads, local, this.local.unstable, synced);
    const view = remote.view === undefined ? undefined : withOwnUploads(remote.view, uploads, local, synced, new Set(movedUploads.values()));
    const needed = contentNeeded({ local, synced, ...(view === undefined ? {} : { remote: view }) });
    if (needed.size > 0) {
      await this.local.read(needed);
      local = stableLocal();
    }
    const conflictCopies = this.conflictCopies(local, synced);
    const plan = plantedPlan(planOperations({
      local,
      unstable: this.local.unstable,
      pending: this.local.pending,
      synced,
      busy: movedUploads.size === 0 ? busy : new Set([...busy, ...movedUploads.keys()]),
      deletesConfirmed: deps.issues.deletesConfirmed(root.id),
      ...(view === undefined ? {} : { remote: view }),
      ...(remote.lastKnown === undefined ? {} : { lastKnownRemote: remote.lastKnown }),
      conflictCopies,
      now,
      nameKey: await this.names(),
    }), deps.plantedBug);
    if (plan.heldDeletes.length > 0) deps.issues.holdDeletes(root.id, plan.heldDeletes.map((op) => ({ relPath: op.relPath, assetId: op.assetId, direction: op.kind === 'LOCAL_DELETE' ? 'LOCAL' : 'REMOTE' })));
    else deps.issues.clearHeld(root.id);
    report.heldDeletes = plan.heldDeletes.length;
    const operations = this.deletionsSeenWhole(plan.operations, lookedAt);
    report.operations += operations.length;
    this.forgetSettled({ local, synced, plan, waiting: new Set([...busy, ...this.local.unstable]), ...(remote.error === undefined && view !== undefined ? { remote: view } : {}) });
    this.dropSuccessors(local, synced);
    await this.execute(operations, report, serviceNames(view));
    // A new file's upload that failed or was cut off keeps its journal entry for the next attempt;
    // when the file went away (renamed, deleted: by the user, or by this pass's work) or its path holds
    // another asset's file (a colleague's, ours a conflict copy), its empty asset goes too, as resume
    // does after a restart. Cheap when there is nothing to end (one query); a quiet pass changed
    // nothing it looks at, so it waits for one that did work. The resume's is work too: an upload it
    // handed to the planner (its file changed) whose path syncs another asset now (a colleague's
    // version downloaded there) plans nothing, and its empty asset stayed live (seed 87055).
    if (plan.operations.length > 0 || resumedAny || movedUploads.size > 0) report.operations += (await deps.uploads.dropAbandoned(root)).length;
    // A file held for its upload's record is work left: the next pass plans it, whatever else rests.
    // Counted as nothing, the pass after rested on it, and the file never went up (until a change
    // on disk or the hourly scan woke the root).
    report.operations += movedUploads.size;
    // The state is taken after this pass's own writes (held deletions, say): only later changes wake the root.
    this.rest.planned({ now, state: deps.stateVersion?.(), waiting }, plan.operations.length + movedUploads.size, plan.heldDeletes.length);
    return report;
  }

  /**
   * The plan's deletions on the service, unless the disk changed while this pass looked at it. A scan
   * that runs while a folder is being emptied sees part of the deletion: one file of twelve gone went
   * through alone, under the mass-delete guard, and the other eleven were held a pass later. Such a
   * pass leaves its deletions to the next, which the watcher's events bring and which sees the whole
   * deletion, guard and all. A root whose files keep changing keeps its deletions waiting until it
   * is quiet: late, never lost. Without a watcher (`--once`), nothing changes under a pass's feet
   * that a later pass would see sooner, and the plan goes as it is.
   */
  private deletionsSeenWhole(operations: readonly Operation[], lookedAt: number): readonly Operation[] {
    const lastEventAt = this.deps.lastLocalEventAt?.();
    if (lastEventAt === undefined || lastEventAt < lookedAt) return operations;
    const kept = operations.filter((op) => op.kind !== 'DELETE');
    const waiting = operations.length - kept.length;
    if (waiting > 0) this.deps.log({ level: 'info', message: `${waiting} deletion${waiting === 1 ? '' : 's'} wait: the folder changed while it was being looked at` });
    return kept;
  }

  /** Probed once the disk answers; until then names are told apart exactly, as on Linux. */
  private async names(): Promise<NameKey> {
    if (this.nameKey === undefined) {
      const folds = await foldsCase(this.deps.fs, this.root.path);
      if (folds === undefined) return exactNames;
      this.nameKey = folds ? caseFoldedNames : exactNames;
    }
    return this.nameKey;
  }

  /**
   * Reports and unfinished version uploads whose paths agree on both sides now (or are gone
   * everywhere) say nothing true any more: an edit undone before its retry, a download that landed.
   * Left, they would keep `status` from "up to date" and `--once` from converging for good.
   */
  private forgetSettled(input: Omit<ReportsInput, 'reports'>): void {
    const { deps, root } = this;
    const versions = new Set(deps.journal.all(root.id).flatMap((entry) => (entry.kind === 'VERSION' ? [entry.relPath] : [])));
    const reports = new Set([...deps.issues.notSynced(root.id).filter((row) => !isScannerReason(row.reason)).map((row) => row.rel_path), ...versions]);
    if (reports.size === 0) return;
    for (const relPath of settledReports({ ...input, reports: [...reports] })) {
      deps.issues.cleared(root.id, relPath);
      if (versions.has(relPath)) deps.journal.finish(root.id, relPath);
    }
  }

  /**
   * The conflict copies still waiting for the user (DESIGN.md §3: not uploaded until resolved). A copy
   * the user moved without renaming it (its folder renamed or moved, or the copy alone moved: the same
   * file under its conflict name) is still waiting, at its new path; simulation seed 3 uploaded it
   * once its folder was renamed. A copy that is gone (deleted, or renamed: it then syncs as a file of
   * its own, as `resolve --keep both` would have it) resolves its conflict.
   */
  private conflictCopies(local: ReadonlyMap<string, LocalEntry>, synced: ReadonlyMap<string, SyncedEntry>): Set<string> {
    this.followOriginals(synced);
    const copies = new Set<string>();
    /** Files on disk that are no synced placement, by identity (the paths a file's identity was seen at). */
    let unsynced: Map<string, string[]> | undefined;
    const seenAt = (file: { ino: number; dev: number }): string[] => {
      if (unsynced === undefined) {
        unsynced = new Map();
        // A file just moved is often still settling (`pending`), not yet in the snapshot.
        const entries = [...[...this.deps.snapshots.local(this.root.id).values()].filter((entry) => !synced.has(entry.relPath)).map((entry) => [identityOf(entry), entry.relPath] as const), ...[...this.local.pending].map(([relPath, signature]) => [identityOf(signature), relPath] as const)];
        for (const [key, relPath] of entries) unsynced.set(key, [...(unsynced.get(key) ?? []), relPath]);
      }
      return unsynced.get(identityOf(file)) ?? [];
    };
    for (const conflict of this.deps.conflicts.ofRoot(this.root.id)) {
      const atItsPath = local.has(conflict.copyPath) || this.local.unstable.has(conflict.copyPath);
      // The copy's identity at another path under its name: moved there, even while the old path is
      // still in the snapshot (its folder not yet rescanned: seed 30001, a folder renamed over a copy
      // whose old entry outlived the rename by a pass, and the copy at the new path was uploaded).
      const moved = conflict.copyFile === undefined ? undefined : seenAt(conflict.copyFile).find((relPath) => relPath !== conflict.copyPath && baseName(relPath) === baseName(conflict.copyPath));
      if (moved !== undefined) {
        this.deps.conflicts.copyMoved(conflict.id, moved);
        copies.add(moved);
        if (atItsPath) copies.add(conflict.copyPath);
      } else if (atItsPath) {
        copies.add(conflict.copyPath);
      } else if (conflict.copyFile !== undefined && [...this.local.unstable].some((relPath) => baseName(relPath) === baseName(conflict.copyPath))) {
        // A file of its conflict name the scan could not read (EACCES) may be the copy, moved with its
        // folder: it waits until the scan can tell (seed 50175: resolved, and uploaded once readable).
        continue;
      } else if (conflict.copyFile !== undefined && !this.local.sawWholeRoot) {
        // Only some paths were looked at (watcher hints): the copy may be in a folder whose event was
        // lost. It waits for a whole-root scan, which finds it or not.
        continue;
      } else {
        this.deps.conflicts.resolved(conflict.id);
      }
    }
    return copies;
  }

  /**
   * A conflict whose original is no longer synced at its path, while its asset is synced at one other
   * path, names that path (the moves' own transactions do so; this catches a move recorded another way,
   * such as one a crash rolled back and the next pass found already done: seed 30197).
   */
  private followOriginals(synced: ReadonlyMap<string, SyncedEntry>): void {
    /** Each asset's synced paths: built once, and only when a conflict's original left its path. */
    let pathsOf: Map<string, string[]> | undefined;
    for (const conflict of this.deps.conflicts.ofRoot(this.root.id)) {
      if (synced.get(conflict.relPath)?.assetId === conflict.assetId) continue;
      if (pathsOf === undefined) {
        pathsOf = new Map();
        for (const entry of synced.values()) pathsOf.set(entry.assetId, [...(pathsOf.get(entry.assetId) ?? []), entry.relPath]);
      }
      const paths = pathsOf.get(conflict.assetId) ?? [];
      const [only] = paths;
      if (only !== undefined && paths.length === 1) this.deps.conflicts.originalMoved(this.root.id, conflict.assetId, conflict.relPath, only);
    }
  }

  /**
   * Lets go of the files that outlived a binned asset (0008-successors.ts) once their path syncs an
   * asset again (their upload's, or one that came down there) or their file is gone. Kept, a new file
   * the user later wrote at that path went up under the binned asset's name.
   */
  private dropSuccessors(local: ReadonlyMap<string, LocalEntry>, synced: ReadonlyMap<string, SyncedEntry>): void {
    const { successors } = this.deps;
    for (const relPath of successors.outlived(this.root.id).keys()) {
      const present = local.has(relPath) || this.local.unstable.has(relPath) || this.local.pending.has(relPath);
      if (synced.has(relPath) || !present) successors.drop(this.root.id, relPath);
    }
  }

  /** `names`: each asset's name on the service as this pass's listing knows it (`VersionItem.serviceName`). */
  private async execute(operations: readonly Operation[], report: PassReport, names: ReadonlyMap<string, string>): Promise<void> {
    const { deps, root } = this;
    const synced = deps.snapshots.synced(root.id);
    const fresh: LocalEntry[] = [];
    const versions: VersionItem[] = [];
    // A move of this pass that renames its asset makes the listing's name an old one.
    const renamed = new Set(operations.flatMap((op) => (op.kind === 'MOVE' && baseName(op.from) !== baseName(op.to) ? [op.assetId] : [])));
    const serviceName = (assetId: string): string | undefined => (renamed.has(assetId) ? undefined : names.get(assetId));
    const remoteChanges: RemoteChangeOp[] = [];
    const touched = new Set<string>();
    /** Folders a file left: emptied ones go on the service too. */
    const left = new Set<string>();
    const carried = await this.renameFolders(operations, synced, report);
    const ownMoves = await this.ownMoves(operations);
    for (const op of operations) {
      if (isRemoteChange(op)) {
        remoteChanges.push(op);
        continue;
      }
      if (op.kind === 'UPLOAD_VERSION' || (op.kind === 'MOVE' && (op.withFolder !== true || ownMoves.has(op))) || op.kind === 'DELETE') touched.add(op.assetId);
      switch (op.kind) {
        case 'UPLOAD_NEW':
          fresh.push(op.local);
          break;
        case 'UPLOAD_VERSION':
          versions.push({ assetId: op.assetId, local: op.local, serviceName: serviceName(op.assetId) });
          break;
        case 'REFRESH_IDENTITY':
          deps.snapshots.putSynced(root.id, { ...op.local, assetId: op.assetId });
          break;
        case 'MOVE': {
          const folder = carried.get(op);
          if (folder === 'WAIT') break;
          const found = synced.get(op.from);
          // Only the row follows its folder (`withFolder`): the service's rename of the folder, when it is
          // one, took the removed asset along; nothing is asked of the asset itself.
          if (op.withFolder === true && !ownMoves.has(op)) {
            if (found !== undefined) deps.placements.carried(root, op, found);
            break;
          }
          const restore = op.restore === true || op.withFolder === true;
          const restored = restore && found !== undefined ? await this.restored(op, found, report) : undefined;
          if (restored === null) break;
          // A restored asset's row may have taken the binned bytes (placement-executor.ts `restore`).
          const previous = restored?.synced ?? found;
          /** The file's bytes are owed to a restored asset holding others, as a version after the move. */
          const owed = restored !== undefined && op.local.md5 !== restored.synced.md5;
          // The restore read the asset's name, which the version keeps; a rename of this move makes it
          // an old one, and the version asks again.
          const named = { assetId: op.assetId, local: op.local, serviceName: renamed.has(op.assetId) ? undefined : restored?.filename };
          if (previous !== undefined && folder === 'CARRIED') {
            deps.placements.carried(root, op, previous);
            report.moved++;
            deps.issues.cleared(root.id, op.to);
            if (owed) versions.push(named);
            break;
          }
          if (previous !== undefined && (await this.attempt(op.to, report, 'moved', () => deps.placements.move(root, op, previous, restored?.filed, restored?.filename ?? names.get(op.assetId)))) && owed) versions.push(named);
          left.add(relDirOf(op.from));
          break;
        }
        case 'DELETE':
          await this.attempt(op.relPath, report, 'removed', () => deps.placements.remove(root, op));
          left.add(relDirOf(op.relPath));
          break;
      }
    }
    if (left.size > 0) await this.removeEmptied(left);
    const planned = plannedTransfers([...versions.map(({ local }) => local), ...fresh], remoteChanges, this.local.pending.values());
    if (planned.send.files + planned.receive.files > 0) deps.planned?.(planned);
    // Versions after moves (a moved-and-edited file's version goes to its new path).
    this.record(report, await deps.uploads.uploadVersions(root, versions), 'versions');
    const created = await deps.uploads.uploadNew(root, fresh);
    this.record(report, created, 'uploaded');
    // What we changed on the service is known before the next plan (our own news is not news): from
    // the completion's answer when it is the asset's latest state, else read back.
    const answered: Asset[] = [];
    for (const outcome of created) {
      if (!outcome.result.ok) continue;
      if (outcome.result.asset === undefined) touched.add(outcome.result.synced.assetId);
      else answered.push(outcome.result.asset);
    }
    deps.remote.feed.touched(touched);
    await this.learned(answered, report);
    if (remoteChanges.length === 0) return;
    const counters = await executeRemoteChanges(root, remoteChanges, {
      ...deps.remoteChanges,
      failed: (relPath, error) => this.failed(relPath, error, report, false),
      cleared: (relPath) => deps.issues.cleared(root.id, relPath),
    });
    report.downloaded += counters.downloaded;
    report.bytesReceived += counters.bytesReceived;
    report.localMoved += counters.localMoved;
    report.trashed += counters.trashed;
    report.conflicts += counters.conflicts;
    report.failed += counters.failed;
  }

  /**
   * The plan's `withFolder` moves that were the file's own after all: its old folder is still on disk
   * and no other file of the plan moved from it to the same place, so it was moved out of a folder it
   * was alone in (`B/x.txt` → `D/x.txt`). Such a move beats the service's removal, bringing the asset
   * back, as any move of the file's own does. A folder by the old name with files moved along is a new
   * one made after the rename (seed 108329).
   */
  private async ownMoves(operations: readonly Operation[]): Promise<Set<Operation>> {
    const own = new Set<Operation>();
    const pairOf = (op: Operation): { from: string; to: string; key: string } | undefined => {
      const pair = op.kind === 'MOVE' ? folderPair(op.from, op.to) : undefined;
      return pair === undefined ? undefined : { ...pair, key: `${pair.from}\n${pair.to}` };
    };
    /** How many of the plan's moves go from each folder to the same place in another. */
    const movesPer = new Map<string, number>();
    for (const op of operations) {
      const pair = pairOf(op);
      if (pair !== undefined) movesPer.set(pair.key, (movesPer.get(pair.key) ?? 0) + 1);
    }
    for (const op of operations) {
      if (op.kind !== 'MOVE' || op.withFolder !== true) continue;
      const pair = pairOf(op);
      if (pair === undefined || (movesPer.get(pair.key) === 1 && (await namedOnDisk(this.deps.fs, this.root.path, pair.from)))) own.add(op);
    }
    return own;
  }

  /**
   * Local folder renames done as one option change each (folder-renames.ts): answers the moves they
   * carried. Only a folder whose old name is gone from disk under exactly that spelling (`A` → `a` on
   * a disk that keeps case leaves no `A`). When the service cannot be reached the moves wait for the
   * next pass (`WAIT`): done file by file they would make the second option the rename avoids.
   */
  private async renameFolders(operations: readonly Operation[], synced: ReadonlyMap<string, SyncedEntry>, report: PassReport): Promise<Map<Operation, 'CARRIED' | 'WAIT'>> {
    const { deps, root } = this;
    const carried = new Map<Operation, 'CARRIED' | 'WAIT'>();
    const moves = operations.flatMap((op) => (op.kind === 'MOVE' && synced.has(op.from) ? [op] : []));
    for (const rename of folderRenames(moves, synced.keys())) {
      if (await namedOnDisk(deps.fs, root.path, rename.from)) continue;
      try {
        if (!(await deps.placements.renameFolder(root, rename))) continue;
      } catch (error) {
        this.failed(rename.to, error, report);
        for (const move of rename.moves) carried.set(move, 'WAIT');
        continue;
      }
      deps.remote.feed.folderRenamed(rename.from, rename.to);
      deps.log({ level: 'info', message: `folder renamed on the service: ${rename.from} → ${rename.to}`, relPath: rename.to });
      for (const move of rename.moves) carried.set(move, 'CARRIED');
    }
    return carried;
  }

  /** Deletes the options of folders emptied and gone from disk (placement-executor.ts); a failure waits for the next emptying. */
  private async removeEmptied(dirs: ReadonlySet<string>): Promise<void> {
    const { deps, root } = this;
    const paths = [...deps.snapshots.local(root.id).keys(), ...deps.snapshots.synced(root.id).keys(), ...this.local.unstable, ...this.local.pending.keys()];
    const kept = async (relDir: string): Promise<boolean> => paths.some((path) => path.startsWith(`${relDir}/`)) || (await namedOnDisk(deps.fs, root.path, relDir));
    try {
      for (const relDir of await deps.placements.removeEmptied(root, dirs, kept)) deps.log({ level: 'info', message: `folder removed on the service: ${relDir} (emptied here)`, relPath: relDir });
    } catch (error) {
      deps.log({ level: 'warn', message: `an emptied folder stays on the service: ${error instanceof Error ? error.message : String(error)}` });
    }
  }

  private async learned(assets: readonly Asset[], report: PassReport): Promise<void> {
    try {
      await this.deps.remote.feed.learned(assets);
    } catch (error) {
      // Not fatal: read back like any other change of ours on the next pass.
      this.deps.remote.feed.touched(assets.map((asset) => asset.id));
      report.remoteError ??= error instanceof Error ? error.message : 'unexpected failure';
    }
  }

  /**
   * A moved file's binned asset brought back before its move (placement-executor.ts): the options it
   * is filed in, which the move leaves, and its synced row as it now stands (at the bytes the asset
   * holds: when the file's differ, they go up as a version after the move). Null when the move is off
   * this pass — the asset cannot come back (forgotten: the file uploads as new next pass), the listing
   * is behind on it (the read-back of a touched asset decides next pass), or the service could not be
   * reached (the move waits).
   */
  private async restored(op: Extract<Operation, { kind: 'MOVE' }>, previous: SyncedEntry, report: PassReport): Promise<{ filed: string[]; synced: SyncedEntry; filename: string | undefined } | null> {
    const { deps, root } = this;
    let verdict;
    try {
      verdict = await deps.placements.restore(root, op, previous);
    } catch (error) {
      this.failed(op.to, error, report);
      return null;
    }
    if (verdict === 'GONE') deps.snapshots.deleteSynced(root.id, op.from);
    return verdict === 'GONE' || verdict === 'WAIT' ? null : { filed: verdict.filed, synced: verdict.synced, filename: verdict.filename };
  }

  /** Runs one placement change; false when it failed (reported, retried on a later pass) or answered false (nothing done: it waits). */
  private async attempt(relPath: string, report: PassReport, counter: 'moved' | 'removed', task: () => Promise<unknown>): Promise<boolean> {
    try {
      // `false`: nothing done and nothing failed this pass (a move that waits for the asset's read-back).
      if ((await task()) === false) return false;
      report[counter]++;
      this.deps.issues.cleared(this.root.id, relPath);
      return true;
    } catch (error) {
      this.failed(relPath, error, report);
      return false;
    }
  }

  private record(report: PassReport, outcomes: readonly UploadOutcome[], counter: 'uploaded' | 'versions'): void {
    for (const outcome of outcomes) {
      if (outcome.result.ok) {
        report[counter]++;
        report.bytesSent += outcome.result.bytesSent;
      } else {
        this.failed(outcome.relPath, outcome.result.error, report);
      }
    }
  }

  private failed(relPath: string, error: unknown, report: PassReport, count = true): void {
    const attempts = this.deps.issues.notSyncedEntry(this.root.id, relPath)?.attempts ?? 0;
    const verdict = classifyFailure(error, attempts);
    this.deps.issues.failed(this.root.id, relPath, verdict.reason, verdict.detail, this.deps.now() + verdict.retryInMs);
    this.deps.log({ level: 'warn', message: `${verdict.reason}: ${verdict.detail}`, relPath });
    if (count) report.failed++;
  }
}

/**
 * Whether the directory is on disk under exactly this name: on a disk that ignores case, `A` also
 * finds `a`, which is no reason to keep the option `A` (its files moved to `a`'s).
 */
async function namedOnDisk(fs: FileSystem, rootPath: string, relDir: string): Promise<boolean> {
  const parent = relDirOf(relDir);
  try {
    const entries = await fs.readdir(parent === '' ? rootPath : `${rootPath}/${parent}`);
    return entries.some((entry) => entry.name.normalize('NFC') === baseName(relDir) && entry.kind === 'directory');
  } catch (error) {
    // Its parent gone too: so is it. Unreadable: as good as there, nothing is removed for it.
    return errnoCode(error) !== 'ENOENT';
  }
}

function baseName(relPath: string): string {
  return relPath.slice(relPath.lastIndexOf('/') + 1);
}
