/**
 * The download batch job: per item, a signed URL of the asset's original file (current, or the named
 * version) with its name, size, checksum and type. Transformations and zips are refused at POST time
 * with UNSUPPORTED_TRANSFORMATION until the transformation pipeline exists.
 */
import { z } from 'zod';
import type { DownloadItem } from '../../shared/api/resources.js';
import type { ServiceContext } from '../context.js';
import { ServiceError, notFound } from '../errors/service-error.js';
import type { JobHandler } from '../jobs/job-runner.js';
import { batchOf } from '../uploads/upload-items.js';
import type { AssetsRepo, FileRow } from '../assets/assets-repo.js';
import { requireAction } from '../auth/permissions.js';
import type { Caller } from '../http/request-auth.js';

const downloadItem = z.object({
  batchItemId: z.string().min(1).max(200).optional(),
  assetId: z.string().min(1).max(200),
  assetFileId: z.string().min(1).max(200).nullish(),
});

export const downloadBatchBody = batchOf(downloadItem).and(
  z.object({
    transformationDescription: z.unknown().optional(),
    zip: z.boolean().optional(),
  }),
);
export type DownloadBatchBody = z.infer<typeof downloadBatchBody>;
type Item = z.infer<typeof downloadItem>;

/** True when a transformation description leaves every file as it is (absent, or only empty operation lists). */
function isIdentity(description: unknown): boolean {
  if (description === undefined || description === null) return true;
  const parsed = z
    .object({ type: z.literal('CUSTOM'), candidateTransformations: z.array(z.object({ transformation: z.object({ operations: z.array(z.unknown()).length(0) }) })) })
    .safeParse(description);
  return parsed.success;
}

export function authorizeDownload(caller: Caller, body: DownloadBatchBody): void {
  requireAction(caller.role, 'ASSET', 'DOWNLOAD');
  if (!isIdentity(body.transformationDescription)) {
    throw new ServiceError('UNSUPPORTED_TRANSFORMATION', 'This service delivers original files only; transformations are not available yet.');
  }
  if (body.zip === true) throw new ServiceError('UNSUPPORTED_TRANSFORMATION', 'Zipped downloads are not available yet; download the files one by one.');
}

export function fileDownload(ctx: ServiceContext, file: FileRow): DownloadItem {
  return {
    url: ctx.signer.sign(`/files/${file.id}/content`, {}, ctx.config.signedUrlTtl).url,
    filename: file.filename,
    size: file.size,
    checksum: file.checksum,
    contentType: `${file.media_type}/${file.media_subtype}`,
  };
}

export function downloadJob(ctx: ServiceContext, assets: AssetsRepo): JobHandler<DownloadBatchBody, Item> {
  return {
    type: 'AssetDownloadBatchJob',
    chunkSize: 500,
    items: (body) => body.items.map((item) => ({ key: item.batchItemId ?? '', item })),
    runItem(item, caller) {
      const asset = assets.get(caller.accountId, item.assetId);
      if (asset === undefined) throw notFound('asset', item.assetId);
      const fileId = item.assetFileId ?? asset.current_file_id;
      if (fileId === null) throw new ServiceError('NOT_FOUND', `Asset ${asset.id} has no file yet.`);
      const file = assets.file(caller.accountId, fileId);
      if (file?.asset_id !== asset.id) throw notFound('asset file of this asset', fileId);
      return fileDownload(ctx, file);
    },
  };
}
