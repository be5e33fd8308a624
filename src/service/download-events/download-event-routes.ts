/**
 * `POST /asset-download-event-searches` (SERVICE-SPEC §2.6, §6, §8): paged search of the account's
 * download events with the criterion language of asset search over the event fields, sorts (newest first
 * by default) and aggregations. Paging reaches at most 10,000 results; `totalResults` and aggregations
 * count every match. Only admins read download events (they name who downloaded what).
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { requireAccountAction } from '../auth/permissions.js';
import type { ServiceContext } from '../context.js';
import { ServiceError } from '../errors/service-error.js';
import { envelope } from '../http/envelope.js';
import { requiredByHandler } from '../http/null-as-absent.js';
import { caller } from '../http/request-auth.js';
import { parseBody } from '../http/route-bodies.js';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, PAGING_LIMIT } from '../search/search-routes.js';
import type { SqlValue } from '../search/sql-params.js';
import { toDownloadEvent, type DownloadEventRow } from './download-events-repo.js';
import { aggregationsSchema, runAggregations } from './event-aggregations.js';
import { compileEventQuery } from './event-query.js';

const searchBody = z.object({
  from: z.number().int().min(0).default(0),
  pageSize: z.number().int().min(0).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE),
  criterion: requiredByHandler(z.unknown()),
  sorts: z.unknown().optional(),
  aggregations: aggregationsSchema.default([]),
});

export function registerDownloadEventRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  app.post('/asset-download-event-searches', { config: { body: searchBody } }, async (request) => {
    const who = caller(request);
    requireAccountAction(who.role, 'DOWNLOAD_EVENTS', 'SEARCH_DOWNLOAD_EVENTS');
    const body = parseBody(request, searchBody);
    const query = compileEventQuery(who.accountId, body.criterion, body.sorts);
    if (body.from + body.pageSize > PAGING_LIMIT) {
      throw new ServiceError('PAGING_LIMIT_EXCEEDED', `from + pageSize is ${body.from + body.pageSize}; download event search pages reach at most ${PAGING_LIMIT} results (totalResults and aggregations count them all).`);
    }
    type Params = [Record<string, SqlValue>];
    const count = ctx.db.prepare<Params, { n: number }>(`SELECT count(*) AS n FROM download_events e WHERE ${query.where}`).get(query.params)?.n ?? 0;
    const rows =
      body.pageSize === 0 || body.from >= count
        ? []
        : ctx.db.prepare<Params, DownloadEventRow>(`SELECT e.* FROM download_events e WHERE ${query.where} ORDER BY ${query.orderBy} LIMIT @limit OFFSET @offset`).all({ ...query.params, limit: body.pageSize, offset: body.from });
    return {
      results: rows.map((row) => envelope(toDownloadEvent(row))),
      totalResults: count,
      aggregations: runAggregations(ctx.db, query, body.aggregations, count),
    };
  });
}
