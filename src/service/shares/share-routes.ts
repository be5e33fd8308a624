/**
 * Managing asset shares and collection shares (SERVICE-SPEC §2.10), one set of routes per kind:
 * `POST /asset-shares`, `GET|PATCH|DELETE /asset-shares/{id}`, `POST /asset-share-searches`, and the same
 * under `collection-shares`. Bodies are ours (docs/api.md, "Shares"). A share is managed by its creator
 * and the account's admins; to anyone else it does not exist (404). Deleting a share revokes it: its
 * public address answers 404 from then on. Visitors use public-share-routes.ts.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { PermittedAction } from '../../shared/api/resources.js';
import type { AssetsRepo } from '../assets/assets-repo.js';
import type { ServiceContext } from '../context.js';
import { ServiceError, notFound } from '../errors/service-error.js';
import { envelope } from '../http/envelope.js';
import { sortAndPage } from '../http/in-memory-page.js';
import { parseInput } from '../http/parse-input.js';
import { parseBody } from '../http/route-bodies.js';
import { caller, type Caller } from '../http/request-auth.js';
import type { CollectionsRepo } from '../collections/collections-repo.js';
import { requireCollectionAction, standingOf } from '../collections/collection-access.js';
import { SHARE_ACCESS, type ShareKind, type ShareRow, type SharesRepo } from './shares-repo.js';
import { matchesShare, shareSearchBody, type ShareFacts } from './share-search.js';

const idParams = z.object({ id: z.string().min(1).max(200) });
const UUID_SHAPE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
// Lower-case words joined by hyphens; never shaped like an id, so a key names one share unambiguously.
const slug = z
  .string()
  .regex(/^[a-z0-9](?:[a-z0-9-]{1,62}[a-z0-9])$/, 'must be 3–64 lower-case letters, digits and inner hyphens')
  .refine((value) => !UUID_SHAPE.test(value), 'must not look like a share id');
const expiresAt = z.iso.datetime({ offset: true, message: 'must be an ISO-8601 date-time' }).nullable().optional();
const access = z.enum(SHARE_ACCESS);

const assetShareBody = z.object({ assetIds: z.array(z.string().min(1).max(200)).min(1).max(1000), access: access.optional(), slug: slug.optional(), expiresAt });
const collectionShareBody = z.object({ collectionId: z.string().min(1).max(200), access: access.optional(), slug: slug.optional(), expiresAt });
// `slug: null` drops the current slug (old ones keep working); `expiresAt: null` makes it last forever.
const patchBody = z.object({ access: access.optional(), slug: slug.nullable().optional(), expiresAt });

export interface ShareRouteDeps {
  shares: SharesRepo;
  assets: AssetsRepo;
  collections: CollectionsRepo;
}

/** The path segment visitors use for a kind of share. */
export function publicSharePath(kind: ShareKind): string {
  return kind === 'ASSET' ? 'asset-shares' : 'collection-shares';
}

export function isExpired(row: ShareRow, nowMs: number): boolean {
  return row.date_expires !== null && Date.parse(row.date_expires) <= nowMs;
}

export function registerShareRoutes(app: FastifyInstance, ctx: ServiceContext, deps: ShareRouteDeps): void {
  registerKind(app, ctx, deps, 'ASSET');
  registerKind(app, ctx, deps, 'COLLECTION');
}

