/**
 * Renders assets in wire form, with signed preview URLs for files that have a preview (images,
 * documents), as the caller sees them: Folders values out of a limited caller's sight are left out
 * (the folder policy, groups/folder-policy.ts); for a file whose preview could not be made, none and
 * why (`previewState: "FAILED"`).
 */
import type { Asset } from '../../shared/api/resources.js';
import type { ServiceContext } from '../context.js';
import { notFound } from '../errors/service-error.js';
import type { AssetRow, AssetsRepo, FileRow, PreviewFacts } from './assets-repo.js';
import type { PreviewFailure } from '../previews/preview-maker.js';
import { previewUrlPath } from '../downloads/file-content-routes.js';
import type { ScopedAccount } from '../groups/folder-scope.js';

export interface AssetRenderer {
  /** `currentFile`, `values`: the asset's current file row and its values, when the caller already has them. */
  asset(who: ScopedAccount, row: AssetRow, currentFile?: FileRow, values?: Record<string, string[]>): Asset;
  /** A page of assets, as `asset` renders each, reading their values and current files once for the page. */
  all(who: ScopedAccount, rows: readonly AssetRow[]): Asset[];
  byId(who: ScopedAccount, assetId: string): Asset;
  previewUrl(file: FileRow): string | null;
  preview(file: FileRow): PreviewFacts;
}

/**
 * `hasPreview`: whether a file is of a kind that has a preview (previews/render-preview.ts);
 * `failureOf`: why its preview could not be made, if it could not (one indexed read per file).
 */
export function assetRenderer(ctx: ServiceContext, assets: AssetsRepo, hasPreview: (file: FileRow) => boolean, failureOf: (sha256: string) => PreviewFailure | undefined): AssetRenderer {
  const preview = (file: FileRow): PreviewFacts => {
    if (!hasPreview(file)) return { previewUrl: null, previewState: 'NONE' };
    const failure = failureOf(file.sha256);
    if (failure !== undefined) return { previewUrl: null, previewState: 'FAILED', previewError: { code: 'PREVIEW_FAILED', reason: failure.reason, message: failure.message } };
    return { previewUrl: ctx.signer.sign(previewUrlPath(file.sha256), {}, ctx.config.signedUrlTtl).url, previewState: 'AVAILABLE' };
  };
  const limited = (who: ScopedAccount, rendered: Asset): Asset => {
    if (who.folders === null) return rendered;
    const { foldersFieldId } = who.folders;
    const filed = rendered.metadata.values[foldersFieldId];
    if (filed !== undefined) rendered.metadata.values[foldersFieldId] = ctx.folderPolicy.visibleFolderIds(who, filed);
    return rendered;
  };
  const asset = (who: ScopedAccount, row: AssetRow, currentFile?: FileRow, values?: Record<string, string[]>): Asset =>
    limited(who, assets.render(row, preview, currentFile, values));
  return {
    asset,
    all: (who, rows) => assets.renderAll(rows, preview).map((rendered) => limited(who, rendered)),
    preview,
    previewUrl: (file) => preview(file).previewUrl ?? null,
    byId(who, assetId) {
      const row = assets.get(who, assetId);
      if (row === undefined) throw notFound('asset', assetId);
      return asset(who, row);
    },
  };
}
