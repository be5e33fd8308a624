/**
 * One sync root's pass (DESIGN.md §3): check the root marker, bring the local snapshot up to date
 * (a full scan first, then only the paths the watcher hinted or the stability gate wants to see again),
 * plan, and carry out the plan. Knows the order of things; the pieces (scanner, planner, executors)
 * know how. A missing root or marker stops the root: never read an empty mount point as "delete all".
 */
import { checkRoot, loadIgnoreRules, type FileSystem, type IgnoreRules, type LocalObservation, type LocalScanner, type StabilityGate } from '../local/index.js';
import type { IssuesRepo } from '../db/issues-repo.js';
import type { SnapshotsRepo } from '../db/snapshots-repo.js';
import type { UploadJournal } from '../db/upload-journal.js';
import { classifyFailure } from './classify-failure.js';
import { planOperations } from './plan-operations.js';
import type { PlacementExecutor } from './placement-executor.js';
import type { UploadExecutor, UploadOutcome, UploadRoot } from './upload-executor.js';
import type { LocalEntry, Operation, PendingSignature } from './sync-types.js';
import type { Asset } from '../../shared/api/resources.js';
import type { ConflictsRepo } from '../db/conflicts-repo.js';
import type { RemoteSide } from './remote-side.js';
import { executeRemoteChanges, isRemoteChange, type RemoteChangeDeps, type RemoteChangeOp } from './execute-remote-changes.js';
import { plannedTransfers } from './planned-transfers.js';
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
  /** Operations tried this pass (0 means the root is at rest unless files are settling). */
  operations: number;
  /** The service's side: files downloaded (and their bytes), moved or trashed on disk, conflicts found. */
  downloaded: number;
  bytesReceived: number;
  localMoved: number;
  trashed: number;
  conflicts: number;
  /** Why the service could not be read this pass (the last complete listing served instead). */
  remoteError?: string;
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
  now(): number;
  /** Stops the root with a reason (null: running). */
  setStopped(reason: string | null): void;
  log(event: { level: 'info' | 'warn'; message: string; relPath?: string }): void;
  /** Told what the pass is about to upload and download, before the first byte (progress and ETA). */
  planned?(transfers: PlannedTransfers): void;
}

const SCANNER_REASONS = new Set(['SYMLINK', 'UNREADABLE', 'SPECIAL_FILE', 'INVALID_NAME', 'TOO_LONG', 'NAME_CLASH']);

export class RootSync {
  private rules: IgnoreRules | undefined;
  private fullScanNeeded = true;
  private resumed = false;
  private readonly hints = new Set<string>();
  /** Paths present but not hashable now: still being written, or not readable. Never deletions. */
  private readonly unstable = new Set<string>();
  /** Signatures of the files still settling (a subset of `unstable`), for rename detection. */
  private readonly pending = new Map<string, PendingSignature>();

  constructor(
    readonly root: UploadRoot,
    private readonly deps: RootSyncDeps,
  ) {}

  /** Paths a watcher says may have changed ('' = everything). */
  hint(relPaths: readonly string[]): void {
    for (const relPath of relPaths) {
      if (relPath === '' || relPath === '.assetsyncignore') this.fullScanNeeded = true;
      this.hints.add(relPath);
    }
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

    if (!this.resumed) {
      this.resumed = true;
      this.record(report, await deps.uploads.resume(root), 'uploaded');
    }
    report.scanned = await this.refreshLocal();
    report.settling = deps.gate.settlingCount;
    const remote = await deps.remote.prepare(root, this.rules ?? (await loadIgnoreRules(deps.fs, root.path)));
    if (remote.error !== undefined) {
      report.remoteError = remote.error instanceof Error ? remote.error.message : 'unexpected failure';
      deps.log({ level: 'warn', message: `could not read the service's changes: ${report.remoteError}` });
    }
    if (remote.renamed.length > 0) {
      this.hint(remote.renamed);
      await this.refreshLocal();
    }

    const now = deps.now();
    const busy = new Set(deps.issues.notSynced(root.id).filter((row) => row.retry_at !== null && row.retry_at > now && !SCANNER_REASONS.has(row.reason)).map((row) => row.rel_path));
    const local = new Map([...deps.snapshots.local(root.id)].filter(([relPath]) => !this.unstable.has(relPath)));
    const conflictCopies = this.conflictCopies(local);
    const plan = planOperations({
      local,
      unstable: this.unstable,
      pending: this.pending,
      synced: deps.snapshots.synced(root.id),
      busy,
      deletesConfirmed: deps.issues.deletesConfirmed(root.id),
      ...(remote.view === undefined ? {} : { remote: remote.view }),
      conflictCopies,
      now,
    });
    if (plan.heldDeletes.length > 0) deps.issues.holdDeletes(root.id, plan.heldDeletes.map((op) => ({ relPath: op.relPath, assetId: op.assetId, direction: op.kind === 'LOCAL_DELETE' ? 'LOCAL' : 'REMOTE' })));
    else deps.issues.clearHeld(root.id);
    report.heldDeletes = plan.heldDeletes.length;
    report.operations = plan.operations.length;
    await this.execute(plan.operations, report);
    return report;
  }

  /**
   * The conflict copies still waiting for the user. A copy that is gone (deleted, or renamed: it then
   * syncs as a new file) resolves its conflict.
   */
  private conflictCopies(local: ReadonlyMap<string, LocalEntry>): Set<string> {
    const copies = new Set<string>();
    for (const conflict of this.deps.conflicts.ofRoot(this.root.id)) {
      if (local.has(conflict.copyPath) || this.unstable.has(conflict.copyPath)) copies.add(conflict.copyPath);
      else this.deps.conflicts.resolved(conflict.id);
    }
    return copies;
  }

