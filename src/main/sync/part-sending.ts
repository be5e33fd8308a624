/**
 * Sends an upload's parts and completes it: the parts the service has not confirmed go out through
 * the part window, each confirmed part lands in the journal, and the completed upload is recorded as
 * synced at the checksum the service answers (its folder placement checked first). Also tells
 * whether an upload whose answer was lost landed after all.
 *
 * Sits under new-file-uploads.ts and version-uploads.ts, which create or resume the upload. Must
 * never send a part of a file whose identity changed since the upload began, nor record a file as
 * synced at a checksum the service did not confirm.
 */
import type { Asset, AssetUpload } from '../../shared/api/resources.js';
import { currentMd5, isApiError } from '../api/index.js';
import { HASH_READ_BYTES, LocalError, hashFile, sameSignature, type PathLocator } from '../local/index.js';
import { relDirOf } from '../remote/folder-mapper.js';
import { fileOnDiskPath, locateFile } from './locate-file.js';
import { PartWindow } from './part-window.js';
import { SyncError } from '../model/sync-error.js';
import type { LocalEntry, SyncedEntry } from './sync-types.js';
import type { ChangedOnDisk, UploadExecutorDeps, UploadOutcome, UploadRoot } from './upload-common.js';

/** What a batch of new files shares with each file's upload. */
export interface BatchContext {
  /** Checks each directory of the batch once. */
  locator: PathLocator;
  /** The Folders option of the file's directory, as the batch looked it up. */
  option: string | null;
}

export class PartSending {
  /** Part PUTs of all files in flight: at most `partsInFlight`, and only a few seconds' worth of bytes. */
  private readonly parts: PartWindow;

  constructor(
    private readonly deps: Pick<UploadExecutorDeps, 'api' | 'fs' | 'journal' | 'folders' | 'commit' | 'onBytes' | 'clock' | 'limits'>,
    private readonly changedOnDisk: ChangedOnDisk,
  ) {
    this.parts = new PartWindow(deps.clock ?? { now: () => Date.now() }, { maxParts: deps.limits?.partsInFlight ?? 8 });
  }

