/** Renders assets in wire form, with signed preview URLs for files that have a preview (images). */
import type { Asset } from '../../shared/api/resources.js';
import type { ServiceContext } from '../context.js';
import { notFound } from '../errors/service-error.js';
import type { AssetRow, AssetsRepo, FileRow } from './assets-repo.js';

export interface AssetRenderer {
  /** `currentFile`: the row of the asset's current file, when the caller already has it. */
  asset(row: AssetRow, currentFile?: FileRow): Asset;
  byId(accountId: string, assetId: string): Asset;
  previewUrl(file: FileRow): string | null;
}

export function assetRenderer(ctx: ServiceContext, assets: AssetsRepo): AssetRenderer {
  const previewUrl = (file: FileRow): string | null =>
    file.file_type === 'IMAGE' && file.size > 0 ? ctx.signer.sign(`/files/${file.id}/preview`, {}, ctx.config.signedUrlTtl).url : null;
  const asset = (row: AssetRow, currentFile?: FileRow): Asset => assets.render(row, previewUrl, currentFile);
  return {
    asset,
    previewUrl,
    byId(accountId, assetId) {
      const row = assets.get(accountId, assetId);
      if (row === undefined) throw notFound('asset', assetId);
      return asset(row);
    },
  };
}
