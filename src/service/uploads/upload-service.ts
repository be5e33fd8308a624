/**
 * The upload flows of API.md §4: create uploads (with their assets, for new files) and sign their part
 * URLs (upload-starts.ts), receive parts, complete; uploads that end otherwise: upload-endings.ts. Part bytes stream straight into their place in one file per upload (never
 * whole parts in memory, part-writer.ts). Every digest — the part's MD5 (its ETag), the whole file's
 * MD5 and SHA-256 — is computed while the bytes land (upload-digests.ts): a small part's on the event
 * loop from its chunks, a large part's by a digest worker, so completion only hashes what is left,
 * then renames the file into the blob store. A small one-part upload that its PUT completes is the
 * exception: its bytes are held in memory and kept in the database with the AssetFile that references
 * them (blobs/inline-blobs.ts), never written to a file.
 *
 * A guest's upload (started through a guest link) is the guest's alone: its part PUT only receives the
 * part, never completes it and never answers the asset (completion goes through the link, which answers
 * the guest only what they sent), and deleting the link ends it.
 *
 * Must never: accept a part that does not have exactly its range's size, report a part as received
 * before its bytes are written, or let a half-written part count after a crash (the row is removed
 * before the bytes are touched and written after they are).
 */
import { existsSync, rmSync, statSync } from 'node:fs';
import { open, truncate } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { makePrivateDir } from '../data-dir/private-files.js';
import type { Asset, AssetUpload, UploadJobSuccess } from '../../shared/api/resources.js';
import { partRange } from '../../shared/api/part-layout.js';
import { ServiceError, notFound } from '../errors/service-error.js';
import { may } from '../auth/permissions.js';
import { callerOf, type Caller } from '../http/request-auth.js';
import type { ScopedAccount } from '../groups/folder-scope.js';
import type { AssetRow, AssetsRepo, FileRow } from '../assets/assets-repo.js';
import type { ServiceContext } from '../context.js';
import { describeFile } from '../media/describe-file.js';
import { syncAll, withDescriptor } from '../io/descriptor-calls.js';
import type { BlobStore } from '../blobs/blob-store.js';
import { INLINE_BLOB_BYTES } from '../blobs/inline-blobs.js';
import { WriteBatches } from '../db/write-batches.js';
import { DigestPool } from './digest-pool.js';
import { receivePartInMemory, writePart } from './part-writer.js';
import { UploadDigests, type DigestLayout } from './upload-digests.js';
import type { FoundOptions } from '../fields/field-options-repo.js';
import type { UploadItem } from './upload-items.js';
import { UploadStarts } from './upload-starts.js';
import { UploadEndings } from './upload-endings.js';
import type { UploadRow, UploadsRepo } from './uploads-repo.js';

export interface CompletionBody {
  assetId: string;
  uploadId: string;
  parts: { partNumber: number; eTag: string }[];
}

/** A one-part upload completed by its PUT [ours]: the asset, and whom the completion acted for. */
export interface CompletedByPart {
  asset: Asset;
  caller: Caller;
}

/** What a part PUT answers: the part's ETag, and the asset when the PUT also completed the upload. */
export interface ReceivedPart {
  etag: string;
  completed?: CompletedByPart;
}

export interface UploadServiceDeps {
  ctx: ServiceContext;
  assets: AssetsRepo;
  uploads: UploadsRepo;
  blobs: BlobStore;
  uploadsDir: string;
  /** Renders an asset in wire form (with its preview URL). */
  renderAsset(who: ScopedAccount, assetId: string): Asset;
  /** Renders an asset row in wire form, given its current file's row and its values. */
  renderRow(who: Caller, row: AssetRow, currentFile: FileRow, values: Record<string, string[]>): Asset;
  /** Told of each file an upload stored, once it is committed (queues its preview); must return at once. */
  onFileStored?(file: FileRow): void;
}

export class UploadService {
  private readonly pool = new DigestPool();
  private readonly digests: UploadDigests;
  /** Parts being written right now, per upload: a second writer of the same part must wait. */
  private readonly inFlight = new Map<string, Set<number>>();
  private readonly completing = new Set<string>();
  private readonly writes: WriteBatches;
  private readonly starts: UploadStarts;
  /** How open uploads end without completing (abandoned, their asset, file or guest link deleted). */
  readonly endings: UploadEndings;

