/**
 * Renders assets in wire form, with signed preview URLs for files that have a preview (images,
 * documents), as the caller sees them: Folders values out of a limited caller's sight are left out
 * (the folder policy, groups/folder-policy.ts).
 */
import type { Asset } from '../../shared/api/resources.js';
import type { ServiceContext } from '../context.js';
import { notFound } from '../errors/service-error.js';
import type { AssetRow, AssetsRepo, FileRow } from './assets-repo.js';
import { previewUrlPath } from '../downloads/file-content-routes.js';
import type { ScopedAccount } from '../groups/folder-scope.js';

export interface AssetRenderer {
  /** `currentFile`: the row of the asset's current file, when the caller already has it. */
  asset(who: ScopedAccount, row: AssetRow, currentFile?: FileRow): Asset;
  byId(who: ScopedAccount, assetId: string): Asset;
  previewUrl(file: FileRow): string | null;
}

/** `hasPreview`: whether a file is of a kind that has a preview (previews/render-preview.ts). */
export function assetRenderer(ctx: ServiceContext, assets: AssetsRepo, hasPreview: (file: FileRow) => boolean): AssetRenderer {
  const previewUrl = (file: FileRow): string | null => (hasPreview(file) ? ctx.signer.sign(previewUrlPath(file.sha256), {}, ctx.config.signedUrlTtl).url : null);
  const asset = (who: ScopedAccount, row: AssetRow, currentFile?: FileRow): Asset => {
    const rendered = assets.render(row, previewUrl, currentFile);
    if (who.folders === null) return rendered;
    const { foldersFieldId } = who.folders;
    const filed = rendered.metadata.values[foldersFieldId];
    if (filed !== undefined) rendered.metadata.values[foldersFieldId] = ctx.folderPolicy.visibleFolderIds(who, filed);
    return rendered;
  };
  return {
    asset,
    previewUrl,
    byId(who, assetId) {
      const row = assets.get(who, assetId);
      if (row === undefined) throw notFound('asset', assetId);
      return asset(who, row);
    },
  };
}
