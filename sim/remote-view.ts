/**
 * The colleague in the web app and the auditor: changes made straight through the API (without
 * faults), and a listing of every asset, binned ones too, with each version's checksum, for the
 * invariant checks (read from the service's store: store-view.ts). Remote paths here are relative (`A/a.txt`), the sync roots being `/`.
 */
import type { AssetApi } from '../src/main/api/asset-api.js';
import { isApiError } from '../src/main/api/index.js';
import type { MemoryFileSystem } from '../src/main/local/memory-file-system.js';
import type { AssetUpload } from '../src/shared/api/resources.js';
import { aTurn, type StoreView } from './store-view.js';

export interface RemoteAsset {
  id: string;
  /** Folder paths joined with the file name, one per placement (`A/a.txt`; `a.txt` for no folder). */
  paths: string[];
  state: string;
  checksum: string | undefined;
  /** Every version's checksum, the current one included. */
  versions: string[];
}

export class RemoteView {
  private sourceCount = 0;

  constructor(
    private readonly api: AssetApi,
    /** Where the colleague's files come from before they are uploaded. */
    private readonly scratch: MemoryFileSystem,
    /** What the colleague finds and the auditor checks: read from the store, not through the API (store-view.ts). */
    private readonly store: StoreView,
  ) {}

  /** Every asset; `versions: false` leaves each asset's versions out (a lookup by path needs none). */
  assets(options: { versions?: boolean } = {}): RemoteAsset[] {
    return this.store.assets(options);
  }

  /** The current content (MD5) of every live asset: cheap enough to ask after every step. */
  liveChecksums(): string[] {
    return this.store.liveChecksums();
  }

  /** The live asset at a path, if exactly one is there. */
  async at(path: string): Promise<RemoteAsset | undefined> {
    await aTurn();
    const found = this.assets({ versions: false }).filter((asset) => asset.state !== 'BINNED' && asset.paths.includes(path));
    return found.length === 1 ? found[0] : undefined;
  }

  /** A new asset at `path`, or a new version of the one there. */
  async write(path: string, content: string): Promise<void> {
    const bytes = Buffer.from(content);
    const existing = await this.at(path);
    let upload: AssetUpload;
    if (existing === undefined) {
      const outcome = await this.api.createAssetsWithUploads([{ batchItemId: 'one', path: `/${path}`, size: bytes.length }]);
      const success = outcome.successes.one;
      if (success === undefined) throw new Error(`the colleague could not create /${path}: ${outcome.failures.one?.message ?? 'no answer'}`);
      upload = success.upload;
    } else {
      upload = await this.api.createUpload({ assetId: existing.id, assetFileId: null, size: bytes.length });
    }
    const source = `/colleague/${this.sourceCount++}`;
    this.scratch.writeFile(source, bytes);
    const parts = [];
    for (const part of upload.parts) {
      const answer = await this.api.putPart({ url: part.url, filePath: source, start: part.byteRange.start, end: part.byteRange.end });
      parts.push({ partNumber: part.partNumber, eTag: answer.eTag });
    }
    await this.api.completeUpload({ assetId: upload.assetId, uploadId: upload.uploadId, parts });
  }

  async rename(path: string, name: string): Promise<boolean> {
    const asset = await this.at(path);
    if (asset === undefined) return false;
    await this.api.changeAsset(asset.id, { filename: name });
    return true;
  }

  async move(path: string, dir: string): Promise<boolean> {
    const asset = await this.at(path);
    if (asset === undefined) return false;
    const fieldId = await this.foldersFieldId();
    const values = dir === '' ? [] : [await this.folder(dir)];
    await this.api.editMetadata({ type: 'BY_IDS', assetIds: [asset.id] }, [{ fieldId, type: 'BY_IDS', values, operation: 'REPLACE' }]);
    return true;
  }

  async bin(path: string): Promise<boolean> {
    const asset = await this.at(path);
    if (asset === undefined) return false;
    await this.api.transitionLifecycle({ type: 'BY_IDS', assetIds: [asset.id] }, 'BINNED');
    return true;
  }

  /**
   * Renames the folder at `path` (its option, as the web app does: every asset in it follows); false
   * when no such folder exists or a sibling already has the name (the service's 409).
   */
  async renameFolder(path: string, name: string): Promise<boolean> {
    let option: { id: string } | undefined;
    for (const value of path.split('/')) {
      option = (await this.children(option?.id ?? null)).find((child) => child.value === value);
      if (option === undefined) return false;
    }
    if (option === undefined) return false;
    try {
      await this.api.changeFieldOption(option.id, { value: name });
    } catch (error) {
      if (isApiError(error, 'FIELD_OPTION_CONFLICT')) return false;
      throw error;
    }
    return true;
  }

  /** The Folders field's id, found as the web app knows it: read from the store (store-view.ts). */
  private async foldersFieldId(): Promise<string> {
    await aTurn();
    return this.store.foldersFieldId();
  }

  /** The folders below an option (null: the top level), read from the store as a listing would answer them. */
  private async children(parentId: string | null): Promise<{ id: string; value: string }[]> {
    await aTurn();
    return this.store.folderChildren(parentId);
  }

  /** The option of a folder path (`A/C`), created when missing. */
  private async folder(path: string): Promise<string> {
    const fieldId = await this.foldersFieldId();
    let parent: string | null = null;
    for (const value of path.split('/')) {
      const children = await this.children(parent);
      const found = children.find((option) => option.value === value);
      if (found !== undefined) {
        parent = found.id;
        continue;
      }
      const created = await this.api.createFieldOptions([{ batchItemId: 'f', fieldId, value, parentId: parent }]);
      const option = created.successes.f;
      if (option === undefined) throw new Error(`the colleague could not create folder ${value}`);
      parent = option.id;
    }
    if (parent === null) throw new Error('no folder');
    return parent;
  }
}
