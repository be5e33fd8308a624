/**
 * Keeps one root's local snapshot up to date (DESIGN.md §3 "local" snapshot): a full scan first (and
 * again when the watcher says everything, or the ignore file, changed), then only the paths the
 * watcher hinted and the ones the stability gate wants to see again. Files still being written and
 * files present but unreadable are `unstable`: never new, never deleted. Scanner reports (symlinks,
 * unreadable files, bad names) become "not synced" issues and are dropped once the path is gone.
 *
 * A new file at a path with nothing synced is recorded unread (md5 null), whatever its size: it is
 * opened and checked, not read, since all the engine can do with it is upload it, and the upload's
 * completion gives its MD5. `read` hashes the ones a decision turns out to need (content-needed.ts).
 */
import { loadIgnoreRules, nfc, sameSignature, type FileSignature, type FileSystem, type IgnoreRules, type LocalObservation, type LocalScanner, type StabilityGate } from '../local/index.js';
import { outermostPaths } from '../local/rel-path.js';
import type { IssuesRepo } from '../db/issues-repo.js';
import type { SnapshotsRepo } from '../db/snapshots-repo.js';
import { isScannerReason } from '../model/not-synced-reason.js';
export { isScannerReason } from '../model/not-synced-reason.js';
import type { FolderRoot } from '../remote/folder-mapper.js';
import { folderRows, pathRows, type ScanRows } from './scan-rows.js';
import type { LocalEntry, PendingSignature } from './sync-types.js';

export interface LocalRefreshDeps {
  fs: FileSystem;
  scanner: LocalScanner;
  gate: StabilityGate;
  snapshots: SnapshotsRepo;
  issues: IssuesRepo;
  now(): number;
  /**
   * A whole-root scan at least this often (ms; undefined: only when asked). Watcher events are hints:
   * an OS drops them when its queue overflows, a network share sends none, a watch can fail to be set
   * up; the periodic scan is what finds the change an event never announced (DESIGN.md §3).
   */
  rescanIntervalMs?: number;
}

/**
 * Snapshot and issue writes of a scan are committed this many at a time: one SQLite commit per file
 * was 50 µs a file (seconds for a first scan of 100,000 files), and the writes of one scan touch
 * different paths, so nothing reads them before the batch lands except through the same connection.
 */
const WRITES_PER_COMMIT = 512;

/** How a refresh takes in what its scan reports (`observe`). */
interface Look {
  /** Every path reported, whatever the observation. */
  seen: (relPath: string) => void;
  /** Paths below which the scan could not see (subtree unknown): nothing there is gone. */
  unknown: string[];
  /** The path's row as the scan began (scan-rows.ts): an unchanged file is not written again. */
  previous?: (relPath: string) => LocalEntry | undefined;
  /**
   * Whether the path had a report as the scan began (any reason, a superset of the scanner's); without
   * it, each file's report is looked up and every file is written.
   */
  scannerReported?: (relPath: string) => boolean;
}

function sameRow(row: LocalEntry | undefined, entry: LocalEntry): boolean {
  return row !== undefined && row.size === entry.size && row.mtimeMs === entry.mtimeMs && row.ino === entry.ino && row.dev === entry.dev && row.md5 === entry.md5;
}

export class LocalRefresh {
  private ignoreRules: IgnoreRules | undefined;
  private writes: (() => void)[] = [];
  private fullScanNeeded = true;
  private lastFullScanAt = 0;
  private readonly hints = new Set<string>();
  /** Paths present but not hashable now: still being written, or not readable. Never deletions. */
  readonly unstable = new Set<string>();
  /** Signatures of the files still settling (a subset of `unstable`), for rename detection. */
  readonly pending = new Map<string, PendingSignature>();
  /** Whether the last refresh scanned the whole root: only then is a file missing from the snapshot known to be nowhere. */
  sawWholeRoot = false;
  /** Hinted paths must be spelled as on disk (a disk that ignores case: local-scanner.ts `exactNames`). */
  exactNames = false;

