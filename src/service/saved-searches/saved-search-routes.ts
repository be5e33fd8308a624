/**
 * Saved searches (SERVICE-SPEC §1; bodies ours, docs/api.md "Saved searches"): a user's own criterion and
 * sorts, listed, created, changed, deleted and run on demand (`POST /saved-searches/{id}/results`, paged
 * like `/asset-searches`). They are private: another user's saved search answers 404. The criterion is
 * compiled when saved (bad input is refused then) and again on every run, with the runner's current
 * folder limit. E-mail updates need SMTP configured (saved-search-mailer.ts sends them).
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Asset, PermittedAction } from '../../shared/api/resources.js';
import type { AssetRenderer } from '../assets/render-asset.js';
import { permittedActions, requireAccountAction } from '../auth/permissions.js';
import type { ServiceContext } from '../context.js';
import { timeOrderedUuid } from '../db/time-ordered-id.js';
import { notFound, ServiceError } from '../errors/service-error.js';
import { envelope } from '../http/envelope.js';
import { requiredByHandler } from '../http/null-as-absent.js';
import { parseInput } from '../http/parse-input.js';
import { caller, type Caller } from '../http/request-auth.js';
import { parseBody } from '../http/route-bodies.js';
import { compileAssetQuery } from '../search/asset-query.js';
import { assetSearchRunner } from '../search/run-asset-search.js';
import { searchAccount } from '../search/search-account.js';
import type { SavedSearchesRepo, SavedSearchRow } from './saved-searches-repo.js';

export interface SavedSearch {
  id: string;
  ownerId: string;
  name: string;
  criterion: unknown;
  sorts: unknown;
  emailUpdates: boolean;
  dateCreated: string;
  dateLastModified: string;
}

const idParams = z.object({ id: z.string().min(1).max(200) });
const name = z.string().trim().min(1).max(200);
const createBody = z.object({ name, criterion: requiredByHandler(z.unknown()), sorts: z.unknown().optional(), emailUpdates: z.boolean().optional() });
const patchBody = z.object({ name: name.optional(), criterion: z.unknown().optional(), sorts: z.unknown().optional(), emailUpdates: z.boolean().optional() });
const runBody = z.object({ from: z.number().int().min(0).max(10_000).default(0), pageSize: z.number().int().min(0).max(1000).default(100) });

const toWire = (row: SavedSearchRow): SavedSearch => ({
  id: row.id,
  ownerId: row.owner_id,
  name: row.name,
  criterion: JSON.parse(row.criterion) as unknown,
  sorts: JSON.parse(row.sorts) as unknown,
  emailUpdates: row.email_updates === 1,
  dateCreated: row.date_created,
  dateLastModified: row.date_last_modified,
});

const actions = (row: SavedSearchRow): PermittedAction[] => ['VIEW', 'EDIT', 'DELETE'].map((action) => ({ resourceType: 'SAVED_SEARCH', resourceId: row.id, action }));

export function registerSavedSearchRoutes(app: FastifyInstance, ctx: ServiceContext, deps: { savedSearches: SavedSearchesRepo; render: AssetRenderer }): void {
  const { savedSearches, render } = deps;
  const runner = assetSearchRunner(ctx.db);
  const load = (who: Caller, params: unknown): SavedSearchRow => {
    const { id } = parseInput(idParams, params, 'INVALID_PATH');
    const row = savedSearches.get(who.accountId, id);
    if (row === undefined || row.owner_id !== who.userId) throw notFound('saved search', id);
    return row;
  };
  const check = (who: Caller, criterion: unknown, sorts: unknown): void => void compileAssetQuery(searchAccount(ctx.fields, who), criterion, sorts);
  const checkEmail = (on: boolean | undefined): void => {
    if (on === true && ctx.config.smtp === undefined) throw new ServiceError('EMAIL_NOT_CONFIGURED');
  };

  app.get('/saved-searches', async (request) => {
    const who = caller(request);
    const rows = savedSearches.ofOwner(who.accountId, who.userId);
    return { results: rows.map((row) => envelope(toWire(row), actions(row))), totalResults: rows.length };
  });

  app.post('/saved-searches', { config: { body: createBody } }, async (request) => {
    const who = caller(request);
    requireAccountAction(who.role, 'ASSETS', 'SEARCH_ASSETS');
    const body = parseBody(request, createBody);
    const sorts = body.sorts ?? [];
    check(who, body.criterion, sorts);
    checkEmail(body.emailUpdates);
    const now = ctx.nowIso();
    const row: SavedSearchRow = {
      id: timeOrderedUuid(),
      account_id: who.accountId,
      owner_id: who.userId,
      name: body.name,
      criterion: JSON.stringify(body.criterion),
      sorts: JSON.stringify(sorts),
      email_updates: body.emailUpdates === true ? 1 : 0,
      checked_from: now,
      date_created: now,
      date_last_modified: now,
    };
    savedSearches.insert(row);
    return envelope(toWire(row), actions(row));
  });

  app.get('/saved-searches/:id', async (request) => {
    const row = load(caller(request), request.params);
    return envelope(toWire(row), actions(row));
  });

  app.patch('/saved-searches/:id', { config: { body: patchBody } }, async (request) => {
    const who = caller(request);
    const row = load(who, request.params);
    const body = parseBody(request, patchBody);
    // Checked before it is stored or serialised: the check bounds its depth.
    check(who, body.criterion === undefined ? (JSON.parse(row.criterion) as unknown) : body.criterion, body.sorts === undefined ? (JSON.parse(row.sorts) as unknown) : body.sorts);
    const criterion = body.criterion === undefined ? row.criterion : JSON.stringify(body.criterion);
    const sorts = body.sorts === undefined ? row.sorts : JSON.stringify(body.sorts);
    checkEmail(body.emailUpdates);
    const now = ctx.nowIso();
    const turnedOn = body.emailUpdates === true && row.email_updates === 0;
    const changed: SavedSearchRow = {
      ...row,
      name: body.name ?? row.name,
      criterion,
      sorts,
      email_updates: body.emailUpdates === undefined ? row.email_updates : body.emailUpdates ? 1 : 0,
      // Turning updates on starts from now: what already matched is not news.
      checked_from: turnedOn || criterion !== row.criterion ? now : row.checked_from,
      date_last_modified: now,
    };
    savedSearches.update(changed);
    return envelope(toWire(changed), actions(changed));
  });

  app.delete('/saved-searches/:id', async (request) => {
    const row = load(caller(request), request.params);
    savedSearches.remove(row.id);
    return envelope(toWire(row));
  });

  app.post('/saved-searches/:id/results', { config: { body: runBody } }, async (request) => {
    const who = caller(request);
    const row = load(who, request.params);
    const body = parseBody(request, runBody);
    const query = compileAssetQuery(searchAccount(ctx.fields, who), JSON.parse(row.criterion) as unknown, JSON.parse(row.sorts) as unknown);
    const { rows, total: totalResults } = runner.pageWithTotal(query, body.from, body.pageSize);
    const results = rows.map((asset): { result: Asset; permittedActions: PermittedAction[] } => envelope(render.asset(who, asset), permittedActions(who.role, 'ASSET', asset.id)));
    return { results, totalResults };
  });
}
