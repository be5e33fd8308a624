/**
 * Carries out downloads (DESIGN.md §3 "remote new/changed"): a download batch job signs URLs for the
 * files the plan wants; each file version streams once into a temp file in the root's
 * `.asset-sync/downloads/`, named by its AssetFile id and checksum so an interrupted download resumes
 * with `Range` even after a restart; size and MD5 are verified (hashed on the way), the file is fsynced,
 * given the version's date as mtime and renamed into place (copied first for every other folder the
 * asset is in); the local and synced snapshots then record each batch in one transaction, so a landed
 * file never reads as a local change to upload back. Each rename is written ahead in the download
 * journal (landing-journal.ts): after a crash between a rename and its record, recover-landings.ts
 * records what landed, so a landed file the user moved or renamed before the engine ran again is a move of its
 * asset, not a new file to upload as a second asset.
 *
 * Must never: put a partial or unverified file at its final path; write outside the root (every target
 * goes through locateInsideRoot); overwrite a local file that changed since the plan (that is a
 * conflict for the next pass, not a download); remove a folder with anything in it.
 */
import { basename, dirname, join } from 'node:path';
import type { DownloadItem } from '../../shared/api/resources.js';
import type { AssetApi, BatchOutcome, WrittenFile } from '../api/index.js';
import type { Landing, LandingJournal } from '../db/landing-journal.js';
import { ENGINE_DIR_NAME, HASH_READ_BYTES, LocalError, hashFile, locateInsideRoot, partFileName, sameSignature, type FileStat, type FileSystem, type LocalDisk } from '../local/index.js';
import { PathLocator } from '../local/locate-path.js';
import { removeEmptyTree } from '../local/remove-empty-tree.js';
import { ConcurrencyLimit } from '../../shared/concurrency-limit.js';
import { SyncError } from '../model/sync-error.js';
import type { HashedEntry, Operation } from './sync-types.js';
import type { UploadRoot } from './upload-common.js';

type DownloadOp = Extract<Operation, { kind: 'DOWNLOAD' }>;

export interface DownloadOutcome {
  relPath: string;
  assetId: string;
  result: { ok: true; bytes: number; resumedFrom: number } | { ok: false; error: unknown };
}

export interface DownloadExecutorDeps {
  api: AssetApi;
  fs: FileSystem;
  disk: LocalDisk;
  /** Records landed files in the local and synced snapshots and finishes their landings, in one transaction. */
  commit(rootId: string, landed: readonly { local: HashedEntry; assetId: string }[]): void;
  /**
   * The download journal (recover-landings.ts reads it after a crash): `landing` resolves once the
   * row committed, and only then does the rename happen (write-ahead).
   */
  landings: { landing(rootId: string, landing: Landing): Promise<void>; finish: LandingJournal['finish'] };
  /** The file at relPath is ours: the stability gate and watcher hints may forget it. */
  landed(rootId: string, relPath: string): void;
  /** A file just reached its final path (recorded later, with its batch): for progress only. */
  placed?(rootId: string, relPath: string): void;
  onBytes?(relPath: string, bytes: number): void;
  limits?: { filesInFlight?: number; batchSize?: number };
}

/** Where the partial download of one file version lives: stable across restarts, unique per version. */
export function downloadTempPath(rootPath: string, fileId: string, md5: string): string {
  return join(rootPath, ENGINE_DIR_NAME, 'downloads', partFileName(fileId, md5));
}

type Signed = { ok: true; outcome: BatchOutcome<DownloadItem> } | { ok: false; error: unknown };

/** A file version fetched into its temp file, verified; `written`: as its handle saw it, dated. */
interface Fetched {
  temp: string;
  md5: string;
  bytes: number;
  resumedFrom: number;
  written?: WrittenFile;
}

/**
 * What one batch learned of the disk: the directories on the way checked once (no symlink), and the
 * files landed but not yet recorded. Lives for one batch only, so the disk cannot drift far from it.
 * `created` lives for the whole download: directories made so far (a re-check is the locator's job).
 */
interface BatchState {
  locator: PathLocator;
  created: Set<string>;
  landed: { local: HashedEntry; assetId: string }[];
}

export class DownloadExecutor {
  private readonly files: ConcurrencyLimit;
  private readonly batchSize: number;
  private readonly buffers: Uint8Array[] = [];

  constructor(private readonly deps: DownloadExecutorDeps) {
    this.files = new ConcurrencyLimit(deps.limits?.filesInFlight ?? 8);
    // The service's download job works in chunks of 500; a batch is also how long a directory check lasts.
    this.batchSize = deps.limits?.batchSize ?? 200;
  }

