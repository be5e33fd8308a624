/**
 * How open uploads end without completing: abandoned (no activity for `uploadAbandonAfter`), their asset
 * or the file they replace deleted, or the guest link they were started through deleted. Each ending
 * removes the upload's bytes and row (and its digests under way); the abandonment sweep leaves alone an
 * upload that is receiving a part or completing right now. Completed uploads are forgotten by the
 * same sweep once no client can still need a repeated completion's answer.
 */
import { rmSync } from 'node:fs';
import type { AssetsRepo } from '../assets/assets-repo.js';
import type { ServiceContext } from '../context.js';
import type { UploadsRepo } from './uploads-repo.js';

export interface UploadEndingsDeps {
  ctx: ServiceContext;
  assets: AssetsRepo;
  uploads: UploadsRepo;
  /** The upload's file of received bytes. */
  fileOf(uploadId: string): string;
  /** Stops the upload's digests under way. */
  dropDigests(uploadId: string): void;
  /** Whether the upload is receiving a part or completing right now (the sweep leaves it be). */
  busy(uploadId: string): boolean;
}

export class UploadEndings {
  constructor(private readonly deps: UploadEndingsDeps) {}

  /**
   * Deletes open uploads with no activity for `uploadAbandonAfter`, with their bytes, and forgets
   * completed ones as old: a completed upload's record only answers a repeated completion the same way
   * (a client whose answer was lost), which no client still needs that long after. Answers how many
   * open uploads went.
   */
  sweepAbandoned(): number {
    const { uploads, ctx } = this.deps;
    const cutoff = ctx.clock.now() - ctx.config.uploadAbandonAfter * 1000;
    const stale = uploads.abandonedBefore(cutoff).filter((id) => !this.deps.busy(id));
    for (const uploadId of stale) this.discard(uploadId);
    uploads.forgetCompletedBefore(cutoff);
    return stale.length;
  }

  /** Removes an open upload and its bytes (asset deleted, upload abandoned). */
  discard(uploadId: string): void {
    this.deps.dropDigests(uploadId);
    rmSync(this.deps.fileOf(uploadId), { force: true });
    this.deps.uploads.remove(uploadId);
  }

  /** Abandons the open uploads of an asset that is being deleted. */
  discardOpenUploadsOf(assetId: string): void {
    for (const uploadId of this.deps.uploads.openOfAsset(assetId)) this.discard(uploadId);
  }

  /**
   * Ends the open uploads started through a guest link that is being deleted: their bytes and rows go,
   * and so does each asset made for one that has no file yet. Call inside the link deletion's
   * transaction. A part PUT of one is then UPLOAD_EXPIRED and writes nothing.
   */
  endGuestUploads(guestUploadId: string): void {
    const { uploads, assets } = this.deps;
    for (const { upload_id: uploadId, asset_id: assetId } of uploads.openOfGuestUpload(guestUploadId)) {
      this.discard(uploadId);
      // An asset without any file frees no blob.
      if (assets.files(assetId).length === 0) assets.deleteAsset(assetId);
    }
  }

  /** Abandons the open uploads of new bytes for an AssetFile that is being deleted. */
  discardOpenUploadsReplacing(fileId: string): void {
    for (const uploadId of this.deps.uploads.openReplacing(fileId)) this.discard(uploadId);
  }
}