  constructor(
    private readonly root: FolderRoot & { path: string },
    private readonly deps: LocalRefreshDeps,
  ) {}

  /** Paths a watcher says may have changed ('' = everything). */
  hint(relPaths: readonly string[]): void {
    for (const relPath of relPaths) {
      if (relPath === '' || relPath === '.assetsyncignore') this.fullScanNeeded = true;
      this.hints.add(relPath);
    }
  }

  /** The root's ignore rules (read on first use, again with every full scan). */
  async rules(): Promise<IgnoreRules> {
    this.ignoreRules ??= await loadIgnoreRules(this.deps.fs, this.root.path);
    return this.ignoreRules;
  }

  /** When the periodic whole-root scan is next due (epoch ms), if there is one. */
  nextFullScanAt(): number | undefined {
    const interval = this.deps.rescanIntervalMs;
    return interval === undefined ? undefined : this.lastFullScanAt + interval;
  }

  /** Scans what needs scanning and folds the observations into the local snapshot; true when it scanned. */
  async refresh(): Promise<boolean> {
    const { deps, root } = this;
    const rules = await this.rules();
    const options = (rows: ScanRows) => ({
      rules,
      previous: rows.previous,
      isSettled: deps.gate.isSettled,
      // Small files too (there was a 1 MiB floor): hashing one at scan time reads it twice, once more
      // for its PUT; its scan took 85 µs of CPU hashed, 55 µs checked (4 KiB files). The price: where
      // the service already has a file at the path (a folder synced again with a fresh state), it is
      // opened twice, checked here and read before the plan (content-needed.ts).
      mayLeaveUnread: (relPath: string) => !rows.hasSynced(relPath),
      exactNames: this.exactNames,
    });
    if (this.fullScanNeeded || (this.nextFullScanAt() ?? Infinity) <= deps.now()) {
      this.fullScanNeeded = false;
      this.sawWholeRoot = true;
      this.lastFullScanAt = deps.now();
      this.hints.clear();
      const fresh = await loadIgnoreRules(deps.fs, root.path);
      this.ignoreRules = fresh;
      const unknown: string[] = [];
      this.unstable.clear();
      this.pending.clear();
      const rows = folderRows(deps.snapshots, root.id);
      // Every path reported counts as seen; the paths with a report are few, and kept apart.
      const reported = new Set(deps.issues.notSynced(root.id).map((issue) => issue.rel_path));
      const reportSeen = new Set<string>();
      const look: Look = {
        seen: (relPath) => {
          rows.seen(relPath);
          if (reported.has(relPath)) reportSeen.add(relPath);
        },
        unknown,
        // Never a folder read again for this: a file is reported after its folder was let go only
        // once hashed or checked, and then its row differs anyway.
        previous: rows.held,
        scannerReported: (relPath) => reported.has(relPath),
      };
      await this.committing(() => deps.scanner.scan(root.path, (observation) => this.observe(observation, look), { ...options(rows), rules: fresh }));
      const covered = (relPath: string): boolean => unknown.some((prefix) => relPath === prefix || relPath.startsWith(`${prefix}/`));
      const gone = rows.unseen().filter((relPath) => !covered(relPath));
      if (gone.length > 0) deps.snapshots.inTransaction(() => gone.forEach((relPath) => deps.snapshots.deleteLocal(root.id, relPath)));
      // A report this scan wrote is of a path it saw; only those it began with can be of gone paths.
      this.forgetIssues((relPath) => reported.has(relPath) && !reportSeen.has(relPath) && !covered(relPath));
      return true;
    }
    const paths = new Set([...this.hints, ...deps.gate.due()]);
    this.hints.clear();
    if (paths.size > 0) this.sawWholeRoot = false;
    // What the scanner could not sync is looked at again on every pass, hinted or not: a permission
    // fixed, a symlink replaced by its file, a name corrected. No watcher reports a chmod on every
    // platform, and a report that outlives its cause keeps `--once` from ever converging.
    const reports = this.scannerReports();
    if (paths.size === 0 && reports.size === 0) return false;
    const before = [...reports].join('\n');
    const seen = new Set<string>();
    const unknown: string[] = [];
    const rescanned = [...paths, ...reports.keys()];
    const rows = pathRows(deps.snapshots, root.id, rescanned);
    const look: Look = { seen: (relPath) => seen.add(relPath), unknown, previous: rows.previous };
    await this.committing(() => deps.scanner.rescan(root.path, rescanned, (observation) => this.observe(observation, look), options(rows)));
    this.forgetUnseenBelow(rescanned, seen, unknown);
    // A report found as it was is no news: the root may go on resting (plan-rest.ts).
    return paths.size > 0 || [...this.scannerReports()].join('\n') !== before;
  }

