/**
 * Carries out what the service's changes mean on disk, apart from downloads (DESIGN.md §3): a remote
 * move or rename is the same rename here (never a re-download); a remote removal sends the unchanged
 * local file to the trash; a conflict moves our version aside as a conflict copy (recorded before the
 * rename) so the service's version can take the name; adoption and forgetting only touch the synced
 * snapshot.
 *
 * Must never: act on a file that changed since the plan (the next pass judges it again); delete
 * anything other than by the injected trash; write outside the root; overwrite an existing file.
 */
import { dirname } from 'node:path';
import type { ConflictInput } from '../db/conflicts-repo.js';
import type { LandingJournal } from '../db/landing-journal.js';
import { errnoCode, LocalError, resolveInsideRoot, sameSignature, type FileStat, type FileSystem, type LocalDisk, type Trash } from '../local/index.js';
import { removeEmptyTree } from '../local/remove-empty-tree.js';
import { caseFoldedNames } from '../local/local-names.js';
import { locateFile } from './locate-file.js';
import { SyncError } from '../model/sync-error.js';
import type { LocalEntry, Operation, SyncedEntry } from './sync-types.js';
import type { UploadRoot } from './upload-common.js';

type Op<K extends Operation['kind']> = Extract<Operation, { kind: K }>;

export interface LocalChangeDeps {
  fs: FileSystem;
  /** Removes a folder only when it is empty (a move's target holding only empty folders gives way). */
  disk: Pick<LocalDisk, 'removeEmptyDir'>;
  trash: Trash;
  nowIso(): string;
  /**
   * A file moved on disk: local `from` → `local`, synced `syncedFrom` → `synced`, and its landing
   * (`landings`) finished, in one transaction.
   */
  moved(rootId: string, from: string, local: LocalEntry, syncedFrom: string, synced: SyncedEntry): void;
  /** The download journal, which holds a move from before its rename until its record (recover-landings.ts). */
  landings: Pick<LandingJournal, 'landing' | 'finish'>;
  /** A file left the disk and the synced snapshot, in one transaction. */
  removed(rootId: string, relPath: string): void;
  /** Records a conflict (before its copy exists); returns its id. */
  addConflict(rootId: string, conflict: ConflictInput): number;
  dropConflict(id: number): void;
  /** The local file moved aside to the copy (the synced entry at relPath stays until the download). */
  copied(rootId: string, relPath: string, copy: LocalEntry): void;
  putSynced(rootId: string, entry: SyncedEntry): void;
  deleteSynced(rootId: string, relPath: string): void;
  /** The file at `relPath` outlives its binned asset `assetId` (db/migrations/0008-successors.ts). */
  outlives(rootId: string, relPath: string, assetId: string): void;
  /** Runs the work in one state-database transaction: all of it is recorded, or none. */
  atomically(work: () => void): void;
  /** These paths changed under the engine's hands: the stability gate may forget them. */
  landed(rootId: string, relPath: string): void;
}

export class LocalChangeExecutor {
  constructor(private readonly deps: LocalChangeDeps) {}

  async move(root: UploadRoot, op: Op<'LOCAL_MOVE'>): Promise<void> {
    const { fs } = this.deps;
    const from = await this.expectFile(root, op.from, op.local);
    const to = await this.free(root, op.to, { from: op.from, file: op.local });
    await fs.mkdirp(dirname(to));
    // Written ahead, as a download's landing is: a crash after the rename leaves this to say the file
    // moved (recover-landings.ts). Lost, the synced row would stay at the old path and the file at the
    // new one, numbered apart from a namesake and edited since, would go up as a second asset under
    // that number, while a new file at the old path took the asset's place.
    this.deps.landings.landing(root.id, { local: { ...op.local, relPath: op.to }, assetId: op.assetId, tempPath: from, moved: { from: op.syncedPath, md5: op.md5 } });
    try {
      await fs.rename(from, to);
    } catch (error) {
      this.deps.landings.finish(root.id, op.to);
      throw error;
    }
    const stat = await fs.lstat(to);
    const local: LocalEntry = { relPath: op.to, size: stat.size, mtimeMs: stat.mtimeMs, ino: stat.ino, dev: stat.dev, md5: op.local.md5 };
    this.deps.moved(root.id, op.from, local, op.syncedPath, { ...local, md5: op.md5, assetId: op.assetId });
    this.deps.landed(root.id, op.from);
    this.deps.landed(root.id, op.to);
  }

  async remove(root: UploadRoot, op: Op<'LOCAL_DELETE'>): Promise<void> {
    const path = await this.expectFile(root, op.relPath, op.local);
    await this.deps.trash(path);
    this.deps.removed(root.id, op.relPath);
    this.deps.landed(root.id, op.relPath);
  }

