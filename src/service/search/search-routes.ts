/**
 * Asset search endpoints (API.md §5, SERVICE-SPEC §4.1, §8): `POST /asset-searches` (paged, at most
 * 10,000 deep), `POST /asset-scroll-searches` and `POST /asset-scroll-search-scrolls` (keyset scrolls of
 * any size). Any member of the account may search, viewers included; each result carries the caller's
 * permitted actions on it. `from` defaults to 0 and `pageSize` to 100 (at most 1000); `pageSize: 0` answers
 * the count alone (`results` is then empty, so clients that always read `results` keep working).
 * Validation, compiling and running live in their own modules; this file only wires a request to them.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Asset, Envelope } from '../../shared/api/resources.js';
import type { AssetRow } from '../assets/assets-repo.js';
import type { AssetRenderer } from '../assets/render-asset.js';
import { permittedActions, requireAccountAction } from '../auth/permissions.js';
import type { ServiceContext } from '../context.js';
import { ServiceError } from '../errors/service-error.js';
import { envelope } from '../http/envelope.js';
import { parseBody } from '../http/route-bodies.js';
import { requiredByHandler } from '../http/null-as-absent.js';
import { caller, type Caller } from '../http/request-auth.js';
import { compileAssetQuery } from './asset-query.js';
import { assetSearchRunner } from './run-asset-search.js';
import { scrollStore } from './scroll-store.js';
import { searchAccount } from './search-account.js';

/** How deep paged search reaches (SERVICE-SPEC §8). */
export const PAGING_LIMIT = 10_000;
export const MAX_PAGE_SIZE = 1000;
export const DEFAULT_PAGE_SIZE = 100;

const pageSize = (min: number) => z.number().int().min(min).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE);
// `criterion` and `sorts` are required [real]; compileAssetQuery reports them missing (absent or null alike).
const pagedBody = z.object({ from: z.number().int().min(0).default(0), pageSize: pageSize(0), criterion: requiredByHandler(z.unknown()), sorts: requiredByHandler(z.unknown()) });
const scrollBody = z.object({
  from: z.literal(0, 'scroll searches always start at the first result; page on with the scrollId').optional(),
  pageSize: pageSize(1),
  criterion: requiredByHandler(z.unknown()),
  sorts: requiredByHandler(z.unknown()),
});
// A scroll id carries the sort values of the last asset returned (text values up to 10,000 characters each).
const scrollOnBody = z.object({ scrollId: z.string().min(1).max(500_000) });

/** V1 search-body properties and what replaced them (API.md §7). */
const V1_BODY_PROPERTIES: Readonly<Record<string, string>> = {
  stagingStatus: 'a LIFECYCLE_STATE criterion',
  addedBy: 'a STAGED_BY criterion',
  dateAdded: 'a DATE_LIVE criterion',
};

function rejectV1Properties(body: unknown): void {
  if (typeof body !== 'object' || body === null) return;
  for (const [name, replacement] of Object.entries(V1_BODY_PROPERTIES)) {
    if (name in body) throw new ServiceError('UNSUPPORTED_V1_NAME', `"${name}" is a V1 search property; use ${replacement} (API version 2).`);
  }
}

export interface SearchRouteDeps {
  render: AssetRenderer;
}

export function registerSearchRoutes(app: FastifyInstance, ctx: ServiceContext, deps: SearchRouteDeps): void {
  const runner = assetSearchRunner(ctx.db);
  const scrolls = scrollStore(ctx.db, ctx.clock, ctx.keys.scroll, ctx.ids);
  const results = (who: Caller, rows: AssetRow[]): Envelope<Asset>[] =>
    deps.render.all(who, rows).map((asset) => envelope(asset, permittedActions(who.role, 'ASSET', asset.id)));
  const searcher = (request: FastifyRequest): Caller => {
    const who = caller(request);
    requireAccountAction(who.role, 'ASSETS', 'SEARCH_ASSETS');
    rejectV1Properties(request.body);
    return who;
  };

  app.post('/asset-searches', { config: { body: pagedBody } }, async (request) => {
    const who = searcher(request);
    const body = parseBody(request, pagedBody);
    const query = compileAssetQuery(searchAccount(ctx.fields, who), body.criterion, body.sorts);
    if (body.from + body.pageSize > PAGING_LIMIT) {
      throw new ServiceError(
        'PAGING_LIMIT_EXCEEDED',
        `from + pageSize is ${body.from + body.pageSize}; paged search reaches at most ${PAGING_LIMIT} results. Use POST /asset-scroll-searches to go further.`,
      );
    }
    const { rows, total } = runner.pageWithTotal(query, body.from, body.pageSize);
    return { results: results(who, rows), totalResults: total };
  });

  app.post('/asset-scroll-searches', { config: { body: scrollBody } }, async (request) => {
    const who = searcher(request);
    const body = parseBody(request, scrollBody);
    const query = compileAssetQuery(searchAccount(ctx.fields, who), body.criterion, body.sorts);
    const page = runner.firstPageWithTotal(query, body.pageSize);
    const totalResults = page.total;
    const scroll = scrolls.create({
      account_id: who.accountId,
      user_id: who.userId,
      criterion: JSON.stringify(body.criterion),
      sorts: JSON.stringify(body.sorts),
      page_size: body.pageSize,
      total_results: totalResults,
    });
    return { results: results(who, page.rows), totalResults, scrollId: scrolls.scrollId(scroll, page.last) };
  });

  app.post('/asset-scroll-search-scrolls', { config: { body: scrollOnBody } }, async (request) => {
    const who = searcher(request);
    const { scrollId } = parseBody(request, scrollOnBody);
    const { row, cursor } = scrolls.open(scrollId, who.accountId, who.userId);
    const query = compileAssetQuery(searchAccount(ctx.fields, who), JSON.parse(row.criterion) as unknown, JSON.parse(row.sorts) as unknown);
    const page = runner.pageAfter(query, cursor, row.page_size);
    // An empty page ends the scroll; its id stays valid (a retry gets the same empty page) until it expires.
    return { results: results(who, page.rows), totalResults: row.total_results, scrollId: scrolls.scrollId(row, page.last ?? cursor) };
  });
}
