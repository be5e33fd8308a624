/**
 * Renders assets in wire form, with signed preview URLs for files that have a preview (images,
 * documents; previews/preview-form.ts says which), as the caller sees them: Folders values out of a
 * limited caller's sight are left out (the folder policy, groups/folder-policy.ts); for a file whose
 * rendered preview could not be made, none and why (`previewState: "FAILED"`). A file whose preview is
 * its own bytes always has one, so its failures are never read here.
 */
import type { Asset } from '../../shared/api/resources.js';
import type { ServiceContext } from '../context.js';
import { notFound } from '../errors/service-error.js';
import type { AssetRow, AssetsRepo, FileRow, PreviewFacts } from './assets-repo.js';
import type { PreviewFailure } from '../previews/preview-maker.js';
import { previewFormOf, previewName } from '../previews/preview-form.js';
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

/** `failureOf`: why a file's rendered preview could not be made, if it could not (one indexed read per such file). */
export function assetRenderer(ctx: ServiceContext, assets: AssetsRepo, failureOf: (sha256: string) => PreviewFailure | undefined): AssetRenderer {
  const preview = (file: FileRow): PreviewFacts => {
    const form = previewFormOf(file);
    if (form === undefined) return { previewUrl: null, previewState: 'NONE' };
    const failure = form.form === 'rendered' ? failureOf(file.sha256) : undefined;
    if (failure !== undefined) return { previewUrl: null, previewState: 'FAILED', previewError: { code: 'PREVIEW_FAILED', reason: failure.reason, message: failure.message } };
    return { previewUrl: ctx.signer.sign(`/previews/${previewName(file.sha256, form)}`, {}, ctx.config.signedUrlTtl).url, previewState: 'AVAILABLE' };
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