  /** Moves our version aside; the caller then downloads the service's version to op.relPath. */
  async setAside(root: UploadRoot, op: Op<'CONFLICT'>): Promise<number> {
    const { fs } = this.deps;
    const from = await this.expectFile(root, op.relPath, op.local);
    const to = await this.free(root, op.copyPath);
    const id = this.deps.addConflict(root.id, {
      relPath: op.relPath,
      copyPath: op.copyPath,
      assetId: op.assetId,
      local: { md5: op.local.md5, size: op.local.size, mtimeMs: op.local.mtimeMs },
      remote: { md5: op.remote.md5, size: op.remote.size, fileId: op.remote.fileId, dateModified: op.remote.dateModified },
      dateCreated: this.deps.nowIso(),
      // The rename below keeps the file's identity: the conflict can follow its copy if the user moves it.
      copyFile: { ino: op.local.ino, dev: op.local.dev },
    });
    try {
      await fs.rename(from, to);
    } catch (error) {
      this.deps.dropConflict(id);
      throw error;
    }
    const stat = await fs.lstat(to);
    this.deps.copied(root.id, op.relPath, { relPath: op.copyPath, size: stat.size, mtimeMs: stat.mtimeMs, ino: stat.ino, dev: stat.dev, md5: op.local.md5 });
    this.deps.landed(root.id, op.relPath);
    this.deps.landed(root.id, op.copyPath);
    return id;
  }

  /**
   * A plan's adoptions and forgettings, in its order and in one transaction: a synced file whose
   * folder the service renamed is forgotten at its old path and adopted at its new one. Two commits
   * would let a crash between them leave it synced nowhere, and the next pass would upload it as a
   * new asset beside its own.
   */
  rebind(root: UploadRoot, ops: readonly Op<'ADOPT' | 'FORGET'>[]): void {
    this.deps.atomically(() => {
      for (const op of ops) {
        if (op.kind === 'ADOPT') this.deps.putSynced(root.id, { ...op.local, md5: op.md5, assetId: op.assetId });
        else this.deps.deleteSynced(root.id, op.relPath);
        if (op.kind === 'FORGET' && op.outlived === true) this.deps.outlives(root.id, op.relPath, op.assetId);
      }
    });
  }

  /** The absolute path of relPath if it is still the file the plan saw. */
  private async expectFile(root: UploadRoot, relPath: string, expected: LocalEntry): Promise<string> {
    const found = await locateFile(this.deps.fs, root.path, relPath).catch(() => undefined);
    if (found === undefined || !sameSignature(found.stat, expected)) {
      throw new SyncError('LOCAL_FILE_CHANGED', `${relPath} changed on disk since the plan; it is compared again.`);
    }
    return found.absPath;
  }

  /**
   * The absolute path of relPath inside the root, where nothing is yet. A case-only rename (`Logo.png`
   * → `logo.png`) on a disk that ignores case finds the moving file itself at its new spelling: that
   * is no namesake, and the rename respells it (refused as "appeared on disk", the move would be
   * planned again on every pass and never converge). A folder that holds only empty folders holds
   * nothing to lose and gives way to the moving file, as it does to a download (download-executor.ts);
   * refused, the move would be planned again on every pass.
   */
  private async free(root: UploadRoot, relPath: string, moving?: { from: string; file: LocalEntry }): Promise<string> {
    const path = await resolveInsideRoot(this.deps.fs, root.path, relPath);
    let found: FileStat;
    try {
      found = await this.deps.fs.lstat(path);
    } catch (error) {
      if (errnoCode(error) === 'ENOENT') return path;
      throw error;
    }
    if (moving !== undefined && caseFoldedNames(moving.from) === caseFoldedNames(relPath) && found.kind === 'file' && sameSignature(found, moving.file) && found.dev === moving.file.dev) return path;
    // Also a folder the service renamed to a spelling already taken here (`B` → `b` beside `b` on a
    // disk that keeps case): emptied file by file, it would stay, and the service's file `B` could
    // never take its name.
    if (moving !== undefined && found.kind === 'directory' && (await removeEmptyTree(this.deps.fs, this.deps.disk, path))) return path;
    // A folder with files in it is never removed, and no new plan frees it: the file waits, reported
    // not synced, as a download there does (download-executor.ts). Read as "appeared since the plan",
    // the move would be planned and refused again on every pass and the root never come to rest.
    if (found.kind === 'directory') {
      throw new LocalError('PATH_BLOCKED', `${relPath} is a folder with files in it on disk, where the service has a file; move or rename the folder to get the file`, relPath);
    }
    throw new SyncError('LOCAL_FILE_CHANGED', `${relPath} appeared on disk since the plan; it is compared again.`);
  }
}
