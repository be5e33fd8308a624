/**
 * Renders assets in wire form, with signed preview URLs for files that have a preview (images,
 * documents; previews/preview-form.ts says which), as the caller sees them: Folders values out of a
 * limited caller's sight are left out (the folder policy, groups/folder-policy.ts); for a file whose
 * rendered preview could not be made, none and why (`previewState: "FAILED"`). A file whose preview is
 * its own bytes always has one, so its failures are never read here; a page's are read once for the
 * page.
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

/** Why files' rendered previews could not be made, for those that could not (preview-maker.ts). */
export interface PreviewFailures {
  /** One file's: one indexed read. */
  of(sha256: string): PreviewFailure | undefined;
  /** A page's: one read for the page. */
  ofMany(sha256s: readonly string[]): ReadonlyMap<string, PreviewFailure>;
}

export function assetRenderer(ctx: ServiceContext, assets: AssetsRepo, failures: PreviewFailures): AssetRenderer {
  const previewWith = (failureOf: (sha256: string) => PreviewFailure | undefined) => (file: FileRow): PreviewFacts => {
    const form = previewFormOf(file);
    if (form === undefined) return { previewUrl: null, previewState: 'NONE' };
    const failure = form.form === 'rendered' ? failureOf(file.sha256) : undefined;
    if (failure !== undefined) return { previewUrl: null, previewState: 'FAILED', previewError: { code: 'PREVIEW_FAILED', reason: failure.reason, message: failure.message } };
    return { previewUrl: ctx.signer.sign(`/previews/${previewName(file.sha256, form)}`, {}, ctx.config.signedUrlTtl).url, previewState: 'AVAILABLE' };
  };
  const preview = previewWith((sha256) => failures.of(sha256));
  // A page's failures are read once for the page, not once per file.
  const pagePreviews = (files: readonly FileRow[]): ((file: FileRow) => PreviewFacts) => {
    const rendered = files.filter((file) => previewFormOf(file)?.form === 'rendered').map((file) => file.sha256);
    if (rendered.length <= 1) return preview;
    const failed = failures.ofMany(rendered);
    return previewWith((sha256) => failed.get(sha256));
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
    all: (who, rows) => assets.renderAll(rows, pagePreviews).map((rendered) => limited(who, rendered)),
    preview,
    previewUrl: (file) => preview(file).previewUrl ?? null,
    byId(who, assetId) {
      const row = assets.get(who, assetId);
      if (row === undefined) throw notFound('asset', assetId);
      return asset(who, row);
    },
  };
}
