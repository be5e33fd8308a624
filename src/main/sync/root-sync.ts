/**
 * One sync root's pass (DESIGN.md §3), as an ordered list of named steps (`pass`): check the root,
 * resume interrupted uploads, bring the local snapshot up to date (local-refresh.ts), settle what a
 * crash interrupted (recover-landings.ts, resume-moves.ts), read the service's side, rest if nothing
 * changed (plan-rest.ts), look again where the look may be stale, ask the plan once (plan-pass.ts),
 * record what it decided, carry it out (execute-plan.ts), and end what it left behind. Knows the order
 * of things; it decides nothing the plan decides. A missing root or marker stops the root: never read an
 * empty mount point as "delete all".
 */
import { checkRoot, foldsCase, type FileSystem, type LocalScanner, type StabilityGate } from '../local/index.js';
import type { ConflictsRepo } from '../db/conflicts-repo.js';
import type { IssuesRepo } from '../db/issues-repo.js';
import type { SnapshotsRepo } from '../db/snapshots-repo.js';
import type { SuccessorsRepo } from '../db/successors-repo.js';
import type { UploadJournal } from '../db/upload-journal.js';
import type { PlannedTransfers } from '../../shared/sync/transfer-event.js';
import { contentNeeded } from './content-needed.js';
import { ExecutePlan } from './execute-plan.js';
import { LocalRefresh, isScannerReason } from './local-refresh.js';
import { caseFoldedNames, exactNames, type NameKey } from '../local/local-names.js';
import { emptyReport, recordUploads, type PassReport } from './pass-report.js';
import type { PlacementExecutor } from './placement-executor.js';
import { planPass, type PassLook, type PassPlan, type Planner } from './plan-pass.js';
import { recordPlan } from './record-plan.js';
import { PlanRest } from './plan-rest.js';
import { recoverLandings, type RecoverLandingsDeps } from './recover-landings.js';
import { directoriesOf } from './remote-placements.js';
import { serviceNames, type RemoteSide, type RemoteSideResult } from './remote-side.js';
import type { RemoteChangeDeps } from './execute-remote-changes.js';
import { resumeMoves, type ResumeMovesDeps } from './resume-moves.js';
import { backingOff, leftToResume, resumes } from './resumable-uploads.js';
import { staleOrigins } from './stale-origins.js';
import type { LocalEntry, SyncedEntry } from './sync-types.js';
import type { UploadExecutor, UploadOutcome, UploadRoot } from './upload-executor.js';
import { GoneWhenSeenWhole } from './vanished-files.js';

export type { PassReport } from './pass-report.js';

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
  /** The planner proper (default: plan-operations.ts `planOperations`). */
  planner?: Planner;
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
}

/** The stable local files (unstable paths left out) and the whole snapshot they come from. */
interface DiskLook {
  local: Map<string, LocalEntry>;
  snapshot: ReadonlyMap<string, LocalEntry>;
}

/** What a pass that plans knows from before its look: when it began, what waits, and the service's side. */
interface PlanDue {
  now: number;
  lookedAt: number;
  busy: ReadonlySet<string>;
  waiting: string;
  remote: RemoteSideResult;
  resumed: number;
}

export class RootSync {
  /** Journal entries the restart's resume could not finish yet (undefined until the first pass resumes). */
  private resumeLeft: Set<string> | undefined;
  private readonly local: LocalRefresh;
  private readonly rest = new PlanRest();
  private readonly gone = new GoneWhenSeenWhole();
  private readonly execution: ExecutePlan;
  /** How this root's disk tells names apart, once the disk has said (case-probe.ts). */
  private nameKey: NameKey | undefined;