  /**
   * Sends the parts not yet confirmed, completes, and records the placement once the checksum matches.
   * `batch`: what the batch that created the upload found out already (its locator, the file's folder option).
   */
  async sendAndComplete(root: UploadRoot, local: LocalEntry, assetId: string, upload: AssetUpload, confirmed: Map<number, string>, batch?: BatchContext): Promise<UploadOutcome> {
    const { api, journal } = this.deps;
    const locator = batch?.locator;
    const toSend = upload.parts.filter((part) => !confirmed.has(part.partNumber));
    // Each PUT checks the file on the descriptor it reads from (`expected`), so the path alone is
    // needed here: no lstat of every file before its PUT. With nothing left to send, the file is
    // checked here before the completion.
    const filePath = toSend.length > 0 ? await this.pathOf(root, local, locator) : await this.currentPath(root, local, locator);
    if (filePath === undefined) throw this.changed(root, local, assetId);
    const expected = { size: local.size, mtimeMs: local.mtimeMs, ino: local.ino };
    let bytesSent = 0;
    // A one-part upload asks its PUT to complete it too (our service does; others answer the part).
    const onePart = upload.parts.length === 1 && confirmed.size === 0;
    let completed: Asset | undefined;
    // The first part that fails for good stops the others: a part still queued or retrying after the
    // file's outcome was reported would race the next attempt, which sends the same parts again.
    const stop = new AbortController();
    let firstError: unknown;
    try {
      const settled = await Promise.allSettled(
        toSend.map((part) =>
          this.parts.run(part.byteRange.end - part.byteRange.start, async () => {
            // Rejected, not resolved: a part never sent must not count as sent in the window's rate.
            if (stop.signal.aborted) throw firstError;
            const answer = await api.putPart({
              url: part.url,
              filePath,
              expected,
              start: part.byteRange.start,
              end: part.byteRange.end,
              onProgress: (bytes) => this.deps.onBytes?.(local.relPath, bytes),
              signal: stop.signal,
              ...(onePart ? { complete: true } : {}),
            });
            const { eTag } = answer;
            if (answer.completed?.id === assetId) completed = answer.completed;
            bytesSent += part.byteRange.end - part.byteRange.start;
            confirmed.set(part.partNumber, eTag);
            // A one-part upload completes right after: after a crash that one part is simply sent
            // again, which costs less than a journal write for every small file.
            if (upload.parts.length > 1 || confirmed.size > 1) journal.partsConfirmed(root.id, local.relPath, confirmed);
          }).catch((error: unknown) => {
            firstError ??= error;
            stop.abort();
            throw error;
          }),
        ),
      );
      if (settled.some((result) => result.status === 'rejected')) throw firstError;
    } catch (error) {
      // Not the file the upload began with (changed, replaced, gone, a symlink now): its parts so far
      // are of other bytes, so the upload goes, as when the check before sending fails.
      if (isApiError(error, 'LOCAL_FILE_CHANGED')) throw this.changed(root, local, assetId, error);
      // A one-part PUT completes the upload itself: when its answer was lost, the retry finds the
      // upload completed. The bytes are on the service and are recorded; unrecorded, the asset stays
      // unsynced and a folder rename then uploads the file again as a second asset.
      const landed = onePart && isApiError(error, 'UPLOAD_ALREADY_COMPLETED') ? await this.completedUnheard(assetId, local, filePath) : undefined;
      if (landed === undefined) throw error;
      completed = landed;
      bytesSent = local.size;
    }
    const parts = [...confirmed].sort(([a], [b]) => a - b).map(([partNumber, eTag]) => ({ partNumber, eTag }));
    const asset =
      completed ??
      (await api.completeUpload({ assetId, uploadId: upload.uploadId, parts }).catch((error: unknown) => {
        // The service no longer has the upload (swept after a long absence, or its bytes were lost):
        // completing it again can never work. The asset stays; the next pass starts a new upload.
        if (isApiError(error, 'UPLOAD_EXPIRED') || isApiError(error, 'NOT_FOUND')) journal.forgetUpload(root.id, local.relPath, assetId);
        throw error;
      }));
    return this.record(root, local, assetId, asset, bytesSent, batch?.option);
  }

  /** Records a completed upload: its folder placement checked, the synced entry committed and the journal cleared. */
  async record(root: UploadRoot, local: LocalEntry, assetId: string, asset: Asset, bytesSent: number, option?: string | null, landedMd5?: string): Promise<UploadOutcome> {
    const checksum = landedMd5 ?? asset.currentAssetFile?.checksum;
    if (checksum === undefined) throw new SyncError('CHECKSUM_MISMATCH', 'The service completed the upload but reports no file.');
    const refiled = await this.ensureFolder(root, local.relPath, asset, option);
    // The service's checksum is what the service holds: if the file changed while it was read, the
    // snapshots disagree and the next pass uploads the new content as a version. Nothing is lost.
    const synced: SyncedEntry = { relPath: local.relPath, assetId, md5: checksum.toLowerCase(), size: local.size, mtimeMs: local.mtimeMs, ino: local.ino, dev: local.dev };
    await this.deps.commit(root.id, synced);
    return { relPath: local.relPath, result: { ok: true, synced, bytesSent, ...(refiled ? {} : { asset }) } };
  }

  /**
   * The asset, when the upload its one-part PUT completed unheard holds exactly the bytes of `local`
   * (hashed now if the scan did not: one part is at most 16 MiB, and this happens only after a lost answer).
   */
  async completedUnheard(assetId: string, local: LocalEntry, filePath: string): Promise<Asset | undefined> {
    const asset = await this.deps.api.getAsset(assetId);
    const checksum = currentMd5(asset);
    if (checksum === undefined) return undefined;
    return checksum === (await this.ourChecksum(local, filePath)) ? asset : undefined;
  }