  /**
   * A rescan walks each hinted folder whole but names only what it finds there: a file recorded below
   * a rescanned path and not seen is gone, as after a full scan (local-scanner.ts). Kept, it would
   * hide the move of a folder whose name came back at once (`A` renamed to `D`, a new `A` made; the
   * watcher's `A` finds a folder): the files at `D` would look new beside the stale ones at `A`, and go
   * up as second assets (local-refresh.test.ts).
   *
   * So is a path held `unstable` (settling, or unreadable when last looked at) below one: it is no file
   * there any more. Kept, it would keep its synced file from counting as gone, so that file, moved with
   * its folder (`A/C` renamed `A2`, a new `A/C` made), would not be matched at its new path and go up as
   * a second asset, even when the path's UNREADABLE report (which has it looked at again) went with a
   * crash's landing record (local-refresh.test.ts).
   */
  private forgetUnseenBelow(rescanned: readonly string[], seen: ReadonlySet<string>, unknown: readonly string[]): void {
    const { deps, root } = this;
    const covered = (relPath: string): boolean => unknown.some((prefix) => relPath === prefix || relPath.startsWith(`${prefix}/`));
    const dirs = outermostPaths(rescanned.map(nfc)).filter((relDir) => relDir !== '');
    const unseen = (relPath: string): boolean => !seen.has(relPath) && !covered(nfc(relPath));
    for (const relPath of [...this.unstable]) {
      if (unseen(relPath) && dirs.some((relDir) => nfc(relPath).startsWith(`${relDir}/`))) {
        this.unstable.delete(relPath);
        this.pending.delete(relPath);
      }
    }
    const gone = deps.snapshots.localBelowAny(root.id, dirs).filter(unseen);
    if (gone.length === 0) return;
    deps.snapshots.inTransaction(() => gone.forEach((relPath) => deps.snapshots.deleteLocal(root.id, relPath)));
    const forgotten = new Set(gone);
    this.forgetIssues((relPath) => forgotten.has(relPath));
  }

  /** The scanner's "not synced" reports of this root: path → reason and detail. */
  private scannerReports(): Map<string, string> {
    const reports = this.deps.issues.notSynced(this.root.id).filter((issue) => isScannerReason(issue.reason));
    return new Map(reports.map((issue) => [issue.rel_path, `${issue.reason}: ${issue.detail}`]));
  }

  /**
   * Hashes unread files whose content a decision needs. A file that changed since it was recorded, or
   * went, is reported as the scanner finds it now (pending, gone…), like any rescan.
   */
  async read(relPaths: Iterable<string>): Promise<void> {
    const { deps, root } = this;
    const previous = (relPath: string): LocalEntry | undefined => deps.snapshots.localEntry(root.id, relPath);
    // A file still as recorded has settled already (the gate forgets what it let through); one that
    // changed since starts settling again like any other.
    const isSettled = (relPath: string, signature: FileSignature): boolean => {
      const known = previous(relPath);
      return (known !== undefined && sameSignature(known, signature)) || deps.gate.isSettled(relPath, signature);
    };
    const options = { rules: await this.rules(), previous, isSettled };
    await this.committing(() => deps.scanner.rescan(root.path, relPaths, (observation) => this.observe(observation, { seen: () => undefined, unknown: [] }), options));
  }

