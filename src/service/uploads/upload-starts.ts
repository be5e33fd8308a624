/**
 * Starting an upload (API.md §4): a new asset with the upload of its first file, a new version of an
 * existing one, or the resumption of an upload a client still holds, each answered with part URLs
 * signed for the parts asked. Part of the upload service (upload-service.ts), which receives and
 * completes what these start.
 * Must never: place a new asset outside the caller's folder scope, or resume another account's upload.
 */
import type { AssetUpload, UploadJobSuccess } from '../../shared/api/resources.js';
import { partRange, planLayout } from '../../shared/api/part-layout.js';
import { parseRemotePath } from '../../shared/api/remote-path.js';
import { ServiceError, notFound } from '../errors/service-error.js';
import type { Caller } from '../http/request-auth.js';
import type { AssetsRepo, FileRow } from '../assets/assets-repo.js';
import type { ServiceContext } from '../context.js';
import type { FoundOptions } from '../fields/field-options-repo.js';
import type { UploadItem } from './upload-items.js';
import type { UploadRow, UploadsRepo } from './uploads-repo.js';

export class UploadStarts {
  constructor(private readonly deps: { ctx: ServiceContext; assets: AssetsRepo; uploads: UploadsRepo }) {}

  /**
   * asset-and-upload: a new asset in the path's folder, with an upload for its first file. Call inside a
   * transaction. `guestUploadId`: the guest link the upload is started through (never resumed).
   * `found`: the folder options found so far in this transaction (FoundOptions), when it is a batch's.
   */
  createAssetAndUpload(caller: Caller, item: UploadItem, guestUploadId: string | null = null, found?: FoundOptions): UploadJobSuccess {
    const resumed = guestUploadId === null ? this.resume(caller, item) : undefined;
    if (resumed !== undefined) return { assetId: resumed.assetId, upload: resumed };
    const { ctx, assets } = this.deps;
    if (item.path === undefined) throw new ServiceError('INVALID_PATH', 'A new asset needs a "path" such as "/Folder/name.ext".');
    const parsed = parseRemotePath(item.path);
    if (!parsed.ok) throw new ServiceError('INVALID_PATH', `Invalid path: ${parsed.reason}.`);
    const layout = this.layout(item);
    if (parsed.path.folders.length === 0 && caller.folders !== null) {
      throw new ServiceError('FOLDER_OUT_OF_SCOPE', 'Your groups limit you to some folders: upload into one of them, not to the top level.');
    }
    const asset = assets.create(caller.accountId, caller.userId, ctx.nowIso());
    let folderId: string | null = null;
    if (parsed.path.folders.length > 0) {
      const foldersFieldId = this.foldersFieldId(caller.accountId);
      folderId = ctx.fieldOptions.ensurePath(caller.accountId, foldersFieldId, parsed.path.folders, found);
      // (Inside the caller's transaction: a refused folder that ensurePath just made is rolled back.)
      ctx.folderPolicy.requireFolderValues(caller, [{ fieldId: foldersFieldId, operation: 'ADD', values: [folderId] }]);
      assets.addValues(asset.id, foldersFieldId, [folderId]);
    }
    const upload = this.insertUpload(caller, asset.id, null, parsed.path.filename, folderId, item.size, layout, guestUploadId);
    return { assetId: asset.id, upload: this.sign(upload, item) };
  }

  /** A new version of an existing asset (or, with `assetFileId`, new bytes for one of its files). */
  createUpload(caller: Caller, item: UploadItem): AssetUpload {
    const resumed = this.resume(caller, item);
    if (resumed !== undefined) return resumed;
    const { assets } = this.deps;
    if (item.assetId === undefined || item.assetId === null) throw new ServiceError('INVALID_BODY', 'Invalid request: assetId: is required.');
    const asset = assets.get(caller, item.assetId);
    if (asset === undefined) throw notFound('asset', item.assetId);
    let replace: FileRow | undefined;
    if (item.assetFileId !== undefined && item.assetFileId !== null) {
      replace = assets.file(caller, item.assetFileId);
      if (replace?.asset_id !== asset.id) throw notFound('asset file of this asset', item.assetFileId);
    }
    let filename = replace?.filename;
    if (item.path !== undefined) {
      const parsed = parseRemotePath(item.path);
      if (!parsed.ok) throw new ServiceError('INVALID_PATH', `Invalid path: ${parsed.reason}.`);
      filename = parsed.path.filename;
    }
    filename ??= (asset.current_file_id === null ? undefined : assets.file(caller, asset.current_file_id)?.filename) ?? 'untitled';
    const upload = this.insertUpload(caller, asset.id, replace?.id ?? null, filename, null, item.size, this.layout(item));
    return this.sign(upload, item);
  }