  /**
   * The asset and the checksum of `local`, when an older version of the asset (not its current file)
   * holds exactly the bytes of `local`: its upload completed unheard and a newer version followed.
   */
  async landedBeneath(assetId: string, local: LocalEntry, filePath: string): Promise<{ asset: Asset; md5: string } | undefined> {
    const md5 = await this.ourChecksum(local, filePath);
    const versions = await this.deps.api.listAssetFiles(assetId);
    if (!versions.some((file) => file.checksum.toLowerCase() === md5)) return undefined;
    return { asset: await this.deps.api.getAsset(assetId), md5 };
  }

  /** The file's path on disk if it is still the file the upload began with, else undefined. */
  async currentPath(root: UploadRoot, local: LocalEntry, locator?: PathLocator): Promise<string | undefined> {
    const found = await locateFile(this.deps.fs, root.path, local.relPath, locator).catch(() => undefined);
    return found !== undefined && sameSignature(found.stat, local) ? found.absPath : undefined;
  }

  /**
   * The MD5 of `local`: recorded, or read from `filePath`. A file that cannot be read now (a permission,
   * a change since it was recorded) leaves open whether its upload landed, so this throws and the
   * journal entry waits for a later pass: taken as "did not land", the upload would start afresh and
   * send these bytes over the version a colleague put on top of them since.
   */
  private async ourChecksum(local: LocalEntry, filePath: string): Promise<string> {
    if (local.md5 !== null) return local.md5;
    const outcome = await hashFile(this.deps.fs, filePath, local, new Uint8Array(HASH_READ_BYTES));
    if (outcome.kind === 'hashed') return outcome.md5;
    if (outcome.kind === 'failed') throw new LocalError('FILE_UNREADABLE', `${local.relPath} cannot be read (${outcome.code}) to tell whether its interrupted upload landed; it is tried again later.`, local.relPath);
    throw new SyncError('LOCAL_FILE_CHANGED', `${local.relPath} changed since its upload was interrupted; it is compared again.`);
  }

  /**
   * `path` files new assets on the local service; a server that ignores it for a folder would leave the
   * asset unfiled, so the placement is checked and added when missing. True when it had to be added.
   * An asset filed already stays where the service filed it, even when the folder cache names another
   * option for the file's directory: the cache can be behind a rename made elsewhere (`A` renamed `D`,
   * not yet listed here), the path `/A/b.txt` then made a new option `A`, and adding the cached one
   * (now `D`) would file the asset in both folders, a copy of the file in each on every disk
   * (sim/stale-folder-cache.test.ts).
   */
  private async ensureFolder(root: UploadRoot, relPath: string, asset: Asset, known?: string | null): Promise<boolean> {
    const option = known === undefined ? await this.deps.folders.optionFor(root, relDirOf(relPath)) : known;
    if (option === null) return false;
    const fieldId = await this.deps.folders.fieldId();
    if ((asset.metadata.values[fieldId] ?? []).length > 0) return false;
    await this.deps.api.editMetadata({ type: 'BY_IDS', assetIds: [asset.id] }, [{ fieldId, type: 'BY_IDS', values: [option], operation: 'ADD' }]);
    return true;
  }

  /**
   * Forgets the upload of a file that is not the one it began with (the asset stays for the next one),
   * and says so: retried as soon as the file settles.
   */
  private changed(root: UploadRoot, local: LocalEntry, assetId: string, cause?: unknown): SyncError {
    this.deps.journal.forgetUpload(root.id, local.relPath, assetId);
    const changed = this.changedOnDisk.get(root.id) ?? new Set<string>();
    this.changedOnDisk.set(root.id, changed.add(local.relPath));
    return new SyncError('LOCAL_FILE_CHANGED', 'The file changed before it was sent; it uploads again once it settles.', cause === undefined ? undefined : { cause });
  }

  /** Where the file is on disk, its directories checked (not a symlink, names as spelled on disk), the file itself not. */
  private async pathOf(root: UploadRoot, local: LocalEntry, locator?: PathLocator): Promise<string | undefined> {
    return fileOnDiskPath(this.deps.fs, root.path, local.relPath, locator).catch(() => undefined);
  }
}