  constructor(private readonly deps: UploadServiceDeps) {
    makePrivateDir(deps.uploadsDir);
    this.starts = new UploadStarts(deps);
    this.writes = new WriteBatches(deps.ctx.db);
    this.digests = new UploadDigests(this.pool, (uploadId, partNumber) => deps.uploads.hasPart(uploadId, partNumber));
    this.endings = new UploadEndings({
      ...deps,
      fileOf: (uploadId) => this.fileOf(uploadId),
      dropDigests: (uploadId) => this.digests.drop(uploadId),
      busy: (uploadId) => this.inFlight.has(uploadId) || this.completing.has(uploadId),
    });
  }

  /**
   * asset-and-upload: a new asset in the path's folder, with an upload for its first file. Call inside a
   * transaction. `guestUploadId`: the guest link the upload is started through (never resumed).
   * `found`: the folder options found so far in this transaction, when it is a batch's (FoundOptions).
   */
  createAssetAndUpload(caller: Caller, item: UploadItem, guestUploadId: string | null = null, found?: FoundOptions): UploadJobSuccess {
    return this.starts.createAssetAndUpload(caller, item, guestUploadId, found);
  }

  /** A new version of an existing asset (or, with `assetFileId`, new bytes for one of its files). */
  createUpload(caller: Caller, item: UploadItem): AssetUpload {
    return this.starts.createUpload(caller, item);
  }

  /**
   * Receives one part: checks it against its signed URL and range, streams it into place, answers its
   * ETag. With `complete`, a one-part upload is completed by the same PUT, as its creator would [ours]:
   * the part is then never recorded on its own, and one commit makes the file the asset's. Anything
   * that stands in the way of completing (the creator may no longer upload, a failed completion before
   * the bytes moved) records the part instead and answers it alone; the client then completes with
   * POST /asset-upload-completions, which reports the reason. A guest's upload is never completed here:
   * its part is recorded and answered alone, and the guest completes through their link.
   */
  async receivePart(
    uploadId: string,
    partNumber: number,
    body: Readable,
    headers: { contentLength?: string | undefined; contentMd5?: string | undefined },
    boundMd5: string | undefined,
    options: { complete?: boolean } = {},
  ): Promise<ReceivedPart> {
    const { uploads } = this.deps;
    const found = uploads.forPart(uploadId, partNumber);
    if (found === undefined) throw new ServiceError('UPLOAD_EXPIRED');
    const { upload } = found;
    if (upload.asset_file_id !== null) throw new ServiceError('UPLOAD_ALREADY_COMPLETED', 'This upload is already completed; its parts can no longer change.');
    if (partNumber > upload.part_count) throw new ServiceError('INVALID_PART_LAYOUT', `Part ${partNumber} is beyond this upload's ${upload.part_count} parts.`);
    const range = partRange(upload.size, upload.part_size, partNumber);
    const expected = range.end - range.start;
    if (headers.contentLength !== undefined && Number(headers.contentLength) !== expected) {
      throw new ServiceError('INVALID_PART_SIZE', `Part ${partNumber} must be ${expected} bytes, the request says ${headers.contentLength}.`);
    }
    if (boundMd5 !== undefined && headers.contentMd5 !== boundMd5) {
      throw new ServiceError('BAD_DIGEST', 'This part URL was signed for a Content-MD5; send that Content-MD5 header.');
    }
    const busy = this.inFlight.get(uploadId) ?? new Set<number>();
    if (busy.has(partNumber) || this.completing.has(uploadId)) throw new ServiceError('PART_UPLOAD_IN_PROGRESS', undefined, { 'retry-after': '1' });
    busy.add(partNumber);
    this.inFlight.set(uploadId, busy);
    const layout = this.digestLayout(upload);
    let recorded = false;
    let ended = false;
    try {
      // Asked with the upload above: most parts arrive once, and a DELETE of nothing still takes SQLite's write lock.
      if (found.hasPart) uploads.forgetPart(uploadId, partNumber);
      // A small whole file this PUT completes is held, not written: its blob is kept inline.
      const inline = options.complete === true && upload.part_count === 1 && expected > 0 && expected <= INLINE_BLOB_BYTES;
      // A part PUT again rewrites bytes the running whole-file digest may already have read: the
      // digest is dropped when it reached this range, and otherwise stops in front of it. Bytes held
      // here are not kept by the digest too.
      this.digests.partStarting(layout, partNumber, inline);
      const hooks = {
        onChunk: (chunk: Buffer) => {
          this.digests.partReceived(layout, partNumber, chunk);
        },
        onWritten: (bytes: number) => {
          this.digests.partWritten(layout, partNumber, bytes);
        },
      };
      const held = inline ? await receivePartInMemory(expected, body, hooks) : undefined;
      if (!inline) await writePart({ file: layout.file, start: range.start, size: expected }, body, hooks);
      // Hashed as the bytes arrived (small parts) or by the digest worker as the batches landed (and
      // while the bytes synced).
      const md5 = await this.digests.partMd5(layout, partNumber).catch((error: unknown) => {
        // A discarded upload takes its digests along: answered as expired just below.
        if (!uploads.exists(uploadId)) return '';
        throw error;
      });
      const digestMatches = boundMd5 === undefined || Buffer.from(md5, 'hex').toString('base64') === boundMd5;
      const completer =
        options.complete === true && upload.part_count === 1 && upload.guest_upload_id === null && digestMatches && md5 !== '' ? this.uploaderOf(upload) : undefined;
      if (completer !== undefined) {
        // The part is whole and its digest is the file's: ended as recorded, so completion finds it.
        this.digests.partEnded(layout, partNumber, true);
        ended = true;
        const completed = await this.completeOnePart(completer, upload, md5, held);
        if (completed.answer !== undefined) return { etag: md5, completed: completed.answer };
        recorded = completed.recorded;
      } else if (digestMatches) {
        if (held !== undefined) await this.writeHeld(upload, held);
        recorded = await this.recordPart(upload, partNumber, expected, md5);
      }
      if (!recorded && !uploads.exists(uploadId)) {
        // The upload was discarded (its asset deleted) while the bytes arrived; writing may have
        // re-created its file, which nothing would ever sweep.
        rmSync(this.fileOf(uploadId), { force: true });
        throw new ServiceError('UPLOAD_EXPIRED');
      }
      if (!digestMatches) throw new ServiceError('BAD_DIGEST');
      return { etag: md5 };
    } finally {
      // A part that failed leaves bytes that can no longer be trusted: a digest that read them is dropped.
      // (A completing PUT has ended its part already.)
      if (!ended) this.digests.partEnded(layout, partNumber, recorded);
      busy.delete(partNumber);
      if (busy.size === 0) this.inFlight.delete(uploadId);
    }
  }

