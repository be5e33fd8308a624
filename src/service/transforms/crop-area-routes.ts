/**
 * Saved crop areas (`/assets/{id}/saved-crop-areas`, `/asset-saved-crop-areas/{id}`): named boxes on an
 * asset, in pixels of its current file as a viewer shows it, that a download's CROP can name. A PATCH
 * changes only the fields it gives; a box that reaches beyond the image is refused with a message
 * giving the image's size.
 */
import type { FastifyInstance } from 'fastify';
import type { ScopedAccount } from '../groups/folder-scope.js';
import { z } from 'zod';
import type { ServiceContext } from '../context.js';
import type { AssetsRepo } from '../assets/assets-repo.js';
import { ServiceError, notFound } from '../errors/service-error.js';
import { envelope } from '../http/envelope.js';
import { parseInput } from '../http/parse-input.js';
import { parseBody } from '../http/route-bodies.js';
import { caller } from '../http/request-auth.js';
import { permittedActions, requireAction } from '../auth/permissions.js';
import { timeOrderedUuid } from '../db/time-ordered-id.js';
import type { CropBox } from './plan-transformation.js';

export interface CropAreaRow {
  id: string;
  account_id: string;
  asset_id: string;
  name: string;
  x: number;
  y: number;
  width: number;
  height: number;
  date_created: string;
  date_last_modified: string;
}

export interface SavedCropArea {
  id: string;
  assetId: string;
  name: string;
  x: number;
  y: number;
  width: number;
  height: number;
  dateCreated: string;
  dateLastModified: string;
}

const toWire = (row: CropAreaRow): SavedCropArea => ({
  id: row.id,
  assetId: row.asset_id,
  name: row.name,
  x: row.x,
  y: row.y,
  width: row.width,
  height: row.height,
  dateCreated: row.date_created,
  dateLastModified: row.date_last_modified,
});

const coordinate = z.number().int().min(0).max(1_000_000);
const extent = z.number().int().min(1).max(1_000_000);
const createBody = z.object({ name: z.string().trim().min(1).max(200), x: coordinate, y: coordinate, width: extent, height: extent });
const patchBody = createBody.partial();
const idParams = z.object({ id: z.string().min(1).max(200) });

export function cropAreasRepo(ctx: ServiceContext) {
  const { db } = ctx;
  const byId = db.prepare<[string, string], CropAreaRow>('SELECT * FROM saved_crop_areas WHERE account_id = ? AND id = ?');
  const ofAsset = db.prepare<[string], CropAreaRow>('SELECT * FROM saved_crop_areas WHERE asset_id = ? ORDER BY date_created, id');
  const insert = db.prepare(
    `INSERT INTO saved_crop_areas (id, account_id, asset_id, name, x, y, width, height, date_created, date_last_modified)
     VALUES (@id, @account_id, @asset_id, @name, @x, @y, @width, @height, @date_created, @date_last_modified)`,
  );
  const update = db.prepare(
    'UPDATE saved_crop_areas SET name = @name, x = @x, y = @y, width = @width, height = @height, date_last_modified = @date_last_modified WHERE id = @id',
  );
  const remove = db.prepare('DELETE FROM saved_crop_areas WHERE id = ?');
  return {
    get: (accountId: string, id: string) => byId.get(accountId, id),
    ofAsset: (assetId: string) => ofAsset.all(assetId),
    insert: (row: CropAreaRow) => void insert.run(row),
    update: (row: CropAreaRow) => void update.run(row),
    remove: (id: string) => void remove.run(id),
    /** A box a download's CROP may use, for the caller's account. */
    box(accountId: string, id: string): CropBox | undefined {
      const row = byId.get(accountId, id);
      return row === undefined ? undefined : { assetId: row.asset_id, x: row.x, y: row.y, width: row.width, height: row.height };
    },
  };
}

export type CropAreasRepo = ReturnType<typeof cropAreasRepo>;

export function registerCropAreaRoutes(app: FastifyInstance, ctx: ServiceContext, assets: AssetsRepo, areas: CropAreasRepo): void {
  /** The box must lie inside the current file's image when its size is known. */
  const checkBox = (assetId: string, who: ScopedAccount, box: { x: number; y: number; width: number; height: number }): void => {
    const asset = assets.get(who, assetId);
    const file = asset?.current_file_id == null ? undefined : assets.file(who, asset.current_file_id);
    if (file?.width == null || file.height == null) return;
    if (box.x + box.width > file.width || box.y + box.height > file.height) {
      throw new ServiceError('INVALID_BODY', `The crop area ${box.width}×${box.height} at (${box.x}, ${box.y}) reaches beyond the image, which is ${file.width}×${file.height}.`);
    }
  };
  const loadAsset = (who: ScopedAccount, params: unknown) => {
    const { id } = parseInput(idParams, params, 'INVALID_PATH');
    const asset = assets.get(who, id);
    if (asset === undefined) throw notFound('asset', id);
    return asset;
  };
  // A crop area is part of its asset: out of reach when the asset is.
  const loadArea = (who: ScopedAccount, params: unknown): CropAreaRow => {
    const { id } = parseInput(idParams, params, 'INVALID_PATH');
    const area = areas.get(who.accountId, id);
    if (area === undefined || assets.get(who, area.asset_id) === undefined) throw notFound('saved crop area', id);
    return area;
  };

  app.get('/assets/:id/saved-crop-areas', async (request) => {
    const who = caller(request);
    const asset = loadAsset(who, request.params);
    const rows = areas.ofAsset(asset.id);
    return { results: rows.map((row) => envelope(toWire(row), permittedActions(who.role, 'ASSET', asset.id))), totalResults: rows.length };
  });

  app.post('/assets/:id/saved-crop-areas', { config: { body: createBody } }, async (request) => {
    const who = caller(request);
    const asset = loadAsset(who, request.params);
    requireAction(who.role, 'ASSET', 'EDIT');
    const body = parseBody(request, createBody);
    checkBox(asset.id, who, body);
    const now = ctx.nowIso();
    const row: CropAreaRow = { id: timeOrderedUuid(), account_id: who.accountId, asset_id: asset.id, ...body, date_created: now, date_last_modified: now };
    areas.insert(row);
    return envelope(toWire(row), permittedActions(who.role, 'ASSET', asset.id));
  });

  app.get('/asset-saved-crop-areas/:id', async (request) => {
    const who = caller(request);
    const row = loadArea(who, request.params);
    return envelope(toWire(row), permittedActions(who.role, 'ASSET', row.asset_id));
  });

  app.patch('/asset-saved-crop-areas/:id', { config: { body: patchBody } }, async (request) => {
    const who = caller(request);
    const row = loadArea(who, request.params);
    requireAction(who.role, 'ASSET', 'EDIT');
    const body = parseBody(request, patchBody);
    const changed: CropAreaRow = {
      ...row,
      name: body.name ?? row.name,
      x: body.x ?? row.x,
      y: body.y ?? row.y,
      width: body.width ?? row.width,
      height: body.height ?? row.height,
      date_last_modified: ctx.nowIso(),
    };
    checkBox(row.asset_id, who, changed);
    areas.update(changed);
    return envelope(toWire(changed), permittedActions(who.role, 'ASSET', row.asset_id));
  });

  app.delete('/asset-saved-crop-areas/:id', async (request) => {
    const who = caller(request);
    const row = loadArea(who, request.params);
    requireAction(who.role, 'ASSET', 'EDIT');
    areas.remove(row.id);
    return envelope(toWire(row));
  });
}