  async download(root: UploadRoot, ops: readonly DownloadOp[]): Promise<DownloadOutcome[]> {
    if (ops.length === 0) return [];
    // One transfer per file version: an asset in several folders is downloaded once and copied.
    const groups = new Map<string, DownloadOp[]>();
    for (const op of ops) {
      const key = `${op.remote.fileId}\n${op.remote.md5}`;
      groups.set(key, [...(groups.get(key) ?? []), op]);
    }
    const all = [...groups.values()];
    const batches: DownloadOp[][][] = [];
    for (let start = 0; start < all.length; start += this.batchSize) batches.push(all.slice(start, start + this.batchSize));
    const tempDir = dirname(downloadTempPath(root.path, '', ''));
    await this.deps.fs.mkdirp(tempDir);
    // Partial downloads left by an earlier run: only these are worth a stat.
    const partials = new Set((await this.deps.fs.readdir(tempDir)).map((entry) => entry.name));

    const outcomes: DownloadOutcome[][] = [];
    const created = new Set<string>();
    // The next batch's URLs are signed while this batch downloads, and its files start while this
    // batch's last ones finish: the transfers never wait for a batch's slowest file. One batch behind
    // at most, so a batch's directory checks stay fresh; outcomes keep the batches' order.
    let next = this.sign(batches[0] ?? []);
    let finishing: Promise<void> = Promise.resolve();
    for (const [index, batch] of batches.entries()) {
      const signed = await next;
      const following = batches[index + 1];
      if (following !== undefined) next = this.sign(following);
      if (!signed.ok) {
        outcomes[index] = batch.flat().map((op) => failed(op, signed.error));
        continue;
      }
      const state: BatchState = { locator: new PathLocator(this.deps.fs, root.path), created, landed: [] };
      const done = Promise.all(
        batch.map(async (group, item) => {
          const key = `d${item}`;
          const signedItem = signed.outcome.successes[key];
          if (signedItem === undefined) return group.map((op) => failed(op, signed.outcome.failures[key] ?? new SyncError('CHECKSUM_MISMATCH', 'The service signed no URL for this file.')));
          return this.files.run(() => this.group(root, group, signedItem, state, partials)).catch((error: unknown) => group.map((op) => failed(op, error)));
        }),
      );
      await finishing;
      finishing = done.then((groups) => {
        this.deps.commit(root.id, state.landed);
        for (const { local } of state.landed) this.deps.landed(root.id, local.relPath);
        outcomes[index] = groups.flat();
      });
    }
    await finishing;
    return outcomes.flat();
  }

  private async sign(batch: readonly DownloadOp[][]): Promise<Signed> {
    try {
      const items = batch.flatMap((group, item) => (group[0] === undefined ? [] : [{ batchItemId: `d${item}`, assetId: group[0].remote.assetId, assetFileId: group[0].remote.fileId }]));
      return { ok: true, outcome: await this.deps.api.requestDownloads(items) };
    } catch (error) {
      return { ok: false, error };
    }
  }

  /** Downloads one file version and puts it at every path that wants it (copies for all but the last). */
  private async group(root: UploadRoot, group: readonly DownloadOp[], item: DownloadItem, state: BatchState, partials: ReadonlySet<string>): Promise<DownloadOutcome[]> {
    const [first] = group;
    if (first === undefined) return [];
    const fetched = await this.fetch(root, first, item, partials);
    const outcomes: DownloadOutcome[] = [];
    for (const [index, op] of group.entries()) {
      const last = index === group.length - 1;
      try {
        let source = fetched.temp;
        if (!last) {
          source = `${fetched.temp}.${index + 1}`;
          await this.deps.disk.removeFile(source);
          await this.deps.disk.copyFile(fetched.temp, source);
          await this.deps.disk.syncFile(source);
        }
        // The fetched file itself was dated and looked at through its handle (fetch); a copy is dated here.
        state.landed.push({ local: await this.place(root, op, source, fetched.md5, state, last ? fetched.written : undefined), assetId: op.remote.assetId });
        this.deps.placed?.(root.id, op.relPath);
        outcomes.push({ relPath: op.relPath, assetId: op.remote.assetId, result: { ok: true, bytes: index === 0 ? fetched.bytes : 0, resumedFrom: index === 0 ? fetched.resumedFrom : 0 } });
      } catch (error) {
        outcomes.push(failed(op, error));
        if (last) await this.deps.disk.removeFile(fetched.temp);
      }
    }
    return outcomes;
  }