  /** The upload's creator as a caller, while they may still upload (a completing PUT acts for them). */
  private uploaderOf(upload: UploadRow): Caller | undefined {
    const member = this.deps.ctx.sessions.byAccount(upload.account_id, upload.created_by);
    if (member === undefined || !may(member.role, 'ASSET', 'UPLOAD')) return undefined;
    return callerOf(member, this.deps.ctx.folderPolicy);
  }

  /**
   * Completes a one-part upload whose part has just been written and hashed, for its creator (the PUT
   * is still in flight, so no other writer of the part and no completion can run). Without `answer`,
   * `recorded` says whether the part was recorded instead, for a later completion.
   */
  private async completeOnePart(caller: Caller, upload: UploadRow, md5: string, held: Buffer | undefined): Promise<{ answer?: CompletedByPart; recorded: boolean }> {
    try {
      // Its one part was forgotten before its bytes were written (receivePart) and is not recorded: no part rows.
      const asset = await this.finishUpload(caller, upload, [{ partNumber: 1, eTag: md5 }], { held, partsRecorded: false });
      return { answer: { asset, caller }, recorded: true };
    } catch (error) {
      // Bytes held in memory were not kept (nothing committed): written now, they serve a later
      // completion. Only while file bytes are still in uploads/ (the failure came before they moved)
      // can a later completion use them; otherwise the PUT fails and the client sends the part again.
      if (held !== undefined && this.deps.uploads.exists(upload.upload_id)) {
        try {
          await this.writeHeld(upload, held);
        } catch {
          throw error;
        }
      }
      if (!existsSync(this.fileOf(upload.upload_id))) throw error;
      this.deps.ctx.log.warn({ err: error, uploadId: upload.upload_id }, 'completing an upload with its part failed; the client completes it');
      return { recorded: await this.recordPart(upload, 1, upload.size, md5) };
    }
  }

  /** Writes (and syncs) a one-part upload's bytes held in memory to its file in uploads/, as a PUT would have. */
  private async writeHeld(upload: UploadRow, held: Buffer): Promise<void> {
    await writePart({ file: this.fileOf(upload.upload_id), start: 0, size: held.length }, Readable.from([held]));
  }

  /**
   * Records a part whose bytes are durable, and refreshes the upload's activity when it is stale; false
   * when the upload no longer exists (one statement checks and records). In a transaction shared with the
   * other parts and completions ready in this turn (write-batches.ts).
   */
  private recordPart(upload: UploadRow, partNumber: number, size: number, md5: string): Promise<boolean> {
    const { uploads, ctx } = this.deps;
    const now = ctx.clock.now();
    return this.writes.run(() => {
      const put = uploads.putPart(upload.upload_id, partNumber, size, md5);
      if (put && now - upload.last_activity >= this.activityGranularity()) uploads.touch(upload.upload_id, now);
      return put;
    });
  }

