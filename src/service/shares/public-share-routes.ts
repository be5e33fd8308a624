/**
 * What anyone with a share's link sees, without an account: `GET /public/asset-shares/{key}`
 * and `GET /public/collection-shares/{key}` (key = the share's id or any slug it ever had), paged with
 * `?from=&pageSize=`, and `GET /public/…/{key}/assets/{assetId}/content`, which redirects to the file
 * when the share allows downloads. An unknown, revoked (deleted) or expired share answers 404, the same
 * for all three, so a visitor learns nothing about shares they do not hold. Assets in the bin are hidden,
 * and so are those outside the folders the share's creator reaches (groups/folder-policy.ts): a
 * folder-limited member cannot publish, through a collection, what they cannot see themselves.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { ServiceContext } from '../context.js';
import { ServiceError } from '../errors/service-error.js';
import { parseInput } from '../http/parse-input.js';
import { publicPageQuery, type PublicAssetView } from '../public-access/public-assets.js';
import type { CollectionsRepo } from '../collections/collections-repo.js';
import { isExpired, publicSharePath } from './share-routes.js';
import type { ShareKind, ShareRow, SharesRepo } from './shares-repo.js';

const keyParams = z.object({ key: z.string().min(1).max(200) });
const assetParams = keyParams.extend({ assetId: z.string().min(1).max(200) });

const GONE_MESSAGE = 'No share with this id or slug, or it has expired or been revoked.';

export function registerPublicShareRoutes(app: FastifyInstance, ctx: ServiceContext, deps: { shares: SharesRepo; collections: CollectionsRepo; view: PublicAssetView }): void {
  const { shares, collections, view } = deps;
  for (const kind of ['ASSET', 'COLLECTION'] as const satisfies readonly ShareKind[]) {
    const base = `/public/${publicSharePath(kind)}`;
    const valid = (key: string): ShareRow => {
      const row = shares.byKey(key, kind);
      if (row === undefined || isExpired(row, ctx.clock.now())) throw new ServiceError('NOT_FOUND', GONE_MESSAGE);
      return row;
    };
    const downloadUrl = (key: string, row: ShareRow, assetId: string): string | null =>
      row.access === 'VIEW_AND_DOWNLOAD' ? `${ctx.baseUrl()}${base}/${encodeURIComponent(key)}/assets/${encodeURIComponent(assetId)}/content` : null;

    app.get(`${base}/:key`, { config: { public: true } }, async (request, reply) => {
      const { key } = parseInput(keyParams, request.params, 'INVALID_PATH');
      const { from, pageSize } = parseInput(publicPageQuery, request.query, 'INVALID_QUERY');
      const row = valid(key);
      const { rows, total } = shares.visibleAssets(row, ctx.folderPolicy.creatorScope(row.account_id, row.created_by), from, pageSize);
      const collection = row.collection_id === null ? undefined : collections.get(row.account_id, row.collection_id);
      void reply.header('cache-control', 'no-store');
      return {
        result: {
          id: row.id,
          slug: row.slug,
          access: row.access,
          expiresAt: row.date_expires,
          ...(collection === undefined ? {} : { collection: { name: collection.name, description: collection.description } }),
          assets: { results: rows.map((asset) => view.render(asset, downloadUrl(key, row, asset.id))), totalResults: total },
        },
        permittedActions: [],
      };
    });

    app.get(`${base}/:key/assets/:assetId/content`, { config: { public: true } }, async (request, reply) => {
      const { key, assetId } = parseInput(assetParams, request.params, 'INVALID_PATH');
      const row = valid(key);
      if (row.access !== 'VIEW_AND_DOWNLOAD') throw new ServiceError('FORBIDDEN', 'This share is view-only: its assets cannot be downloaded.');
      const asset = shares.visibleAsset(row, ctx.folderPolicy.creatorScope(row.account_id, row.created_by), assetId);
      if (asset === undefined) throw new ServiceError('NOT_FOUND', `No asset ${JSON.stringify(assetId)} in this share.`);
      return view.sendFile(reply, asset, { type: 'SHARE', assetShareId: row.id });
    });
  }
}