function registerKind(app: FastifyInstance, ctx: ServiceContext, deps: ShareRouteDeps, kind: ShareKind): void {
  const { shares, assets, collections } = deps;
  const base = publicSharePath(kind);
  const resourceType = kind === 'ASSET' ? 'ASSET_SHARE' : 'COLLECTION_SHARE';
  const actions = (id: string): PermittedAction[] => ['VIEW', 'EDIT', 'DELETE'].map((action) => ({ resourceType, resourceId: id, action }));

  const render = (row: ShareRow) => ({
    id: row.id,
    accountId: row.account_id,
    ...(kind === 'ASSET' ? { assetIds: shares.assetIds(row.id) } : { collectionId: row.collection_id }),
    access: row.access,
    slug: row.slug,
    slugs: shares.slugs(row.id),
    expiresAt: row.date_expires,
    expired: isExpired(row, ctx.clock.now()),
    createdBy: row.created_by,
    dateCreated: row.date_created,
    url: `${ctx.baseUrl()}/public/${base}/${encodeURIComponent(row.slug ?? row.id)}`,
  });
  const mayManage = (who: Caller, row: ShareRow): boolean => who.role === 'admin' || row.created_by === who.userId;
  const load = (who: Caller, params: unknown): ShareRow => {
    const { id } = parseInput(idParams, params, 'INVALID_PATH');
    const row = shares.get(who.accountId, id, kind);
    if (row === undefined || !mayManage(who, row)) throw notFound(kind === 'ASSET' ? 'asset share' : 'collection share', id);
    return row;
  };
  const checkSlug = (value: string, shareId?: string): void => {
    const owner = shares.slugOwner(value);
    if (owner !== undefined && owner !== shareId) throw new ServiceError('SLUG_TAKEN', `The slug "${value}" is taken by another share (slugs stay with a share for good).`);
  };
  const checkExpiry = (value: string | null | undefined): string | null => {
    if (value === undefined || value === null) return null;
    const at = Date.parse(value);
    if (at <= ctx.clock.now()) throw new ServiceError('INVALID_BODY', 'expiresAt: is in the past; delete the share to end it now.');
    return new Date(at).toISOString();
  };
  const requireSharer = (who: Caller): void => {
    if (who.role === 'viewer') throw new ServiceError('FORBIDDEN', 'Your role (viewer) may not share.');
  };

  const createBody = kind === 'ASSET' ? assetShareBody : collectionShareBody;
  app.post(`/${base}`, { config: { body: createBody } }, async (request) => {
    const who = caller(request);
    requireSharer(who);
    let assetIds: string[] = [];
    let collectionId: string | null = null;
    let common: { access?: 'VIEW' | 'VIEW_AND_DOWNLOAD' | undefined; slug?: string | undefined; expiresAt?: string | null | undefined };
    if (kind === 'ASSET') {
      const body = parseBody(request, assetShareBody);
      assetIds = [...new Set(body.assetIds)];
      const missing = assetIds.find((id) => assets.get(who, id) === undefined);
      if (missing !== undefined) throw notFound('asset', missing);
      common = body;
    } else {
      const body = parseBody(request, collectionShareBody);
      const collection = collections.get(who.accountId, body.collectionId);
      if (collection === undefined) throw notFound('collection', body.collectionId);
      const role = collections.collaborators(collection.id).find((entry) => entry.user_id === who.userId)?.role;
      requireCollectionAction(standingOf(who, collection, role), collection, 'SHARE');
      collectionId = collection.id;
      common = body;
    }
    if (common.slug !== undefined) checkSlug(common.slug);
    const expires = checkExpiry(common.expiresAt);
    const row = ctx.db.transaction(() =>
      shares.create({ accountId: who.accountId, kind, collectionId, assetIds, access: common.access ?? 'VIEW', slug: common.slug ?? null, createdBy: who.userId, now: ctx.nowIso(), expires }),
    )();
    return envelope(render(row), actions(row.id));
  });

  app.get(`/${base}/:id`, async (request) => {
    const row = load(caller(request), request.params);
    return envelope(render(row), actions(row.id));
  });

  app.patch(`/${base}/:id`, { config: { body: patchBody } }, async (request) => {
    const row = load(caller(request), request.params);
    const body = parseBody(request, patchBody);
    if (body.slug !== undefined && body.slug !== null) checkSlug(body.slug, row.id);
    const updated: ShareRow = {
      ...row,
      access: body.access ?? row.access,
      slug: body.slug === undefined ? row.slug : body.slug,
      date_expires: body.expiresAt === undefined ? row.date_expires : checkExpiry(body.expiresAt),
    };
    ctx.db.transaction(() => shares.update(updated))();
    return envelope(render(updated), actions(row.id));
  });

  app.delete(`/${base}/:id`, async (request) => {
    const row = load(caller(request), request.params);
    const before = render(row);
    shares.remove(row.id);
    return envelope(before);
  });

  const searchPath = kind === 'ASSET' ? '/asset-share-searches' : '/collection-share-searches';
  app.post(searchPath, { config: { body: shareSearchBody } }, async (request) => {
    const who = caller(request);
    const { criterion, sorts, from, pageSize } = parseBody(request, shareSearchBody);
    if (criterion === undefined) throw new ServiceError('INVALID_CRITERION', 'criterion: a criterion is required (use {"type":"MATCH_ALL"} for every share you manage).');
    if (sorts === undefined) throw new ServiceError('INVALID_SORT', 'sorts: sorts are required (an empty array orders by id).');
    const now = ctx.clock.now();
    const factsOf = (row: ShareRow): ShareFacts => ({
      ID: [row.id],
      SLUG: shares.slugs(row.id),
      ACCESS: [row.access],
      CREATED_BY: [row.created_by],
      ASSET_ID: kind === 'ASSET' ? shares.assetIds(row.id) : [],
      COLLECTION_ID: row.collection_id === null ? [] : [row.collection_id],
      STATUS: [isExpired(row, now) ? 'EXPIRED' : 'ACTIVE'],
    });
    const matching = shares.ofAccount(who.accountId, kind).filter((row) => mayManage(who, row) && matchesShare(criterion, factsOf(row)));
    // Never-expiring shares sort after every date ascending ("\uffff" is above any ISO date).
    const keyOf = (row: ShareRow, field: (typeof sorts)[number]['field']): string =>
      field === 'DATE_CREATED' ? row.date_created : field === 'EXPIRES_AT' ? (row.date_expires ?? '\uffff') : (row.slug ?? '');
    const { page, total } = sortAndPage(matching, sorts, keyOf, from, pageSize);
    return { results: page.map((row) => envelope(render(row), actions(row.id))), totalResults: total };
  });
}