  /** Completes an upload: all parts present with matching ETags → the file becomes the asset's current file. */
  async complete(caller: Caller, body: CompletionBody): Promise<Asset> {
    const { uploads } = this.deps;
    const upload = uploads.get(body.uploadId);
    if (upload?.account_id !== caller.accountId || upload.asset_id !== body.assetId) throw notFound('upload', body.uploadId);
    const given = normaliseParts(body.parts);
    if (upload.asset_file_id !== null) {
      if (upload.completed_parts !== JSON.stringify(given)) throw new ServiceError('UPLOAD_ALREADY_COMPLETED');
      return this.deps.renderAsset(caller, upload.asset_id);
    }
    this.checkParts(upload, given);
    if (this.completing.has(upload.upload_id) || (this.inFlight.get(upload.upload_id)?.size ?? 0) > 0) {
      throw new ServiceError('PART_UPLOAD_IN_PROGRESS', 'Parts of this upload are still being received or it is being completed.', { 'retry-after': '1' });
    }
    this.completing.add(upload.upload_id);
    try {
      return await this.finishUpload(caller, upload, given, { partsRecorded: true });
    } finally {
      this.completing.delete(upload.upload_id);
    }
  }

  /**
   * Makes an upload's file the asset's: checks the bytes are all there, takes the file's digest and
   * type, moves the bytes into the blob store and commits the AssetFile. `held`: the whole file's bytes,
   * received into memory by the completing PUT and never written; they are kept inline, committed with
   * the AssetFile. `partsRecorded`: whether the upload may have part rows, removed on completion. The
   * caller has checked the parts and keeps any other writer or completion of the upload away.
   */
  private async finishUpload(
    caller: Caller,
    upload: UploadRow,
    given: { partNumber: number; eTag: string }[],
    { held, partsRecorded }: { held?: Buffer | undefined; partsRecorded: boolean },
  ): Promise<Asset> {
    const { uploads, assets, blobs, ctx } = this.deps;
    try {
      const file = this.fileOf(upload.upload_id);
      // Every recorded part's bytes were written and synced before its row: with all parts recorded, a
      // file that is gone or short has lost bytes (a crash took it, or someone removed it). Never pad
      // it with zeros into a file: the upload is over, and the client starts a new one.
      if (held === undefined && (statSync(file, { throwIfNoEntry: false })?.size ?? 0) < upload.size) {
        this.endings.discard(upload.upload_id);
        throw new ServiceError('UPLOAD_EXPIRED', 'The bytes received for this upload were lost; start a new upload.');
      }
      const resized = held === undefined && (await this.ensureSize(file, upload.size));
      // Side by side: the digest's last bytes, the type sniffing, and a sync when one is needed. Each
      // part's bytes were fdatasync'ed before the part was recorded, and fdatasync also makes the size
      // they gave the file durable; only a file that ensureSize had to create or resize, or an empty
      // one (whose 0-byte part wrote nothing to sync), needs its own fsync here.
      // A small one-part upload's bytes are still in memory from its PUT: sniffed from there.
      const kept = held ?? this.digests.keptFile(upload.upload_id);
      const [digest, description] = await Promise.all([
        this.digests.finish(this.digestLayout(upload)),
        describeFile(file, upload.filename, upload.size, kept),
        resized || (held === undefined && upload.size === 0) ? syncFile(file) : undefined,
      ]);
      // Bytes to move into the blob store are only moved for an asset that is there (checked again,
      // with its values read, in the transaction that commits the file); held bytes move in that transaction.
      if (held === undefined && assets.get(caller, upload.asset_id) === undefined) throw notFound('asset', upload.asset_id);
      // Replacing the bytes of a file that no longer exists would leave the asset's current file dangling.
      if (upload.replace_file_id !== null && assets.file(caller, upload.replace_file_id) === undefined) {
        throw notFound('asset file', upload.replace_file_id);
      }
      if (held === undefined) await blobs.adopt(file, digest.sha256);
      const now = ctx.nowIso();
      const row: FileRow = {
        id: upload.replace_file_id ?? assets.newFileId(),
        account_id: caller.accountId,
        asset_id: upload.asset_id,
        filename: upload.filename,
        size: upload.size,
        checksum: digest.md5,
        sha256: digest.sha256,
        media_type: description.mediaType.type,
        media_subtype: description.mediaType.subType,
        file_type: description.fileType,
        width: description.dimensions?.width ?? null,
        height: description.dimensions?.height ?? null,
        date_added: now,
        added_by: caller.userId,
      };
      // Committed together with the completions that get here in the same turn (write-batches.ts). The
      // answer is rendered from the rows just written, inside the transaction: no read-back.
      const { freed, answer } = await this.writes.run(() => {
        // The asset as the caller reaches it now, with its values (adding a file changes none of them).
        const found = assets.getWithValues(caller, upload.asset_id);
        if (found === undefined) throw notFound('asset', upload.asset_id);
        if (held !== undefined) blobs.keepInline(digest.sha256, held);
        const put = assets.putFile(row, upload.replace_file_id !== null, caller.userId, now);
        if (put.asset === undefined) throw notFound('asset', upload.asset_id);
        uploads.markCompleted(upload.upload_id, row.id, JSON.stringify(given), partsRecorded);
        return { freed: put.freed, answer: this.deps.renderRow(caller, put.asset, row, found.values) };
      });
      if (freed !== undefined) blobs.remove(freed);
      this.deps.onFileStored?.(row);
      return answer;
    } catch (error) {
      if (error instanceof ServiceError && error.code === 'UPLOAD_EXPIRED') throw error;
      if (uploads.get(upload.upload_id) === undefined) {
        // Discarded (its asset deleted) while the file was being hashed: the file is gone or was
        // re-created empty by ensureSize, and the failure is the client's expected one, not a bug.
        rmSync(this.fileOf(upload.upload_id), { force: true });
        throw new ServiceError('UPLOAD_EXPIRED', undefined, {}, { cause: error });
      }
      throw error;
    }
  }