  private resume(caller: Caller, item: UploadItem): AssetUpload | undefined {
    const uploadId = item.partUrlsRequest?.uploadId;
    if (uploadId === undefined || uploadId === null) return undefined;
    const upload = this.deps.uploads.get(uploadId);
    if (upload?.account_id !== caller.accountId) throw new ServiceError('UPLOAD_EXPIRED', `Upload ${uploadId} does not exist any more; start a new one.`);
    if (item.assetId !== undefined && item.assetId !== null && item.assetId !== upload.asset_id) throw new ServiceError('INVALID_BODY', `Upload ${uploadId} belongs to another asset.`);
    if (upload.asset_file_id !== null) throw new ServiceError('UPLOAD_ALREADY_COMPLETED');
    if (item.size !== upload.size || (item.partSize !== undefined && item.partSize !== upload.part_size)) {
      throw new ServiceError('INVALID_PART_LAYOUT', `Upload ${uploadId} was created for ${upload.size} bytes in parts of ${upload.part_size}.`);
    }
    this.deps.uploads.touch(uploadId, this.deps.ctx.clock.now());
    return this.sign(upload, item);
  }

  private layout(item: UploadItem): { partSize: number; partCount: number } {
    const layout = planLayout(item.size, item.partSize);
    if (!layout.ok) throw new ServiceError('INVALID_PART_LAYOUT', `The part layout does not add up: ${layout.reason}.`);
    return layout;
  }

  private insertUpload(
    caller: Caller,
    assetId: string,
    replaceFileId: string | null,
    filename: string,
    folderId: string | null,
    size: number,
    layout: { partSize: number; partCount: number },
    guestUploadId: string | null = null,
  ): UploadRow {
    const { ctx, uploads } = this.deps;
    const row = {
      upload_id: ctx.ids.token(),
      id: ctx.ids.uuid(),
      account_id: caller.accountId,
      asset_id: assetId,
      replace_file_id: replaceFileId,
      filename,
      folder_option_id: folderId,
      size,
      part_size: layout.partSize,
      part_count: layout.partCount,
      created_by: caller.userId,
      date_created: ctx.nowIso(),
      last_activity: ctx.clock.now(),
      guest_upload_id: guestUploadId,
    };
    uploads.insert(row);
    return { ...row, asset_file_id: null, completed_parts: null };
  }

  /** The AssetUpload with fresh signed URLs for the requested parts (all parts when none are named). */
  private sign(upload: UploadRow, item: UploadItem): AssetUpload {
    const { ctx } = this.deps;
    const requests = item.partUrlsRequest?.urlRequests ?? [];
    const wanted = requests.length > 0 ? requests : Array.from({ length: upload.part_count }, (_, index) => ({ partNumber: index + 1, contentMd5: undefined }));
    const seen = new Set<number>();
    let expiresAt = ctx.clock.now() + ctx.config.signedUrlTtl * 1000;
    const parts = wanted.map(({ partNumber, contentMd5 }) => {
      if (partNumber > upload.part_count) throw new ServiceError('INVALID_PART_LAYOUT', `Part ${partNumber} is beyond the ${upload.part_count} parts of a ${upload.size}-byte file in ${upload.part_size}-byte parts.`);
      if (seen.has(partNumber)) throw new ServiceError('INVALID_PART_LAYOUT', `Part ${partNumber} is requested twice.`);
      seen.add(partNumber);
      const signed = ctx.signer.sign(`/upload-parts/${upload.upload_id}/${partNumber}`, contentMd5 === undefined ? {} : { md5: contentMd5 }, ctx.config.signedUrlTtl);
      expiresAt = Math.min(expiresAt, signed.expiresAt);
      const { start, end } = partRange(upload.size, upload.part_size, partNumber);
      return { partNumber, url: signed.url, byteRange: { start, end } };
    });
    return {
      id: upload.id,
      uploadId: upload.upload_id,
      assetId: upload.asset_id,
      assetFileId: upload.replace_file_id,
      size: upload.size,
      partSize: upload.part_size,
      expiresAt: new Date(expiresAt).toISOString(),
      parts,
    };
  }

  private foldersFieldId(accountId: string): string {
    const id = this.deps.ctx.fields.foldersFieldId(accountId);
    if (id === undefined) throw new Error('account has no Folders field');
    return id;
  }
}
