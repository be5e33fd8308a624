/**
 * The path on the service an upload goes up under: a new file's own (or the name of the binned asset
 * it outlives), a version's the asset's name on the service.
 *
 * Sits under new-file-uploads.ts and version-uploads.ts; asks the service for an asset's name, writes
 * nothing. Must never send a number or a made-safe spelling that only this disk needs as the asset's
 * name on the service.
 */
import { baseName } from '../local/rel-path.js';
import { remoteFilePath, versionFilePath } from '../remote/folder-mapper.js';
import { spellsHere } from '../local/local-names.js';
import { assetIfAny, type UploadExecutorDeps, type UploadRoot } from './upload-common.js';

export class UploadPaths {
  constructor(private readonly deps: Pick<UploadExecutorDeps, 'api' | 'outlived'>) {}

  /**
   * The path an upload of the file at `relPath` to `assetId` goes up under. A new file's, its own; a
   * version's keeps the asset's name on the service (`versionFilePath`), as the pass's listing knew it
   * or as the service answers now when the caller does not know (the listing is behind on it, a
   * restart's resumed upload). A failure to ask fails the upload.
   */
  async uploadPath(root: UploadRoot, kind: 'NEW' | 'VERSION', assetId: string, relPath: string, serviceName?: string): Promise<string> {
    if (kind === 'NEW') return this.newFilePath(root, relPath);
    const name = serviceName ?? (await assetIfAny(this.deps.api, assetId))?.currentAssetFile?.filename;
    return versionFilePath(root, relPath, name);
  }

  /**
   * The path a new file's asset goes up under: its own, unless the file outlives a binned asset
   * (`outlived`) and its name is only how this disk holds that asset's (`spellsHere`: numbered apart
   * from a namesake, made safe). Then the binned asset's name, which the engine's number never
   * replaces on the service (new-file-uploads.test.ts). An asset deleted for good leaves the file's
   * own name. `outlived`: the root's, read once by the caller for a batch.
   */
  async newFilePath(root: UploadRoot, relPath: string, outlived = this.deps.outlived?.(root.id)): Promise<string> {
    const binned = outlived?.get(relPath);
    if (binned === undefined) return remoteFilePath(root, relPath);
    const name = (await assetIfAny(this.deps.api, binned))?.currentAssetFile?.filename;
    return name !== undefined && spellsHere(baseName(relPath), name) ? versionFilePath(root, relPath, name) : remoteFilePath(root, relPath);
  }
}