  /**
   * How stale an upload's last_activity may get before a part PUT writes it again: 1 % of the
   * abandonment period, at most a minute (so at most a minute early, of 7 days by default). A one-part
   * upload PUT right after it was created then costs one row write instead of two.
   */
  private activityGranularity(): number {
    return Math.min(60_000, this.deps.ctx.config.uploadAbandonAfter * 10);
  }

  close(): Promise<void> {
    this.digests.close();
    return this.pool.close();
  }

  private checkParts(upload: UploadRow, given: { partNumber: number; eTag: string }[]): void {
    if (given.length !== upload.part_count || given.some((part, index) => part.partNumber !== index + 1)) {
      throw new ServiceError('INVALID_PART_LAYOUT', `Completion must list parts 1…${upload.part_count}, each once.`);
    }
    const stored = new Map(this.deps.uploads.parts(upload.upload_id).map((part) => [part.part_number, part]));
    const missing = given.filter((part) => !stored.has(part.partNumber)).map((part) => part.partNumber);
    if (missing.length > 0) throw new ServiceError('UPLOAD_INCOMPLETE', `Parts not received yet: ${missing.slice(0, 20).join(', ')}${missing.length > 20 ? '…' : ''}.`);
    const wrong = given.find((part) => stored.get(part.partNumber)?.etag !== part.eTag);
    if (wrong !== undefined) throw new ServiceError('UPLOAD_ETAG_MISMATCH', `The eTag of part ${wrong.partNumber} does not match the part received.`);
  }

  /** Makes the file exist with exactly `size` bytes (an empty upload has none yet); answers whether it had to change it. */
  private async ensureSize(file: string, size: number): Promise<boolean> {
    // A stat of a file just written is served from the inode cache: cheaper here than a pool round trip.
    const info = statSync(file, { throwIfNoEntry: false });
    if (info === undefined) {
      const handle = await open(file, 'w', 0o600);
      await handle.close();
    }
    if (info?.size === size) return false;
    await truncate(file, size);
    return true;
  }

  private digestLayout(upload: UploadRow): DigestLayout {
    return { uploadId: upload.upload_id, file: this.fileOf(upload.upload_id), size: upload.size, partSize: upload.part_size, partCount: upload.part_count };
  }

  private fileOf(uploadId: string): string {
    return join(this.deps.uploadsDir, `${uploadId}.upload`);
  }
}

function syncFile(file: string): Promise<void> {
  return withDescriptor(file, 'r+', syncAll);
}

function normaliseParts(parts: CompletionBody['parts']): { partNumber: number; eTag: string }[] {
  return [...parts]
    .map((part) => ({ partNumber: part.partNumber, eTag: part.eTag.replace(/^W\//, '').replace(/"/g, '').toLowerCase() }))
    .sort((a, b) => a.partNumber - b.partNumber);
}
