/**
 * Collections (SERVICE-SPEC §4.2): create, get, patch, delete; add and remove assets;
 * collaborators; `POST /collection-searches`. Bodies are ours (docs/api.md, "Collections"). Access rules
 * live in collection-access.ts; a collection the caller may not view answers 404 like an unknown id.
 * Its contents as a caller sees them (ids, counts) are what the folder policy lets them reach
 * (groups/folder-policy.ts): a folder-limited collaborator learns nothing of the assets outside.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { ServiceContext } from '../context.js';
import { envelope } from '../http/envelope.js';
import { parseInput } from '../http/parse-input.js';
import { parseBody } from '../http/route-bodies.js';
import { oneLineName } from '../http/one-line-name.js';
import { caller, type Caller } from '../http/request-auth.js';
import type { ScopedAccount } from '../groups/folder-scope.js';
import { ServiceError, notFound } from '../errors/service-error.js';
import { sortAndPage } from '../http/in-memory-page.js';
import type { AssetsRepo } from '../assets/assets-repo.js';
import { COLLABORATOR_ROLES, type CollectionRow, type CollectionsRepo } from './collections-repo.js';
import { collectionActions, mayCreateCollections, requireCollectionAction, standingOf, type CollectionAction, type Standing } from './collection-access.js';
import { collectionSearchBody, matchesCollection } from './collection-search.js';

const idParams = z.object({ id: z.string().min(1).max(200) });
const collaboratorParams = idParams.extend({ userId: z.string().min(1).max(200) });
const name = oneLineName;
const description = z.string().max(10_000);
const assetIds = z.array(z.string().min(1).max(200)).min(1).max(1000);

const createBody = z.object({ name, description: description.optional(), assetIds: assetIds.optional() });
// `description: null` clears it; left out, it is kept.
const patchBody = z.object({ name: name.optional(), description: description.nullable().optional() });
const assetsBody = z.object({ assetIds });
const collaboratorBody = z.object({ role: z.enum(COLLABORATOR_ROLES) });

export function registerCollectionRoutes(app: FastifyInstance, ctx: ServiceContext, deps: { collections: CollectionsRepo; assets: AssetsRepo }): void {
  const { collections, assets } = deps;
  const policy = ctx.folderPolicy;
  /** The collection's assets the caller reaches, in the collection's order. */
  const contents = (who: Caller, id: string): string[] => policy.visibleAssetIds(who, collections.assetIds(id));
  const show = (who: Caller, row: CollectionRow) => ({ ...collections.render(row), numberOfAssets: contents(who, row.id).length });
  const standing = (who: Caller, row: CollectionRow): Standing =>
    standingOf(who, row, collections.collaborators(row.id).find((collaborator) => collaborator.user_id === who.userId)?.role);
  const load = (who: Caller, params: unknown, action: CollectionAction): { row: CollectionRow; standing: Standing } => {
    const { id } = parseInput(idParams, params, 'INVALID_PATH');
    const row = collections.get(who.accountId, id);
    if (row === undefined) throw notFound('collection', id);
    const found = standing(who, row);
    requireCollectionAction(found, row, action);
    return { row, standing: found };
  };
  const answer = (who: Caller, id: string, found: Standing) => {
    const row = collections.get(who.accountId, id);
    if (row === undefined) throw notFound('collection', id);
    return envelope(show(who, row), collectionActions(found, id));
  };
  /** Every id must name an asset of the account: nothing is added when one does not. */
  const checkAssets = (who: ScopedAccount, ids: readonly string[]): string[] => {
    const unique = [...new Set(ids)];
    const missing = unique.find((id) => assets.get(who, id) === undefined);
    if (missing !== undefined) throw notFound('asset', missing);
    return unique;
  };

  app.post('/collections', { config: { body: createBody } }, async (request) => {
    const who = caller(request);
    if (!mayCreateCollections(who.role)) throw new ServiceError('FORBIDDEN', `Your role (${who.role}) may not create collections.`);
    const body = parseBody(request, createBody);
    const ids = body.assetIds === undefined ? [] : checkAssets(who, body.assetIds);
    const now = ctx.nowIso();
    const row = ctx.db.transaction(() => {
      const created = collections.create(who.accountId, who.userId, body.name, body.description ?? null, now);
      collections.addAssets(created.id, ids, now);
      return created;
    })();
    return answer(who, row.id, 'OWNER');
  });

  app.get('/collections/:id', async (request) => {
    const who = caller(request);
    const { row, standing: found } = load(who, request.params, 'VIEW');
    return answer(who, row.id, found);
  });

  app.patch('/collections/:id', { config: { body: patchBody } }, async (request) => {
    const who = caller(request);
    const { row, standing: found } = load(who, request.params, 'EDIT');
    const body = parseBody(request, patchBody);
    if (body.name !== undefined || body.description !== undefined) {
      collections.update(row.id, body.name ?? row.name, body.description === undefined ? row.description : body.description, ctx.nowIso());
    }
    return answer(who, row.id, found);
  });

  app.delete('/collections/:id', async (request) => {
    const who = caller(request);
    const { row, standing: found } = load(who, request.params, 'DELETE');
    const before = envelope(show(who, row), collectionActions(found, row.id));
    collections.remove(row.id);
    return before;
  });

  app.get('/collections/:id/assets', async (request) => {
    const who = caller(request);
    const { row } = load(who, request.params, 'VIEW');
    return { result: { collectionId: row.id, assetIds: contents(who, row.id) }, permittedActions: [] };
  });

  app.post('/collections/:id/assets', { config: { body: assetsBody } }, async (request) => {
    const who = caller(request);
    const { row, standing: found } = load(who, request.params, 'EDIT');
    const ids = checkAssets(who, parseBody(request, assetsBody).assetIds);
    const now = ctx.nowIso();
    ctx.db.transaction(() => {
      if (collections.addAssets(row.id, ids, now) > 0) collections.touch(row.id, now);
    })();
    return answer(who, row.id, found);
  });

  // A body on DELETE is unreliable through proxies and clients, so removal is a resource of its own.
  app.post('/collections/:id/asset-removals', { config: { body: assetsBody } }, async (request) => {
    const who = caller(request);
    const { row, standing: found } = load(who, request.params, 'EDIT');
    // Only what the caller reaches: an asset they cannot see is not there for them to remove.
    const ids = policy.visibleAssetIds(who, [...new Set(parseBody(request, assetsBody).assetIds)]);
    const now = ctx.nowIso();
    ctx.db.transaction(() => {
      if (collections.removeAssets(row.id, ids) > 0) collections.touch(row.id, now);
    })();
    return answer(who, row.id, found);
  });

  app.put('/collections/:id/collaborators/:userId', { config: { body: collaboratorBody } }, async (request) => {
    const who = caller(request);
    const { row, standing: found } = load(who, request.params, 'MANAGE_COLLABORATORS');
    const { userId } = parseInput(collaboratorParams, request.params, 'INVALID_PATH');
    const { role } = parseBody(request, collaboratorBody);
    if (ctx.accounts.membership(who.accountId, userId) === undefined) throw notFound('user', userId);
    if (userId === row.owner_id) throw new ServiceError('INVALID_BODY', 'The owner of a collection cannot also be its collaborator.');
    collections.setCollaborator(row.id, userId, role);
    return answer(who, row.id, found);
  });

  app.delete('/collections/:id/collaborators/:userId', async (request) => {
    const who = caller(request);
    const { row, standing: found } = load(who, request.params, 'MANAGE_COLLABORATORS');
    const { userId } = parseInput(collaboratorParams, request.params, 'INVALID_PATH');
    if (!collections.removeCollaborator(row.id, userId)) throw notFound('collaborator', userId);
    return answer(who, row.id, found);
  });

  app.post('/collection-searches', { config: { body: collectionSearchBody } }, async (request) => {
    const who = caller(request);
    const { criterion, sorts, from, pageSize } = parseBody(request, collectionSearchBody);
    if (criterion === undefined) throw new ServiceError('INVALID_CRITERION', 'criterion: a criterion is required (use {"type":"MATCH_ALL"} for every collection you can see).');
    if (sorts === undefined) throw new ServiceError('INVALID_SORT', 'sorts: sorts are required (an empty array orders by id).');
    const visible = collections
      .ofAccount(who.accountId)
      .map((row) => ({ row, id: row.id, standing: standing(who, row), collaboratorIds: collections.collaborators(row.id).map((c) => c.user_id) }))
      .filter((entry) => entry.standing !== 'NONE')
      .filter((entry) => matchesCollection(criterion, { id: entry.id, name: entry.row.name, ownerId: entry.row.owner_id, collaboratorIds: entry.collaboratorIds }));
    const keyOf = (entry: (typeof visible)[number], field: (typeof sorts)[number]['field']): string =>
      field === 'NAME' ? entry.row.name : field === 'DATE_CREATED' ? entry.row.date_created : entry.row.date_last_modified;
    const { page, total } = sortAndPage(visible, sorts, keyOf, from, pageSize);
    return { results: page.map((entry) => envelope(show(who, entry.row), collectionActions(entry.standing, entry.id))), totalResults: total };
  });
}
