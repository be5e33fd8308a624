/** The asset-and-upload and asset-upload batch jobs: one upload (and, for the first, one asset) per item. */
import type { z } from 'zod';
import type { JobHandler } from '../jobs/job-runner.js';
import type { FoundOptions } from '../fields/field-options-repo.js';
import { batchOf, uploadItemSchema, type UploadItem } from './upload-items.js';
import type { UploadService } from './upload-service.js';
import { requireAccountAction, requireAction } from '../auth/permissions.js';
import type { Caller } from '../http/request-auth.js';

export const uploadBatchBody = batchOf(uploadItemSchema);
export type UploadBatchBody = z.infer<typeof uploadBatchBody>;

const keyed = (body: UploadBatchBody): { key: string; item: UploadItem }[] =>
  body.items.map((item) => ({ key: item.batchItemId ?? '', item }));

export function assetAndUploadJob(uploads: UploadService): JobHandler<UploadBatchBody, UploadItem> {
  // The folders found during one chunk's transaction, asked before the database: items of a batch mostly
  // share their folders, and while the chunk runs nothing else writes, and its items only add folders.
  // Dropped after each chunk (committed or rolled back).
  let found: FoundOptions | undefined;
  return {
    type: 'AssetAndUploadBatchJob',
    chunkSize: 200,
    items: keyed,
    runItem: (item, caller) => uploads.createAssetAndUpload(caller, item, null, (found ??= new Map())),
    afterChunk: () => {
      found = undefined;
    },
  };
}

export function assetUploadJob(uploads: UploadService): JobHandler<UploadBatchBody, UploadItem> {
  return {
    type: 'AssetUploadBatchJob',
    chunkSize: 200,
    items: keyed,
    runItem: (item, caller) => {
      const upload = uploads.createUpload(caller, item);
      return { assetId: upload.assetId, upload };
    },
  };
}

export function authorizeNewAssets(caller: Caller): void {
  requireAccountAction(caller.role, 'ASSETS', 'CREATE_ASSETS');
}

export function authorizeNewVersions(caller: Caller): void {
  requireAction(caller.role, 'ASSET', 'UPLOAD');
}
