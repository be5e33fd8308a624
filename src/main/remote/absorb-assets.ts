/**
 * Folds assets the service answered (a poll, a refresh, an upload's completion, a full listing's
 * rows) into the remote snapshot of one root: an asset in the root's scope is stored, any other
 * (binned, without a file, filed elsewhere) removed, and the watermark moved on with what was found.
 * An asset filed in a folder of the root that the stored tree does not know yet is kept and marked,
 * so the feed walks the tree before its placement reads as a removal.
 *
 * Sits under remote-feed.ts, above the api and db edges. Must never write when nothing was found (a
 * resting root stays at rest), nor decide anything about local files.
 */
import type { Asset } from '../../shared/api/resources.js';
import type { AssetApi } from '../api/index.js';
import { isApiError } from '../api/index.js';
import type { RemoteAssetRow, RemoteFolderRow, RemoteRepo } from '../db/remote-repo.js';
import type { FolderRoot } from '../sync/folder-mapper.js';

/** The feed's sets of assets whose remote state is not known right now. */
export interface UnknownAssets {
  /** Assets our own executors changed, not yet looked at again. */
  dirty: Set<string>;
  /** Assets filed in a folder of the root the stored tree does not know yet. */
  strangers: Set<string>;
}

export class AssetAbsorber {
  constructor(
    private readonly root: FolderRoot,
    private readonly deps: { api: AssetApi; repo: RemoteRepo },
    private readonly unknown: UnknownAssets,
  ) {}

  /**
   * Folds assets into the snapshot: in scope → stored, otherwise (binned, no file, filed elsewhere) →
   * removed. True when one is filed in a folder of the root that the stored tree does not know yet.
   * Decides first (that may ask the service about folders), then writes everything in one transaction.
   */
  async absorb(assets: readonly Asset[], fieldId: string, rootOption: string | null, tree: readonly RemoteFolderRow[]): Promise<boolean> {
    const { repo } = this.deps;
    // Nothing new: no write either (the watermark only moves with what was found), so a quiet poll
    // leaves the state database as it was and a resting root stays at rest (root-sync.ts).
    if (assets.length === 0) return false;
    const known = new Set(tree.map((row) => row.optionId));
    if (rootOption !== null) known.add(rootOption);
    let state = repo.state(this.root.id);
    let unknownFolder = false;
    const decided: { assetId: string; row: RemoteAssetRow | undefined }[] = [];
    for (const asset of assets) {
      state = { ...state, watermark: later(later(state.watermark, asset.dateLastModified), asset.currentAssetFile?.dateAdded) };
      const row = asset.lifecycleStatus.state === 'BINNED' ? undefined : toRow(asset, fieldId);
      const options = row?.folders ?? [];
      const strangers = options.filter((option) => !known.has(option));
      const newFolderOfRoot = row !== undefined && strangers.length > 0 && (rootOption === null || (await this.insideRoot(strangers, rootOption)));
      if (newFolderOfRoot) {
        unknownFolder = true;
        this.unknown.strangers.add(asset.id);
      }
      const inScope = row !== undefined && (rootOption === null || newFolderOfRoot || options.some((option) => known.has(option)));
      decided.push({ assetId: asset.id, row: inScope ? row : undefined });
    }
    repo.inTransaction(() => {
      for (const { assetId, row } of decided) {
        if (row !== undefined) repo.putAsset(this.root.id, row);
        else repo.deleteAsset(this.root.id, assetId);
      }
      repo.putState(this.root.id, state);
    });
    for (const { assetId } of decided) this.unknown.dirty.delete(assetId);
    return unknownFolder;
  }

  /** Whether any of these options lies below the root's option (its parent chain says so). */
  private async insideRoot(optionIds: readonly string[], rootOption: string): Promise<boolean> {
    for (const id of optionIds) {
      try {
        for (let option = await this.deps.api.getFieldOption(id); option.parent !== null; option = option.parent) {
          if (option.parent.id === rootOption) return true;
        }
      } catch (error) {
        if (!isApiError(error, 'NOT_FOUND')) throw error;
      }
    }
    return false;
  }
}

/** The later of a watermark and a date the service answered (an empty or unreadable date moves nothing). */
export function later(a: string | null, b: string | null | undefined): string | null {
  if (b === undefined || b === null || b === '' || Number.isNaN(Date.parse(b))) return a;
  return a === null || Date.parse(b) > Date.parse(a) ? new Date(Date.parse(b)).toISOString() : a;
}

/** The snapshot row of an asset, or undefined when it has no file to sync. */
export function toRow(asset: Asset, fieldId: string): RemoteAssetRow | undefined {
  const file = asset.currentAssetFile;
  if (file === null) return undefined;
  return {
    assetId: asset.id,
    fileId: file.id,
    filename: file.filename,
    md5: file.checksum.toLowerCase(),
    size: file.size,
    dateModified: asset.dateLastModified,
    dateAdded: file.dateAdded,
    folders: asset.metadata.values[fieldId] ?? [],
  };
}
