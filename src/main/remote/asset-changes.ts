/**
 * The remote feed's reads between full listings, folded into the remote snapshot of one root: a poll
 * of what changed since the watermark, a refresh of the assets our own executors changed, and the
 * assets an upload's completion answered. An asset in the root's scope is stored, any other (binned,
 * without a file, filed elsewhere) removed, and the watermark moved on with what was found. An asset
 * filed in a folder of the root that the stored tree does not know yet is kept and marked, so the
 * feed walks the tree before its placement reads as a removal.
 *
 * Sits under remote-feed.ts (which decides when each runs), above the api and db edges. Must never
 * write when nothing was found (a resting root stays at rest), nor decide anything about local files.
 */
import type { Asset } from '../../shared/api/resources.js';
import type { AssetApi } from '../api/index.js';
import { isApiError } from '../api/index.js';
import type { RemoteAssetRow, RemoteFolderRow, RemoteRepo } from '../db/remote-repo.js';
import type { FolderMapper, FolderRoot } from './folder-mapper.js';
import { MAX_IN_VALUES, POLLED_STATES, allOf, assetIdsCriterion, changedSinceCriterion, chunks, folderCriterion, stateCriterion } from './remote-criteria.js';

/** The feed's sets of assets whose remote state is not known right now. */
export interface UnknownAssets {
  /** Assets our own executors changed, not yet looked at again. */
  dirty: Set<string>;
  /** Assets filed in a folder of the root the stored tree does not know yet. */
  strangers: Set<string>;
}

/** Answers asked for per page. */
export const PAGE_SIZE = 1000;
/** A poll that finds more changes than this does a full listing instead. */
const POLL_LIMIT = 5_000;

export class AssetChanges {
  constructor(
    private readonly root: FolderRoot,
    private readonly deps: { api: AssetApi; folders: FolderMapper; repo: RemoteRepo },
    private readonly unknown: UnknownAssets,
  ) {}

  /**
   * What changed since the watermark, from `overlapMs` before it (a poll begun at `startedAt`); true
   * when a folder appeared that needs the tree walked again.
   */
  async poll(startedAt: number, overlapMs: number): Promise<boolean> {
    const { api, folders, repo } = this.deps;
    const state = repo.state(this.root.id);
    const fieldId = await folders.fieldId();
    const tree = repo.folders(this.root.id);
    const rootOption = state.rootOption === '' || state.rootOption === null ? null : state.rootOption;
    const since = new Date((state.watermark === null ? startedAt : Date.parse(state.watermark)) - overlapMs).toISOString();
    const optionIds = rootOption === null ? [] : [rootOption, ...tree.map((row) => row.optionId)];
    // A very large tree would take many searches a poll: the periodic full listing covers it.
    if (optionIds.length > MAX_IN_VALUES) return false;
    const criterion = allOf(stateCriterion(POLLED_STATES), rootOption === null ? undefined : folderCriterion(fieldId, optionIds), changedSinceCriterion(since));
    const found: Asset[] = [];
    for (let from = 0; ; ) {
      const page = await api.searchAssets({ criterion, sorts: [{ field: { type: 'FIXED', fieldName: 'DATE_LAST_MODIFIED' }, order: 'ASC' }], from, pageSize: Math.min(PAGE_SIZE, 10_000 - from) });
      if (page.totalResults > POLL_LIMIT) return true;
      found.push(...page.results.map(({ result }) => result));
      from += page.results.length;
      if (page.results.length === 0 || from >= page.totalResults || from >= 10_000) break;
    }
    return this.absorb(found, fieldId, rootOption, tree);
  }

  /** Looks at these assets again (after our own changes); the ones not found are gone. True when the tree needs a walk. */
  async refresh(assetIds: readonly string[]): Promise<boolean> {
    const { api, folders, repo } = this.deps;
    const fieldId = await folders.fieldId();
    const state = repo.state(this.root.id);
    const rootOption = state.rootOption === '' || state.rootOption === null ? null : state.rootOption;
    let needsTree = false;
    for (const ids of chunks(assetIds, MAX_IN_VALUES)) {
      const found: Asset[] = [];
      const page = await api.searchAssets({ criterion: allOf(stateCriterion(POLLED_STATES), assetIdsCriterion(ids)), sorts: [{ field: { type: 'FIXED', fieldName: 'ASSET_ID' }, order: 'ASC' }], from: 0, pageSize: ids.length });
      found.push(...page.results.map(({ result }) => result));
      const seen = new Set(found.map((asset) => asset.id));
      for (const id of ids) if (!seen.has(id)) repo.deleteAsset(this.root.id, id);
      needsTree = (await this.absorb(found, fieldId, rootOption, repo.folders(this.root.id))) || needsTree;
      for (const id of ids) this.unknown.dirty.delete(id);
    }
    return needsTree;
  }

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
