/**
 * `GET /search-filters` (every filter the account could show) and the search filter view: the filters
 * configured as in use, in display order (`GET /search-filter-view`), added at a position (`POST
 * /search-filter-view/search-filters {searchFilterId, position?}`), moved (`PATCH …/{id} {position}`)
 * and removed (`DELETE …/{id}`). An entry's id is its filter's id. Positions are 0-based and kept
 * contiguous; a filter whose field was deleted drops out of the view. Only admins change the view.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { requireAccountAction } from '../auth/permissions.js';
import type { ServiceContext } from '../context.js';
import { ServiceError, notFound } from '../errors/service-error.js';
import { envelope } from '../http/envelope.js';
import { parseInput } from '../http/parse-input.js';
import { caller } from '../http/request-auth.js';
import { parseBody } from '../http/route-bodies.js';
import { searchFilters, type SearchFilter } from './search-filters.js';

const addBody = z.object({ searchFilterId: z.string().min(1).max(200), position: z.number().int().min(0).optional() });
const moveBody = z.object({ position: z.number().int().min(0) });
const idParams = z.object({ id: z.string().min(1).max(200) });

interface ViewEntry {
  id: string;
  position: number;
  searchFilter: SearchFilter;
}

export function registerSearchFilterRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  const { db } = ctx;
  const stored = db.prepare<[string], { search_filter_id: string }>('SELECT search_filter_id FROM search_filter_view WHERE account_id = ? ORDER BY position');
  const clear = db.prepare('DELETE FROM search_filter_view WHERE account_id = ?');
  const insert = db.prepare('INSERT INTO search_filter_view (account_id, search_filter_id, position) VALUES (?, ?, ?)');

  /** The view as it stands: stored ids that still name a filter, in order, with their filters. */
  const view = (accountId: string): ViewEntry[] => {
    const filters = new Map(searchFilters(ctx.fields, accountId).map((filter) => [filter.id, filter]));
    const entries: ViewEntry[] = [];
    for (const { search_filter_id: id } of stored.all(accountId)) {
      const searchFilter = filters.get(id);
      if (searchFilter !== undefined) entries.push({ id, position: entries.length, searchFilter });
    }
    return entries;
  };
  const save = db.transaction((accountId: string, ids: readonly string[]) => {
    clear.run(accountId);
    ids.forEach((id, position) => insert.run(accountId, id, position));
  });
  const entryOf = (accountId: string, id: string): ViewEntry => {
    const entry = view(accountId).find((candidate) => candidate.id === id);
    if (entry === undefined) throw notFound('search filter in the search filter view', id);
    return entry;
  };
  const admin = (request: Parameters<typeof caller>[0]) => {
    const who = caller(request);
    requireAccountAction(who.role, 'SEARCH_FILTER_VIEW', 'MANAGE');
    return who;
  };

  app.get('/search-filters', async (request) => {
    const filters = searchFilters(ctx.fields, caller(request).accountId);
    return { results: filters.map((filter) => envelope(filter)), totalResults: filters.length };
  });

  app.get('/search-filter-view', async (request) => envelope({ searchFilters: view(caller(request).accountId) }));

  app.post('/search-filter-view/search-filters', { config: { body: addBody } }, async (request) => {
    const who = admin(request);
    const body = parseBody(request, addBody);
    const filter = searchFilters(ctx.fields, who.accountId).find((candidate) => candidate.id === body.searchFilterId);
    if (filter === undefined) throw notFound('search filter', body.searchFilterId);
    const ids = view(who.accountId).map((entry) => entry.id);
    if (ids.includes(filter.id)) throw new ServiceError('SEARCH_FILTER_IN_VIEW', `The search filter "${filter.name}" is already in use; move it with PATCH instead.`);
    ids.splice(Math.min(body.position ?? ids.length, ids.length), 0, filter.id);
    save(who.accountId, ids);
    return envelope(entryOf(who.accountId, filter.id));
  });

  app.patch('/search-filter-view/search-filters/:id', { config: { body: moveBody } }, async (request) => {
    const who = admin(request);
    const { id } = parseInput(idParams, request.params, 'INVALID_PATH');
    entryOf(who.accountId, id);
    const { position } = parseBody(request, moveBody);
    const ids = view(who.accountId)
      .map((entry) => entry.id)
      .filter((other) => other !== id);
    ids.splice(Math.min(position, ids.length), 0, id);
    save(who.accountId, ids);
    return envelope(entryOf(who.accountId, id));
  });

  app.delete('/search-filter-view/search-filters/:id', async (request) => {
    const who = admin(request);
    const { id } = parseInput(idParams, request.params, 'INVALID_PATH');
    const entry = entryOf(who.accountId, id);
    save(
      who.accountId,
      view(who.accountId)
        .map((other) => other.id)
        .filter((other) => other !== id),
    );
    return envelope(entry);
  });
}