  /** Runs a scan whose observations write through `write`, and commits what is left however it ends. */
  private async committing<T>(scan: () => Promise<T>): Promise<T> {
    try {
      return await scan();
    } finally {
      this.flush();
    }
  }

  /** Queues one observation's writes; a full batch commits in one transaction. */
  private write(effect: () => void): void {
    this.writes.push(effect);
    if (this.writes.length >= WRITES_PER_COMMIT) this.flush();
  }

  private flush(): void {
    const writes = this.writes;
    this.writes = [];
    if (writes.length > 0) this.deps.snapshots.inTransaction(() => writes.forEach((effect) => effect()));
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

  private observe(observation: LocalObservation, look: Look): void {
    const { deps, root } = this;
    const relPath = observation.relPath;
    const { unknown } = look;
    look.seen(relPath);
    switch (observation.kind) {
      case 'file': {
        this.unstable.delete(relPath);
        this.pending.delete(relPath);
        // A file as its row already says, with no report to clear, writes nothing (and copies nothing):
        // an unchanged rescan of a big root is then a walk, not a write per file.
        if (look.scannerReported?.(relPath) === false && sameRow(look.previous?.(relPath), observation)) break;
        const { kind: _kind, ...entry } = observation;
        this.write(() => {
          deps.snapshots.putLocal(root.id, entry);
          const issue = deps.issues.notSyncedEntry(root.id, relPath);
          if (issue !== undefined && isScannerReason(issue.reason)) deps.issues.cleared(root.id, relPath);
        });
        break;
      }
      case 'pending':
        this.unstable.add(relPath);
        this.pending.set(relPath, { size: observation.size, mtimeMs: observation.mtimeMs, ino: observation.ino, dev: observation.dev });
        break;
      case 'directory':
        // Listed, so whatever kept the scanner out of it (a permission, a bad name) is gone.
        this.unstable.delete(relPath);
        this.write(() => {
          // A file replaced by a folder of its name: the file is gone. (Its path is "seen", so a full
          // scan would keep it, and the plan would move or keep a file that is not there.)
          if (deps.snapshots.localEntry(root.id, relPath) !== undefined) deps.snapshots.deleteLocal(root.id, relPath);
          const issue = deps.issues.notSyncedEntry(root.id, relPath);
          if (issue !== undefined && isScannerReason(issue.reason)) deps.issues.cleared(root.id, relPath);
        });
        break;
      case 'not-synced':
        // Present but not syncable: it must never look deleted. A name reported in another spelling
        // (NAME_CLASH) covers its NFC path too: it may be the file or folder synced there before.
        this.unstable.add(relPath);
        // An unreadable file is known by its signature, as a settling one is: a synced file that
        // vanished and is this one moved, never deleted (read as deleted, its asset would be binned
        // and the other client, which had moved it elsewhere, upload it again as a second asset).
        // So is a decomposed spelling's file (NAME_CLASH); reported as a namesake of another hinted
        // spelling, which is not looked at, it keeps the signature known (local-refresh.test.ts).
        if (observation.file !== undefined) this.pending.set(relPath, observation.file);
        else if (observation.reason !== 'NAME_CLASH') this.pending.delete(relPath);
        if (observation.subtreeUnknown) unknown.push(nfc(relPath));
        this.write(() => {
          // The same report again changes nothing (and writes nothing: a write would wake a resting root).
          const known = deps.issues.notSyncedEntry(root.id, relPath);
          const isFolder = observation.isFolder === true;
          if (known?.reason !== observation.reason || known.detail !== observation.detail || (known.is_folder === 1) !== isFolder) {
            deps.issues.failed(root.id, relPath, observation.reason, observation.detail, null, isFolder);
          }
        });
        break;
      case 'gone':
        this.write(() => {
          deps.snapshots.deleteLocalTree(root.id, relPath);
          this.forgetIssues((path) => path === relPath || path.startsWith(`${relPath}/`));
        });
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
