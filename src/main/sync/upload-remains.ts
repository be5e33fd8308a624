/**
 * Settles what an upload that will not go on left on the service: an empty asset goes to the bin, an
 * upload that completed although its answer was lost is recorded as synced at the bytes it sent, an
 * empty asset filed in a folder the file's directory no longer maps to is binned so the file starts
 * again where its path leads.
 *
 * Sits under the upload jobs (new-file-uploads.ts, version-uploads.ts, resume-uploads.ts,
 * abandoned-uploads.ts). Must never bin an asset that holds a file, nor record an upload as synced at
 * bytes that are not the ones it sent.
 */
import type { Asset } from '../../shared/api/resources.js';
import { currentMd5 } from '../api/index.js';
import type { JournalEntry } from '../db/upload-journal.js';
import { relDirOf } from '../remote/folder-mapper.js';
import type { SyncedEntry } from './sync-types.js';
import { assetIfAny, type UploadExecutorDeps, type UploadOutcome, type UploadRoot } from './upload-common.js';

export class UploadRemains {
  constructor(private readonly deps: Pick<UploadExecutorDeps, 'api' | 'folders' | 'commit'>) {}

  /** Moves an asset with no file to the bin (an upload's asset whose file went away); leaves any other alone. */
  async binIfEmpty(assetId: string): Promise<void> {
    const asset = await assetIfAny(this.deps.api, assetId);
    if (asset === undefined || asset.currentAssetFile != null || asset.lifecycleStatus.state === 'BINNED') return;
    await this.deps.api.transitionLifecycle({ type: 'BY_IDS', assetIds: [assetId] }, 'BINNED');
  }

  /**
   * Whether a new file's asset, still empty, is in a folder the file's directory no longer maps to:
   * the folder was renamed on the service (`A/C` → `A/c`, the option keeping its id) while the file
   * stayed in `A/C`. Then the asset goes to the bin and the file starts again where its path leads;
   * filled, it would stay live in `A/c`, beside the file's own asset or its conflict copy. An asset
   * with a file stays: those bytes are the file's, and its folder is the remote side's news.
   */
  async filedElsewhere(root: UploadRoot, entry: JournalEntry, assetId: string): Promise<boolean> {
    if (entry.kind !== 'NEW' || entry.folderOption === null) return false;
    if ((await this.deps.folders.optionFor(root, relDirOf(entry.relPath))) === entry.folderOption) return false;
    const asset = await assetIfAny(this.deps.api, assetId);
    if (asset?.currentAssetFile != null) return false;
    if (asset !== undefined && asset.lifecycleStatus.state !== 'BINNED') await this.deps.api.transitionLifecycle({ type: 'BY_IDS', assetIds: [assetId] }, 'BINNED');
    return true;
  }

  /**
   * The journal's upload of a file that went away. The upload may have completed although its answer
   * was lost (a one-part PUT completes itself; a crash after the completion's commit): the service
   * then holds the file's bytes at the path they were sent to, and that placement is recorded as
   * synced, so the next plan sees a synced file moved (the asset follows it) or deleted (held or
   * trashed like any deletion). Forgotten, the asset would stay live at the old path, downloaded there
   * again, while the moved file became a second asset of the same content. An asset made for a new
   * file that has no version yet goes to the bin rather than stay behind empty.
   */
  async vanishedUpload(root: UploadRoot, entry: JournalEntry, assetId: string): Promise<UploadOutcome | undefined> {
    const asset = await assetIfAny(this.deps.api, assetId);
    if (asset === undefined || asset.lifecycleStatus.state === 'BINNED') return undefined;
    if (asset.currentAssetFile === null) {
      if (entry.kind === 'NEW') await this.deps.api.transitionLifecycle({ type: 'BY_IDS', assetIds: [assetId] }, 'BINNED');
      return undefined;
    }
    return this.recordIfSent(root, entry, asset);
  }

  /**
   * The journal's upload recorded as synced when the asset, live, holds what it sent (as `vanishedUpload`
   * does); an empty asset stays for the next upload.
   */
  async landedUnheard(root: UploadRoot, entry: JournalEntry, assetId: string): Promise<UploadOutcome | undefined> {
    const asset = await assetIfAny(this.deps.api, assetId);
    if (asset === undefined || asset.lifecycleStatus.state === 'BINNED' || asset.currentAssetFile === null) return undefined;
    return this.recordIfSent(root, entry, asset);
  }

  /**
   * `recordIfOurs` at the bytes the journal's upload sent. A new file's journal may not know them (its
   * hash is taken while sending), but its asset was made empty for this upload, so its first version
   * is what the upload sent: synced at those bytes, a colleague's version on top is the remote side's
   * change, and the conflict rule decides between it and the file's new bytes or its deletion (the edit
   * wins). Synced at the current version instead, the file's new bytes would go up over the
   * colleague's without a conflict copy, and a file deleted before the restart would take the
   * colleague's version to the bin.
   */
  private async recordIfSent(root: UploadRoot, entry: JournalEntry, asset: Asset): Promise<UploadOutcome | undefined> {
    if (entry.kind !== 'NEW' || entry.local.md5 !== null) return this.recordIfOurs(root, entry, asset);
    // Oldest first; the service lists the newest first, so among versions of one instant the last listed.
    const [sent] = (await this.deps.api.listAssetFiles(asset.id)).reverse().sort((a, b) => Date.parse(a.dateAdded) - Date.parse(b.dateAdded));
    return sent === undefined ? undefined : this.recordIfOurs(root, entry, asset, sent.checksum.toLowerCase());
  }

  /** Records the journal's upload as synced at `sentMd5` (by default the asset's current file, if it holds the bytes the journal began sending). */
  private async recordIfOurs(root: UploadRoot, entry: JournalEntry, asset: Asset, sentMd5?: string): Promise<UploadOutcome | undefined> {
    const assetId = asset.id;
    const checksum = sentMd5 ?? currentMd5(asset);
    if (checksum === undefined) return undefined;
    // A new file's asset got its only bytes from this upload; a version is ours when it holds the bytes
    // the journal began sending (otherwise it is another writer's, and the remote side's news).
    const ours = entry.local.md5 === null ? entry.kind === 'NEW' : entry.local.md5 === checksum;
    if (!ours) return undefined;
    const { relPath, size, mtimeMs, ino, dev } = entry.local;
    const synced: SyncedEntry = { relPath, assetId, md5: checksum, size, mtimeMs, ino, dev };
    await this.deps.commit(root.id, synced);
    return { relPath, result: { ok: true, synced, bytesSent: 0, asset } };
  }
}
