/**
 * Carries out one pass's plan (DESIGN.md §3) in the plan's order: folder renames first (one option
 * change carries the moves below), then each operation on the service (moves, restores, deletions,
 * emptied folders), the versions and new files, and last the service's changes on disk
 * (execute-remote-changes.ts). Decides nothing the plan decided: it only asks the executors and
 * counts what they did. A failed file is reported "not synced" and retried on a later pass.
 */
import type { Asset } from '../../shared/api/resources.js';
import { errnoCode, type FileSystem } from '../local/index.js';
import type { IssuesRepo } from '../db/issues-repo.js';
import type { SnapshotsRepo } from '../db/snapshots-repo.js';
import { executeRemoteChanges, isRemoteChange, type RemoteChangeDeps, type RemoteChangeOp } from './execute-remote-changes.js';
import { relDirOf } from '../remote/folder-mapper.js';
import { folderPair, folderRenames } from './folder-renames.js';
import { recordFailure, recordUploads, type PassReport } from './pass-report.js';
import type { PlacementExecutor } from './placement-executor.js';
import { plannedTransfers } from './planned-transfers.js';
import type { RemoteSide } from './remote-side.js';
import type { LocalEntry, Operation, PendingSignature, SyncedEntry } from './sync-types.js';
import type { UploadExecutor, UploadOutcome, UploadRoot, VersionItem } from './upload-executor.js';
import type { PlannedTransfers } from '../../shared/sync/transfer-event.js';

export interface ExecutePlanDeps {
  fs: FileSystem;
  snapshots: SnapshotsRepo;
  issues: IssuesRepo;
  uploads: UploadExecutor;
  placements: PlacementExecutor;
  remote: RemoteSide;
  remoteChanges: Pick<RemoteChangeDeps, 'local' | 'downloads'>;
  now(): number;
  log(event: { level: 'info' | 'warn'; message: string; relPath?: string }): void;
  planned?(transfers: PlannedTransfers): void;
}

/** The files the scan could not read yet: an emptied folder that holds one stays. */
export interface UnsettledFiles {
  unstable: ReadonlySet<string>;
  pending: ReadonlyMap<string, PendingSignature>;
}

export class ExecutePlan {
  constructor(
    private readonly root: UploadRoot,
    private readonly deps: ExecutePlanDeps,
    private readonly disk: UnsettledFiles,
  ) {}

  /** `names`: each asset's name on the service as this pass's listing knows it (`VersionItem.serviceName`). */
  async run(operations: readonly Operation[], report: PassReport, names: ReadonlyMap<string, string>): Promise<void> {
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
    const planned = plannedTransfers([...versions.map(({ local }) => local), ...fresh], remoteChanges, this.disk.pending.values());
    if (planned.send.files + planned.receive.files > 0) deps.planned?.(planned);
    // Versions after moves (a moved-and-edited file's version goes to its new path).
    this.recordUploads(report, await deps.uploads.uploadVersions(root, versions), 'versions');
    const created = await deps.uploads.uploadNew(root, fresh);
    this.recordUploads(report, created, 'uploaded');
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
   * one made after the rename (plan-operations-two-way.test.ts).
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
    const paths = [...deps.snapshots.local(root.id).keys(), ...deps.snapshots.synced(root.id).keys(), ...this.disk.unstable, ...this.disk.pending.keys()];
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

  private recordUploads(report: PassReport, outcomes: readonly UploadOutcome[], counter: 'uploaded' | 'versions'): void {
    recordUploads(this.deps, this.root.id, report, outcomes, counter);
  }

  private failed(relPath: string, error: unknown, report: PassReport, count = true): void {
    recordFailure(this.deps, this.root.id, relPath, error, report, count);
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