  /** Streams the version into its temp file (resuming what an earlier try left), verified and fsynced. */
  private async fetch(root: UploadRoot, op: DownloadOp, item: DownloadItem, partials: ReadonlySet<string>): Promise<Fetched> {
    const { api, fs, disk } = this.deps;
    const { remote } = op;
    const temp = downloadTempPath(root.path, remote.fileId, remote.md5);
    const kept = partials.has(basename(temp)) ? ((await disk.fileSize(temp)) ?? 0) : 0;
    const resumeFrom = kept > 0 && kept <= remote.size ? kept : 0;
    // Hashed on the way, dated and fsynced before it resolves; a resumed file is hashed whole afterwards.
    const versionDate = Date.parse(remote.dateAdded);
    const result = await api.downloadToFile(item.url, temp, {
      resumeFrom,
      md5: true,
      fsync: true,
      ...(Number.isFinite(versionDate) ? { mtimeMs: versionDate } : {}),
      onProgress: (bytes) => this.deps.onBytes?.(op.relPath, bytes),
    });
    if (result.size !== remote.size) {
      await disk.removeFile(temp);
      throw new SyncError('CHECKSUM_MISMATCH', `The download of ${op.relPath} has ${result.size} bytes, the service said ${remote.size}; it starts again.`);
    }
    const md5 = result.md5 ?? (await this.md5(temp, await fs.lstat(temp)));
    if (md5 !== remote.md5) {
      await disk.removeFile(temp);
      throw new SyncError('CHECKSUM_MISMATCH', `The download of ${op.relPath} does not match its checksum (${md5}, expected ${remote.md5}); it starts again.`);
    }
    if (result.md5 === undefined) await disk.syncFile(temp);
    const resumedFrom = result.resumed ? resumeFrom : 0;
    return { temp, md5, bytes: result.size - resumedFrom, resumedFrom, ...(result.written === undefined ? {} : { written: result.written }) };
  }

  /**
   * Gives the verified temp file the version's date (unless `written` says it has it) and renames it
   * into place; answers its entry.
   */
  private async place(root: UploadRoot, op: DownloadOp, temp: string, md5: string, state: BatchState, written: WrittenFile | undefined): Promise<HashedEntry> {
    const { fs } = this.deps;
    const versionDate = Date.parse(op.remote.dateAdded);
    if (written === undefined && Number.isFinite(versionDate)) await fs.utimes(temp, versionDate, versionDate);
    const target = await this.clearEmptyFolder(root, op, await locateInsideRoot(fs, root.path, op.relPath, state.locator));
    // What the plan expected there must still be there: the unchanged file to replace, or nothing.
    const expected = op.replace === undefined ? target.existing === undefined : target.existing?.kind === 'file' && sameSignature(target.existing, op.replace);
    if (!expected) throw new SyncError('LOCAL_FILE_CHANGED', `${op.relPath} changed on disk while its new version was downloading; both versions are compared again.`);
    // The folder tree was made before the downloads; a parent is created at most once per download.
    const parent = dirname(target.absPath);
    if (target.existing === undefined && !state.created.has(parent)) {
      await fs.mkdirp(parent);
      state.created.add(parent);
    }
    const stat = written ?? (await fs.lstat(temp));
    const local = { relPath: op.relPath, size: stat.size, mtimeMs: stat.mtimeMs, ino: stat.ino, dev: stat.dev, md5 };
    // Written ahead: a crash after the rename leaves this to say what landed (recover-landings.ts).
    await this.deps.landings.landing(root.id, { local, assetId: op.remote.assetId, tempPath: temp });
    try {
      await fs.rename(temp, target.absPath);
    } catch (error) {
      this.deps.landings.finish(root.id, op.relPath);
      throw error;
    }
    return local;
  }

  /**
   * A folder where the service has a file (the folder was replaced by a file elsewhere). An empty one,
   * or one holding only empty folders, holds nothing to lose and gives way to the file (each folder
   * removed only if still empty: rmdir, never recursive); one with a file in it is never removed: the
   * file waits, reported not synced (PATH_BLOCKED), until the folder's files reach the service and the
   * file is given a name of its own beside it, or the user moves the folder. An empty folder is not
   * "changed on disk" (that fails the download on every pass and the root never comes to rest), and a
   * folder whose only content is empty folders holds no files (else it blocks the file for good).
   */
  private async clearEmptyFolder(root: UploadRoot, op: DownloadOp, target: { absPath: string; existing: FileStat | undefined }): Promise<{ absPath: string; existing: FileStat | undefined }> {
    if (op.replace !== undefined || target.existing?.kind !== 'directory') return target;
    if (!(await removeEmptyTree(this.deps.fs, this.deps.disk, target.absPath))) {
      throw new LocalError('PATH_BLOCKED', `${op.relPath} is a folder with files in it on disk, where the service has a file; move or rename the folder to get the file`, op.relPath);
    }
    // Located afresh: the batch's locator may remember the folder, and the file takes the service's spelling.
    return locateInsideRoot(this.deps.fs, root.path, op.relPath);
  }

  private async md5(path: string, stat: { size: number; mtimeMs: number; ino: number }): Promise<string> {
    const buffer = this.buffers.pop() ?? new Uint8Array(HASH_READ_BYTES);
    try {
      const outcome = await hashFile(this.deps.fs, path, stat, buffer);
      if (outcome.kind !== 'hashed') throw new SyncError('CHECKSUM_MISMATCH', `The downloaded file ${path} changed while it was checked.`);
      return outcome.md5;
    } finally {
      this.buffers.push(buffer);
    }
  }
}

function failed(op: DownloadOp, error: unknown): DownloadOutcome {
  return { relPath: op.relPath, assetId: op.remote.assetId, result: { ok: false, error } };
}
