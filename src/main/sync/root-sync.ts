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
  now(): number;
  /** Stops the root with a reason (null: running). */
  setStopped(reason: string | null): void;
  log(event: { level: 'info' | 'warn'; message: string; relPath?: string }): void;
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

  /** When the stability gate next wants a look (epoch ms), if ever. */
  nextCheckAt(): number | undefined {
    return this.deps.gate.nextCheckAt();
  }

  async pass(): Promise<PassReport> {
    const { deps, root } = this;
    const report: PassReport = { rootId: root.id, scanned: false, uploaded: 0, versions: 0, moved: 0, removed: 0, failed: 0, bytesSent: 0, heldDeletes: 0, settling: 0, operations: 0 };
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

    const now = deps.now();
    const busy = new Set(deps.issues.notSynced(root.id).filter((row) => row.retry_at !== null && row.retry_at > now && !SCANNER_REASONS.has(row.reason)).map((row) => row.rel_path));
    const local = new Map([...deps.snapshots.local(root.id)].filter(([relPath]) => !this.unstable.has(relPath)));
    const plan = planOperations({ local, unstable: this.unstable, pending: this.pending, synced: deps.snapshots.synced(root.id), busy, deletesConfirmed: deps.issues.deletesConfirmed(root.id) });
    if (plan.heldDeletes.length > 0) deps.issues.holdDeletes(root.id, plan.heldDeletes);
    else deps.issues.clearHeld(root.id);
    report.heldDeletes = plan.heldDeletes.length;
    report.operations = plan.operations.length;
    await this.execute(plan.operations, report);
    return report;
  }

  private async execute(operations: readonly Operation[], report: PassReport): Promise<void> {
    const { deps, root } = this;
    const synced = deps.snapshots.synced(root.id);
    const fresh: LocalEntry[] = [];
    const versions: { assetId: string; local: LocalEntry }[] = [];
    for (const op of operations) {
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
    // Versions after moves (a moved-and-edited file's version goes to its new path).
    this.record(report, await deps.uploads.uploadVersions(root, versions), 'versions');
    this.record(report, await deps.uploads.uploadNew(root, fresh), 'uploaded');
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

  private failed(relPath: string, error: unknown, report: PassReport): void {
    const attempts = this.deps.issues.notSyncedEntry(this.root.id, relPath)?.attempts ?? 0;
    const verdict = classifyFailure(error, attempts);
    this.deps.issues.failed(this.root.id, relPath, verdict.reason, verdict.detail, this.deps.now() + verdict.retryInMs);
    this.deps.log({ level: 'warn', message: `${verdict.reason}: ${verdict.detail}`, relPath });
    report.failed++;
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
      for (const relPath of deps.snapshots.local(root.id).keys()) {
        if (!seen.has(relPath) && !unknown.some((prefix) => relPath === prefix || relPath.startsWith(`${prefix}/`))) deps.snapshots.deleteLocal(root.id, relPath);
      }
      return true;
    }
    const paths = new Set([...this.hints, ...deps.gate.due()]);
    this.hints.clear();
    if (paths.size === 0) return false;
    const seen = new Set<string>();
    await deps.scanner.rescan(root.path, paths, (observation) => this.observe(observation, seen, []), options);
    return true;
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

