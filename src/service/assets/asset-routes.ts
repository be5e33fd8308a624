/**
 * Assets and their files: get, patch (metadata values and the current file's name), permanent
 * delete, empty asset creation, file versions and deleting an older version.
 */
import type { FastifyInstance } from 'fastify';
import type { ScopedAccount } from '../groups/folder-scope.js';
import { z } from 'zod';
import { nameProblem } from '../../shared/api/remote-path.js';
import type { ServiceContext } from '../context.js';
import { envelope } from '../http/envelope.js';
import { parseInput } from '../http/parse-input.js';
import { parseBody } from '../http/route-bodies.js';
import { caller } from '../http/request-auth.js';
import { ServiceError, notFound } from '../errors/service-error.js';
import { permittedActions, requireAccountAction, requireAction } from '../auth/permissions.js';
import { toAssetFile, type AssetRow, type AssetsRepo } from './assets-repo.js';
import { validateValues } from './asset-values.js';
import type { AssetRenderer } from './render-asset.js';
import type { UploadService } from '../uploads/upload-service.js';
import type { BlobStore } from '../blobs/blob-store.js';

const idParams = z.object({ id: z.string().min(1).max(200) });
const patchBody = z.object({
  metadata: z.object({ values: z.record(z.string().min(1).max(200), z.array(z.string().max(10_000)).max(1000)) }).optional(),
  filename: z.string().max(1000).optional(),
});
const creationBody = z.object({ count: z.number().int().min(1).max(1000) });

export interface AssetRouteDeps {
  assets: AssetsRepo;
  render: AssetRenderer;
  uploads: UploadService;
  blobs: BlobStore;
}

export function registerAssetRoutes(app: FastifyInstance, ctx: ServiceContext, deps: AssetRouteDeps): void {
  const { assets, render, uploads, blobs } = deps;
  const load = (who: ScopedAccount, params: unknown): AssetRow => {
    const { id } = parseInput(idParams, params, 'INVALID_PATH');
    const row = assets.get(who, id);
    if (row === undefined) throw notFound('asset', id);
    return row;
  };

  app.get('/assets/:id', async (request) => {
    const who = caller(request);
    const row = load(who, request.params);
    return envelope(render.asset(who, row), permittedActions(who.role, 'ASSET', row.id));
  });

  app.patch('/assets/:id', { config: { body: patchBody } }, async (request) => {
    const who = caller(request);
    const row = load(who, request.params);
    requireAction(who.role, 'ASSET', 'EDIT');
    const body = parseBody(request, patchBody);
    const values = body.metadata === undefined ? {} : validateValues(ctx.db, ctx.fields, who.accountId, body.metadata.values);
    ctx.folderPolicy.requireFolderValues(who, Object.entries(values).map(([fieldId, list]) => ({ fieldId, operation: 'REPLACE', values: list })));
    let filename: string | undefined;
    if (body.filename !== undefined) {
      filename = body.filename.normalize('NFC');
      const problem = nameProblem(filename);
      if (problem !== undefined) throw new ServiceError('INVALID_PATH', `The file name ${problem}.`);
      if (row.current_file_id === null) throw new ServiceError('INVALID_BODY', 'The asset has no file to rename yet.');
    }
    ctx.db.transaction(() => {
      const current = assets.values(row.id);
      for (const [fieldId, list] of Object.entries(values)) assets.setValues(row.id, fieldId, ctx.folderPolicy.valuesAfter(who, fieldId, current[fieldId] ?? [], list));
      if (filename !== undefined && row.current_file_id !== null) assets.renameFile(row.current_file_id, filename);
      // An empty PATCH changes nothing, so it must not look like a change to clients polling dateLastModified.
      if (Object.keys(values).length > 0 || filename !== undefined) assets.touch(row.id, ctx.nowIso());
    })();
    const updated = assets.get(who, row.id) ?? row;
    return envelope(render.asset(who, updated), permittedActions(who.role, 'ASSET', row.id));
  });

  app.delete('/assets/:id', async (request) => {
    const who = caller(request);
    const row = load(who, request.params);
    requireAction(who.role, 'ASSET', 'DELETE');
    const before = render.asset(who, row);
    uploads.endings.discardOpenUploadsOf(row.id);
    const freed = ctx.db.transaction(() => assets.deleteAsset(row.id))();
    for (const sha of freed) blobs.remove(sha);
    return envelope(before);
  });

  app.post('/assets-creations', { config: { body: creationBody } }, async (request) => {
    const who = caller(request);
    requireAccountAction(who.role, 'ASSETS', 'CREATE_ASSETS');
    // An asset made here is in no folder, so a folder-limited member could never reach it again.
    if (who.folders !== null) throw new ServiceError('FOLDER_OUT_OF_SCOPE', 'Your groups limit you to some folders: create assets by uploading into one of them.');
    const { count } = parseBody(request, creationBody);
    const now = ctx.nowIso();
    const rows = ctx.db.transaction(() => Array.from({ length: count }, () => assets.create(who.accountId, who.userId, now)))();
    return { results: rows.map((row) => envelope(render.asset(who, row), permittedActions(who.role, 'ASSET', row.id))), totalResults: rows.length };
  });

  app.get('/assets/:id/files', async (request) => {
    const who = caller(request);
    const row = load(who, request.params);
    const files = assets.files(row.id);
    return {
      results: files.map((file) => envelope(toAssetFile(file, render.preview(file)), permittedActions(who.role, 'ASSET_FILE', file.id))),
      totalResults: files.length,
    };
  });

  app.delete('/asset-files/:id', async (request) => {
    const who = caller(request);
    const { id } = parseInput(idParams, request.params, 'INVALID_PATH');
    const file = assets.file(who, id);
    if (file === undefined) throw notFound('asset file', id);
    requireAction(who.role, 'ASSET_FILE', 'DELETE');
    const asset = assets.get(who, file.asset_id);
    if (asset?.current_file_id === file.id) throw new ServiceError('CURRENT_FILE_NOT_DELETABLE');
    uploads.endings.discardOpenUploadsReplacing(file.id);
    const freed = ctx.db.transaction(() => {
      const sha = assets.deleteFile(file);
      assets.touch(file.asset_id, ctx.nowIso());
      return sha;
    })();
    if (freed !== undefined) blobs.remove(freed);
    return envelope(toAssetFile(file));
  });
}
