/**
 * Carries out the service side of deletions (DESIGN.md §3): a deleted file's asset is taken out of
 * that file's folder, and moved to BINNED (recoverable) only when it was the asset's last placement;
 * the options of folders a pass emptied, and that are gone from disk, are deleted, sub-folders first.
 *
 * Sits under placement-executor.ts, which hands it `remove` and `removeEmptied`. Must never delete an
 * asset for good, bin an asset still filed elsewhere, nor delete an option the service says is used.
 */
import type { AssetApi } from '../api/index.js';
import { isApiError, unlessNotFound } from '../api/index.js';
import type { FolderMapper } from '../remote/folder-mapper.js';
import { relDirOf } from '../remote/folder-mapper.js';
import type { Operation } from './sync-types.js';
import type { UploadRoot } from './upload-common.js';

export type DeleteOp = Extract<Operation, { kind: 'DELETE' }>;

export interface PlacementRemovalDeps {
  api: AssetApi;
  folders: FolderMapper;
  /** Other synced placements of the asset in this root (besides `relPath`). */
  otherPlacements(rootId: string, assetId: string, relPath: string): number;
  /**
   * The options the service's tree maps to this directory (remote-tree.ts): more than one where twins
   * (`A` and `a`) share it on a disk that folds case, and a file there may be filed in either.
   */
  optionsAt(rootId: string, relDir: string): string[];
  /** Forgets the synced entry. */
  removed(rootId: string, relPath: string): void;
}

export class PlacementRemovals {
  constructor(private readonly deps: PlacementRemovalDeps) {}

  async remove(root: UploadRoot, op: DeleteOp): Promise<'UNFILED' | 'BINNED' | 'ALREADY_GONE'> {
    const { api, folders } = this.deps;
    const fieldId = await folders.fieldId();
    const option = await folders.optionFor(root, relDirOf(op.relPath));
    const asset = await unlessNotFound(api.getAsset(op.assetId));
    if (asset === undefined) {
      this.deps.removed(root.id, op.relPath);
      return 'ALREADY_GONE';
    }
    const placements = asset.metadata.values[fieldId] ?? [];
    const here = option === null ? [] : sameDirOptions(this.deps, root, relDirOf(op.relPath), option);
    const remaining = option === null ? placements : placements.filter((value) => !here.includes(value));
    const elsewhere = remaining.length > 0 || this.deps.otherPlacements(root.id, op.assetId, op.relPath) > 0;
    let verdict: 'UNFILED' | 'BINNED';
    if (elsewhere) {
      const filedHere = placements.filter((value) => here.includes(value));
      if (filedHere.length > 0) {
        expectEach(await api.editMetadata({ type: 'BY_IDS', assetIds: [op.assetId] }, [{ fieldId, type: 'BY_IDS', values: filedHere, operation: 'REMOVE' }]), op.assetId);
      }
      verdict = 'UNFILED';
    } else {
      if (asset.lifecycleStatus.state !== 'BINNED') expectEach(await api.transitionLifecycle({ type: 'BY_IDS', assetIds: [op.assetId] }, 'BINNED'), op.assetId);
      verdict = 'BINNED';
    }
    this.deps.removed(root.id, op.relPath);
    return verdict;
  }

  /**
   * The options of folders this pass's moves and deletions emptied, and that are gone from the disk
   * (`kept` answers false), deleted on the service, sub-folders first (DESIGN.md §3: the option goes
   * once no asset and no child uses it; the service refuses one still used, `FIELD_OPTION_IN_USE`, and
   * it stays). A folder renamed here in case only (`A` → `a` on a disk that keeps case) otherwise left
   * the empty `A` beside `a`, and a case-insensitive client, told the two apart, put the files in
   * `a (2)`. Answers the folders removed.
   */
  async removeEmptied(root: UploadRoot, dirs: Iterable<string>, kept: (relDir: string) => Promise<boolean>): Promise<string[]> {
    const { api, folders } = this.deps;
    const candidates = new Set<string>();
    for (const dir of dirs) for (let at = dir; at !== ''; at = relDirOf(at)) candidates.add(at);
    const removed: string[] = [];
    for (const relDir of [...candidates].sort((a, b) => b.split('/').length - a.split('/').length)) {
      const option = folders.knownOption(root, relDir);
      if (option === undefined || option === null || (await kept(relDir))) continue;
      try {
        await api.deleteFieldOption(option);
      } catch (error) {
        if (isApiError(error, 'FIELD_OPTION_IN_USE')) continue;
        if (!isApiError(error, 'NOT_FOUND')) throw error;
      }
      folders.forget(root, relDir);
      removed.push(relDir);
    }
    return removed;
  }
}

/** The directory's option and its twins (options the tree maps to the same directory). */
export function sameDirOptions(deps: Pick<PlacementRemovalDeps, 'optionsAt'>, root: UploadRoot, relDir: string, option: string): string[] {
  return [...new Set([option, ...deps.optionsAt(root.id, relDir)])];
}

/** A batch job answers per item: a failure for our one asset is the operation's failure. */
export function expectEach(outcome: { failures: Record<string, Error> }, assetId: string): void {
  const failure = outcome.failures[assetId] ?? Object.values(outcome.failures)[0];
  if (failure !== undefined) throw failure;
}
