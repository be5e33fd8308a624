/**
 * Guest uploads (SERVICE-SPEC §2.10): a link that lets someone without an account upload files
 * into one folder. Managing links (`/guest-uploads`, bearer) is for admins and members; the creator and
 * admins see a link, others get 404. Guests (unauthenticated, the link's secret key in the path):
 * `GET /public/guest-uploads/{key}`, `POST /public/guest-uploads/{key}/uploads` (an asset and its upload,
 * through the ordinary upload service, so the parts go to the usual signed part URLs) and
 * `POST /public/guest-uploads/{key}/completions`. Assets land STAGED, as every new upload does, for
 * someone in the account to approve; they are staged by the link's creator, on whose behalf the guest
 * uploads (a creator who left the account closes the link).
 *
 * A folder-limited creator aims a link only at a folder inside their limit (groups/folder-policy.ts).
 *
 * Limits: a file larger than the link's `maxFileSize` is refused before anything is made (413
 * GUEST_UPLOAD_TOO_LARGE); once `maxFiles` files have been started (and still exist), further ones are
 * refused (409 GUEST_UPLOAD_LIMIT_REACHED). The declared size binds the part URLs, so no more bytes than
 * declared can arrive. An unknown, deleted or expired link is 404.
 *
 * Deleting a link ends its unfinished uploads here, with the link: their bytes, records and empty assets
 * go, so their part URLs answer UPLOAD_EXPIRED and write nothing. A guest is answered only what they
 * need: the part URLs of their own upload, a part's ETag (its PUT never completes, upload-service.ts)
 * and, for a completion, the file name, size and checksum they sent — never the account's ids, the
 * asset, folder ids or signed URLs of what was stored.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { nameProblem } from '../../shared/api/remote-path.js';
import { MAX_FILE_SIZE } from '../../shared/api/part-layout.js';
import type { ServiceContext } from '../context.js';
import { ServiceError, notFound } from '../errors/service-error.js';
import { envelope } from '../http/envelope.js';
import { parseInput } from '../http/parse-input.js';
import { parseBody } from '../http/route-bodies.js';
import { oneLineName } from '../http/one-line-name.js';
import { caller, callerOf, type Caller } from '../http/request-auth.js';
import type { UploadService } from '../uploads/upload-service.js';
import type { GuestUploadRow, GuestUploadsRepo } from './guest-uploads-repo.js';

export const DEFAULT_MAX_FILE_SIZE = 1024 ** 3;
export const DEFAULT_MAX_FILES = 100;

const idParams = z.object({ id: z.string().min(1).max(200) });
const keyParams = z.object({ key: z.string().min(1).max(200) });
const name = oneLineName;
const maxFileSize = z.number().int().min(1).max(MAX_FILE_SIZE);
const maxFiles = z.number().int().min(1).max(10_000);
const expiresAt = z.iso.datetime({ offset: true, message: 'must be an ISO-8601 date-time' }).nullable().optional();
const createBody = z.object({ name, folderId: z.string().min(1).max(200), maxFileSize: maxFileSize.optional(), maxFiles: maxFiles.optional(), expiresAt });
// `expiresAt: null`: the link never expires; left out, each property is kept.
const patchBody = z.object({ name: name.optional(), maxFileSize: maxFileSize.optional(), maxFiles: maxFiles.optional(), expiresAt });
const guestUploadBody = z.object({
  filename: z.string().min(1).max(1000),
  size: z.number().int().min(0).max(MAX_FILE_SIZE),
  partSize: z.number().int().positive().max(MAX_FILE_SIZE).optional(),
});
const guestCompletionBody = z.object({
  assetId: z.string().min(1).max(200),
  uploadId: z.string().min(1).max(200),
  parts: z.array(z.object({ partNumber: z.number().int().min(1).max(10_000), eTag: z.string().min(1).max(200) })).min(1).max(10_000),
});

const GONE_MESSAGE = 'No guest upload link with this key, or it has expired or been deleted.';

export function registerGuestUploadRoutes(app: FastifyInstance, ctx: ServiceContext, deps: { guestUploads: GuestUploadsRepo; uploads: UploadService }): void {
  const { guestUploads, uploads } = deps;
  const expired = (row: GuestUploadRow): boolean => row.date_expires !== null && Date.parse(row.date_expires) <= ctx.clock.now();
  const render = (row: GuestUploadRow) => ({
    id: row.id,
    accountId: row.account_id,
    name: row.name,
    folderId: row.folder_id,
    maxFileSize: row.max_file_size,
    maxFiles: row.max_files,
    filesUploaded: guestUploads.filesUploaded(row.id),
    expiresAt: row.date_expires,
    expired: expired(row),
    createdBy: row.created_by,
    dateCreated: row.date_created,
  });
  const actions = (id: string) => ['VIEW', 'EDIT', 'DELETE'].map((action) => ({ resourceType: 'GUEST_UPLOAD', resourceId: id, action }));
  const mayManage = (who: Caller, row: GuestUploadRow): boolean => who.role === 'admin' || row.created_by === who.userId;
  const load = (who: Caller, params: unknown): GuestUploadRow => {
    const { id } = parseInput(idParams, params, 'INVALID_PATH');
    const row = guestUploads.get(who.accountId, id);
    if (row === undefined || !mayManage(who, row)) throw notFound('guest upload link', id);
    return row;
  };
  const checkExpiry = (value: string | null | undefined): string | null => {
    if (value === undefined || value === null) return null;
    const at = Date.parse(value);
    if (at <= ctx.clock.now()) throw new ServiceError('INVALID_BODY', 'expiresAt: is in the past; delete the link to end it now.');
    return new Date(at).toISOString();
  };
  /** The folder's path from the top, e.g. ["Brand", "Inbox"] (undefined: not a folder of the account). */
  const folderPath = (accountId: string, folderId: string): string[] | undefined => {
    const folders = ctx.fields.byRole(accountId, 'FOLDERS');
    const option = ctx.fieldOptions.get(accountId, folderId);
    if (folders === undefined || option?.field_id !== folders.id) return undefined;
    return ctx.fieldOptions
      .ancestry(accountId, folderId)
      .map((id) => ctx.fieldOptions.get(accountId, id)?.value ?? '')
      .reverse();
  };
  /** The open link of a key, and the creator the guest uploads for. */
  const open = (params: unknown): { row: GuestUploadRow; uploader: Caller } => {
    const { key } = parseInput(keyParams, params, 'INVALID_PATH');
    const row = guestUploads.byKey(key);
    const member = row === undefined ? undefined : ctx.sessions.byAccount(row.account_id, row.created_by);
    if (row === undefined || member === undefined || expired(row)) throw new ServiceError('NOT_FOUND', GONE_MESSAGE);
    return { row, uploader: callerOf(member, ctx.folderPolicy) };
  };

  app.get('/guest-uploads', async (request) => {
    const who = caller(request);
    const rows = guestUploads.ofAccount(who.accountId).filter((row) => mayManage(who, row));
    return { results: rows.map((row) => envelope(render(row), actions(row.id))), totalResults: rows.length };
  });

  app.post('/guest-uploads', { config: { body: createBody } }, async (request) => {
    const who = caller(request);
    if (who.role === 'viewer') throw new ServiceError('FORBIDDEN', 'Your role (viewer) may not make guest upload links.');
    const body = parseBody(request, createBody);
    if (folderPath(who.accountId, body.folderId) === undefined) throw new ServiceError('NOT_FOUND', `No folder with id ${JSON.stringify(body.folderId)}.`);
    ctx.folderPolicy.requireFolderTarget(who, body.folderId, 'guest upload link');
    const { row, key } = guestUploads.create({
      account_id: who.accountId,
      name: body.name,
      folder_id: body.folderId,
      max_file_size: body.maxFileSize ?? DEFAULT_MAX_FILE_SIZE,
      max_files: body.maxFiles ?? DEFAULT_MAX_FILES,
      created_by: who.userId,
      date_created: ctx.nowIso(),
      date_expires: checkExpiry(body.expiresAt),
    });
    // The key is in the clear only now: the service keeps its hash.
    return envelope({ ...render(row), key, url: `${ctx.baseUrl()}/public/guest-uploads/${key}` }, actions(row.id));
  });

  app.get('/guest-uploads/:id', async (request) => {
    const row = load(caller(request), request.params);
    return envelope(render(row), actions(row.id));
  });

  app.patch('/guest-uploads/:id', { config: { body: patchBody } }, async (request) => {
    const row = load(caller(request), request.params);
    const body = parseBody(request, patchBody);
    const updated: GuestUploadRow = {
      ...row,
      name: body.name ?? row.name,
      max_file_size: body.maxFileSize ?? row.max_file_size,
      max_files: body.maxFiles ?? row.max_files,
      date_expires: body.expiresAt === undefined ? row.date_expires : checkExpiry(body.expiresAt),
    };
    guestUploads.update(updated);
    return envelope(render(updated), actions(row.id));
  });

  app.delete('/guest-uploads/:id', async (request) => {
    const row = load(caller(request), request.params);
    const before = render(row);
    ctx.db.transaction(() => {
      uploads.endings.endGuestUploads(row.id);
      guestUploads.remove(row.id);
    })();
    return envelope(before);
  });

  app.get('/public/guest-uploads/:key', { config: { public: true } }, async (request) => {
    const { row } = open(request.params);
    const path = folderPath(row.account_id, row.folder_id) ?? [];
    const uploaded = guestUploads.filesUploaded(row.id);
    return {
      result: { name: row.name, folder: path.join('/'), maxFileSize: row.max_file_size, maxFiles: row.max_files, filesRemaining: Math.max(0, row.max_files - uploaded), expiresAt: row.date_expires },
      permittedActions: [],
    };
  });

  app.post('/public/guest-uploads/:key/uploads', { config: { public: true, body: guestUploadBody } }, async (request) => {
    const { row, uploader } = open(request.params);
    const body = parseBody(request, guestUploadBody);
    const filename = body.filename.normalize('NFC');
    const problem = nameProblem(filename);
    if (problem !== undefined) throw new ServiceError('INVALID_PATH', `The file name ${problem}.`);
    if (body.size > row.max_file_size) {
      throw new ServiceError('GUEST_UPLOAD_TOO_LARGE', `The file has ${body.size} bytes; this link takes files of at most ${row.max_file_size} bytes.`);
    }
    if (guestUploads.filesUploaded(row.id) >= row.max_files) {
      throw new ServiceError('GUEST_UPLOAD_LIMIT_REACHED', `This link takes at most ${row.max_files} files, and they have all been sent.`);
    }
    const folder = folderPath(row.account_id, row.folder_id);
    if (folder === undefined) throw new ServiceError('NOT_FOUND', GONE_MESSAGE);
    // A fresh item, never a resume: a guest must not reach another upload of the link's creator.
    const item = { path: `/${[...folder, filename].join('/')}`, size: body.size, partSize: body.partSize, partUrlsRequest: { urlRequests: [] } };
    const created = ctx.db.transaction(() => {
      const success = uploads.createAssetAndUpload(uploader, item, row.id);
      guestUploads.addAsset(row.id, success.assetId);
      return success;
    })();
    return { result: created, permittedActions: [] };
  });

  app.post('/public/guest-uploads/:key/completions', { config: { public: true, body: guestCompletionBody } }, async (request) => {
    const { row, uploader } = open(request.params);
    const body = parseBody(request, guestCompletionBody);
    if (!guestUploads.hasAsset(row.id, body.assetId)) throw new ServiceError('NOT_FOUND', `No upload of asset ${JSON.stringify(body.assetId)} through this link.`);
    const asset = await uploads.complete(uploader, body);
    const file = asset.currentAssetFile;
    return { result: { filename: file?.filename ?? null, size: file?.size ?? null, checksum: file?.checksum ?? null }, permittedActions: [] };
  });
}