  private async execute(operations: readonly Operation[], report: PassReport): Promise<void> {
    const { deps, root } = this;
    const synced = deps.snapshots.synced(root.id);
    const fresh: LocalEntry[] = [];
    const versions: { assetId: string; local: LocalEntry }[] = [];
    const remoteChanges: RemoteChangeOp[] = [];
    const touched = new Set<string>();
    for (const op of operations) {
      if (isRemoteChange(op)) {
        remoteChanges.push(op);
        continue;
      }
      if (op.kind === 'UPLOAD_VERSION' || op.kind === 'MOVE' || op.kind === 'DELETE') touched.add(op.assetId);
      switch (op.kind) {
        case 'UPLOAD_NEW':
          fresh.push(op.local);
          break;
        case 'UPLOAD_VERSION':
          versions.push({ assetId: op.assetId, local: op.local });
          break;
        case 'REFRESH_IDENTITY':
          deps.snapshots.putSynced(root.id, { ...op.local, assetId: op.assetId });
          break;
        case 'MOVE': {
          const previous = synced.get(op.from);
          if (previous !== undefined) await this.attempt(op.to, report, 'moved', () => deps.placements.move(root, op, previous));
          break;
        }
        case 'DELETE':
          await this.attempt(op.relPath, report, 'removed', () => deps.placements.remove(root, op));
          break;
      }
    }
    const planned = plannedTransfers([...versions.map(({ local }) => local), ...fresh], remoteChanges);
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

  private async learned(assets: readonly Asset[], report: PassReport): Promise<void> {
    try {
      await this.deps.remote.feed.learned(assets);
    } catch (error) {
      // Not fatal: read back like any other change of ours on the next pass.
      this.deps.remote.feed.touched(assets.map((asset) => asset.id));
      report.remoteError ??= error instanceof Error ? error.message : 'unexpected failure';
    }
  }

  private async attempt(relPath: string, report: PassReport, counter: 'moved' | 'removed', task: () => Promise<unknown>): Promise<void> {
    try {
      await task();
      report[counter]++;
      this.deps.issues.cleared(this.root.id, relPath);
    } catch (error) {
      this.failed(relPath, error, report);
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

  /** Scans what needs scanning and folds the observations into the local snapshot. */
  private async refreshLocal(): Promise<boolean> {
    const { deps, root } = this;
    this.rules ??= await loadIgnoreRules(deps.fs, root.path);
    const options = {
      rules: this.rules,
      previous: (relPath: string) => deps.snapshots.localEntry(root.id, relPath),
      isSettled: deps.gate.isSettled,
    };
    if (this.fullScanNeeded) {
      this.fullScanNeeded = false;
      this.hints.clear();
      this.rules = await loadIgnoreRules(deps.fs, root.path);
      const seen = new Set<string>();
      const unknown: string[] = [];
      this.unstable.clear();
      this.pending.clear();
      await deps.scanner.scan(root.path, (observation) => this.observe(observation, seen, unknown), { ...options, rules: this.rules });
      const known = (relPath: string): boolean => seen.has(relPath) || unknown.some((prefix) => relPath === prefix || relPath.startsWith(`${prefix}/`));
      for (const relPath of deps.snapshots.local(root.id).keys()) {
        if (!known(relPath)) deps.snapshots.deleteLocal(root.id, relPath);
      }
      this.forgetIssues((relPath) => !known(relPath));
      return true;
    }
    const paths = new Set([...this.hints, ...deps.gate.due()]);
    this.hints.clear();
    if (paths.size === 0) return false;
    const seen = new Set<string>();
    await deps.scanner.rescan(root.path, paths, (observation) => this.observe(observation, seen, []), options);
    return true;
  }

  /**
   * Drops the "not synced" reports of paths that are no longer there (a removed symlink, a file that
   * failed to upload and was then deleted): nothing is left to sync, and a stale report would keep
   * `--once` from ever converging. A synced path keeps its report: its deletion is still to be done.
   */
  private forgetIssues(gone: (relPath: string) => boolean): void {
    const { deps, root } = this;
    for (const issue of deps.issues.notSynced(root.id)) {
      if (gone(issue.rel_path) && deps.snapshots.syncedEntry(root.id, issue.rel_path) === undefined) deps.issues.cleared(root.id, issue.rel_path);
    }
  }

  private observe(observation: LocalObservation, seen: Set<string>, unknown: string[]): void {
    const { deps, root } = this;
    const relPath = observation.relPath;
    seen.add(relPath);
    switch (observation.kind) {
      case 'file': {
        this.unstable.delete(relPath);
        this.pending.delete(relPath);
        const { kind: _kind, ...entry } = observation;
        deps.snapshots.putLocal(root.id, entry);
        const issue = deps.issues.notSyncedEntry(root.id, relPath);
        if (issue !== undefined && SCANNER_REASONS.has(issue.reason)) deps.issues.cleared(root.id, relPath);
        break;
      }
      case 'pending':
        this.unstable.add(relPath);
        this.pending.set(relPath, { size: observation.size, mtimeMs: observation.mtimeMs, ino: observation.ino, dev: observation.dev });
        break;
      case 'directory':
        break;
      case 'not-synced':
        // Present but not syncable: it must never look deleted.
        this.unstable.add(relPath);
        if (observation.subtreeUnknown) unknown.push(relPath);
        deps.issues.failed(root.id, relPath, observation.reason, observation.detail, null);
        break;
      case 'gone':
        deps.snapshots.deleteLocalTree(root.id, relPath);
        this.forgetIssues((path) => path === relPath || path.startsWith(`${relPath}/`));
        for (const path of [...this.unstable]) {
          if (path === relPath || path.startsWith(`${relPath}/`)) {
            this.unstable.delete(path);
            this.pending.delete(path);
          }
        }
        break;
    }
  }
}