  constructor(
    readonly root: UploadRoot,
    private readonly deps: RootSyncDeps,
  ) {
    this.local = new LocalRefresh(root, deps);
    this.execution = new ExecutePlan(root, deps, this.local);
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

  /**
   * One pass: the steps in order. Each `await` is the step's own I/O, kept here in the pass so that the
   * order of effects (and of the simulation's traces) is the order read here; the named steps between
   * them are synchronous. A step that finds the pass cannot go on returns the report there.
   */
  /**
   * The look of a paused root: its local snapshot brought up to date, and nothing else — the service
   * is not asked, nothing moves, no issue is raised — so what waits for the resume is counted while
   * it waits. A root that is missing, or not its marker's, is left for the pass after the resume.
   */
  async look(): Promise<PassReport> {
    const { deps, root } = this;
    const report = emptyReport(root.id);
    if ((await checkRoot(deps.fs, root.path, root.id)).status !== 'OK') return report;
    this.local.exactNames = (await this.names()) === caseFoldedNames;
    report.scanned = await this.local.refresh();
    return report;
  }

  async pass(): Promise<PassReport> {
    const { deps, root } = this;
    const report = emptyReport(root.id);
    // 1. The root and its marker are there (else the root stops).
    if (!this.rootPresent(await checkRoot(deps.fs, root.path, root.id), report)) return report;
    // 2. Interrupted uploads resumed (resumable-uploads.ts).
    const resuming = this.resuming();
    const resumed = resuming === undefined ? 0 : this.resumed(await deps.uploads.resume(root, resuming.take), resuming, report);
    // 3. The local snapshot brought up to date (local-refresh.ts). A disk that ignores case answers a
    //    hinted `A/x.txt` with the folder renamed `a`: hints are looked up as spelled on disk there.
    this.local.exactNames = (await this.names()) === caseFoldedNames;
    const lookedAt = deps.now();
    report.scanned = await this.local.refresh();
    report.settling = deps.gate.settlingCount;
    // 4. Downloads and moves a crash left renamed but unrecorded are recorded or forgotten (recover-landings.ts).
    try {
      await recoverLandings(root.id, () => ({ local: deps.snapshots.local(root.id), pending: this.local.pending, unstable: this.local.unstable }), { fs: deps.fs, ...deps.landings });
    } catch (error) {
      return this.waitsFor('settle the downloads and moves a crash interrupted', 'them', error, report);
    }
    // 5. Moves on the service cut short are finished before the service is read (resume-moves.ts).
    try {
      this.movesFinished(await resumeMoves(root, { ...deps.movesAhead, syncedAt: (rootId, relPath) => deps.snapshots.syncedEntry(rootId, relPath), placements: deps.placements }), report);
    } catch (error) {
      return this.waitsFor("finish moving a file's asset on the service", 'it', error, report);
    }
    // 6. The service's side brought up to date (remote-side.ts); folders it renamed on disk are looked at again.
    //    The folders are gathered as the paths stream by: a big root's paths are never held at once.
    const remote = await deps.remote.prepare(root, await this.local.rules(), await this.names(), directoriesOf(deps.snapshots.eachLocalPath(root.id)));
    if (this.remoteRead(remote, report)) await this.local.refresh();
    // 7. The root rests when nothing the plan reads changed since it found nothing to do (plan-rest.ts).
    const due = this.dueForPlan(report, { lookedAt, remote, resumed });
    if (due === undefined) return report;
    // 8. The look made whole: paths whose file turned up elsewhere unannounced (stale-origins.ts), the
    //    whole root when a synced file vanished from a hinted look (vanished-files.ts), and the content
    //    the plan needs (content-needed.ts).
    const synced = deps.snapshots.synced(root.id);
    let disk = this.stableLocal();
    if (this.staleOrigins(disk, synced)) {
      await this.local.refresh();
      disk = this.stableLocal();
    }
    if (this.vanished(disk, synced)) {
      await this.local.refresh();
      disk = this.stableLocal();
    }
    this.gone.looked({ local: disk.local, unstable: this.local.unstable, synced }, this.local.sawWholeRoot);
    const uploads = deps.journal.all(root.id);
    const needed = contentNeeded({ local: disk.local, synced, ...(remote.view === undefined ? {} : { remote: remote.view }) });
    /** Own uploads are judged on the disk as scanned, before the content reads (plan-pass.ts). */
    const scanned = { local: disk.local, unstable: needed.size === 0 ? this.local.unstable : new Set(this.local.unstable) };
    if (needed.size > 0) {
      await this.local.read(needed);
      disk = this.stableLocal();
    }
    // 9. The plan, asked once (plan-pass.ts), and what it decided besides its operations recorded.
    const planned = planPass(this.gather(due, { disk, scanned, synced, uploads, nameKey: await this.names() }), this.deps.planner);
    recordPlan(this.deps, root.id, planned, report);
    // 10. The plan carried out (execute-plan.ts).
    await this.execution.run(planned.operations, report, serviceNames(planned.view));
    // 11. Abandoned new-file uploads ended, after a pass that did work (plan-pass.ts `endAbandoned`):
    //     a failed or cut-off upload whose file went away, or whose path holds another asset's file.
    if (planned.endAbandoned) report.operations += (await deps.uploads.dropAbandoned(root)).length;
    // 12. The root rests from here if the plan found nothing to do.
    this.restAfter(planned, due, report);
    return report;
  }

  private rootPresent(check: Awaited<ReturnType<typeof checkRoot>>, report: PassReport): boolean {
    if (check.status !== 'OK') {
      report.stopped = `${check.status}: ${check.detail}`;
      this.deps.setStopped(report.stopped);
      return false;
    }
    this.deps.setStopped(null);
    return true;
  }

  /** What the resume takes this pass (resumable-uploads.ts); undefined when nothing is left to resume. */
  private resuming(): { take: (relPath: string) => boolean; left: ReadonlySet<string> | undefined; waiting: ReadonlySet<string> } | undefined {
    const left = this.resumeLeft;
    if (left !== undefined && left.size === 0) return undefined;
    const now = this.deps.now();
    const waiting = backingOff(this.deps.issues.notSynced(this.root.id), now);
    return { take: resumes(left, waiting), left, waiting };
  }

  /** Counts the resume's outcomes as work like any planned operation; answers how many it tried. */
  private resumed(outcomes: readonly UploadOutcome[], resuming: { left: ReadonlySet<string> | undefined; waiting: ReadonlySet<string> }, report: PassReport): number {
    this.resumeLeft = leftToResume(outcomes, resuming.left, resuming.waiting);
    report.operations += outcomes.length;
    recordUploads(this.deps, this.root.id, report, outcomes, 'uploaded');
    return outcomes.length;
  }

  /** A step that could not be done: the pass waits for it (a later pass tries again). */
  private waitsFor(what: string, it: string, error: unknown, report: PassReport): PassReport {
    report.failed++;
    this.deps.log({ level: 'warn', message: `cannot ${what}: ${messageOf(error)}; the pass waits for ${it}` });
    return report;
  }

  /** The finished moves are work like any planned move, and their assets are read back. */
  private movesFinished(moved: string[], report: PassReport): void {
    this.deps.remote.feed.touched(moved);
    report.moved += moved.length;
    report.operations += moved.length;
  }

  /** Reports a service that could not be read; answers whether folders it renamed on disk need a look. */
  private remoteRead(remote: RemoteSideResult, report: PassReport): boolean {
    if (remote.error !== undefined) {
      report.remoteError = messageOf(remote.error);
      this.deps.log({ level: 'warn', message: `could not read the service's changes: ${report.remoteError}` });
    }
    if (remote.renamed.length === 0) return false;
    this.local.hint(remote.renamed);
    return true;
  }

  /** Undefined when the root rests this pass (plan-rest.ts): nothing the plan reads changed since it found nothing to do. */
  private dueForPlan(report: PassReport, before: Pick<PlanDue, 'lookedAt' | 'remote' | 'resumed'>): PlanDue | undefined {
    const { deps, root } = this;
    const now = deps.now();
    const busy = new Set(deps.issues.notSynced(root.id).filter((row) => row.retry_at !== null && row.retry_at > now && !isScannerReason(row.reason)).map((row) => row.rel_path));
    const waiting = `${[...busy].sort().join('\n')}\n\n${[...(before.remote.view?.unknownAssets ?? [])].sort().join('\n')}`;
    const resting = this.rest.resting({ now, observed: report.scanned || before.remote.renamed.length > 0, state: deps.stateVersion?.(), waiting });
    if (resting === undefined) return { ...before, now, busy, waiting };
    report.rested = true;
    report.heldDeletes = resting.heldDeletes;
    return undefined;
  }

  /** Hints the synced paths whose file turned up elsewhere unannounced (stale-origins.ts); answers whether there are any. */
  private staleOrigins(disk: DiskLook, synced: ReadonlyMap<string, SyncedEntry>): boolean {
    const stale = staleOrigins(disk.local, synced);
    if (stale.length > 0) this.local.hint(stale);
    return stale.length > 0;
  }

  /** Hints the whole root when a synced file vanished from a hinted look (vanished-files.ts); answers whether it did. */
  private vanished(disk: DiskLook, synced: ReadonlyMap<string, SyncedEntry>): boolean {
    const whole = this.gone.needsWholeLook({ local: disk.local, unstable: this.local.unstable, synced }, this.local.sawWholeRoot);
    if (whole) this.local.hint(['']);
    return whole;
  }

  /** The plan's input: the look, and what the state database holds that the plan reads. */
  private gather(due: PlanDue, look: { disk: DiskLook; scanned: PassLook['scanned']; synced: ReadonlyMap<string, SyncedEntry>; uploads: PassLook['uploads']; nameKey: NameKey }): PassLook {
    const { deps, root } = this;
    return {
      ...look.disk,
      unstable: this.local.unstable,
      pending: this.local.pending,
      scanned: look.scanned,
      sawWholeRoot: this.local.sawWholeRoot,
      synced: look.synced,
      busy: due.busy,
      view: due.remote.view,
      lastKnown: due.remote.lastKnown,
      remoteAnswered: due.remote.error === undefined,
      uploads: look.uploads,
      conflicts: deps.conflicts.ofRoot(root.id),
      deletesConfirmed: deps.issues.deletesConfirmed(root.id),
      reports: deps.issues.notSynced(root.id).filter((row) => !isScannerReason(row.reason)).map((row) => row.rel_path),
      outlived: deps.successors.outlived(root.id).keys(),
      now: due.now,
      nameKey: look.nameKey,
      lookedAt: due.lookedAt,
      lastLocalEventAt: deps.lastLocalEventAt?.(),
      resumed: due.resumed,
    };
  }

  /**
   * A file held for its upload's record is work left: the next pass plans it, whatever else rests.
   * The state is taken after this pass's own writes (held deletions, say): only later changes wake the root.
   */
  private restAfter(planned: PassPlan, due: PlanDue, report: PassReport): void {
    report.operations += planned.heldForUpload;
    this.rest.planned({ now: due.now, state: this.deps.stateVersion?.(), waiting: due.waiting }, planned.plan.operations.length + planned.heldForUpload, planned.plan.heldDeletes.length);
  }

  private stableLocal(): DiskLook {
    const snapshot = this.deps.snapshots.local(this.root.id);
    return { local: new Map([...snapshot].filter(([relPath]) => !this.local.unstable.has(relPath))), snapshot };
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
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : 'unexpected failure';
}
