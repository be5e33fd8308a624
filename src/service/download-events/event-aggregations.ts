/**
 * Aggregations of a download-event search, computed over every matching event (never just the page, so
 * they stay correct past the 10,000 paging cap, SERVICE-SPEC §8):
 * - TERMS: the `size` most frequent values of a field, most frequent first (ties by value), with the
 *   count of events outside those buckets in `otherCount`; e.g. downloads per asset.
 * - DATE_HISTOGRAM: events per UTC day, ISO week (from Monday), calendar month or year of a date field,
 *   oldest first; buckets without events are left out. E.g. one user's downloads per month.
 * Keys are bound or constant SQL only; the field comes from the event field table.
 */
import { z } from 'zod';
import type { Db } from '../db/open-database.js';
import { fieldRefSchema } from '../search/criterion-schema.js';
import { invalidCriterion } from '../search/search-errors.js';
import type { SqlValue } from '../search/sql-params.js';
import { ServiceError } from '../errors/service-error.js';
import { eventColumn, type EventQuery } from './event-query.js';

export const MAX_AGGREGATIONS = 10;
export const MAX_TERMS = 1000;

const name = z.string().min(1).max(100);
export const aggregationsSchema = z
  .array(
    z.discriminatedUnion('type', [
      z.object({ name, type: z.literal('TERMS'), field: fieldRefSchema, size: z.number().int().min(1).max(MAX_TERMS).default(10) }),
      z.object({ name, type: z.literal('DATE_HISTOGRAM'), field: fieldRefSchema, interval: z.enum(['DAY', 'WEEK', 'MONTH', 'YEAR']) }),
    ]),
  )
  .max(MAX_AGGREGATIONS, `at most ${MAX_AGGREGATIONS} aggregations`);
export type AggregationRequest = z.infer<typeof aggregationsSchema>[number];

export interface Bucket {
  key: string | null;
  count: number;
}
export type AggregationResult = { type: 'TERMS'; buckets: Bucket[]; otherCount: number } | { type: 'DATE_HISTOGRAM'; interval: string; buckets: Bucket[] };

/** SQL for the start of the bucket a date (ISO text) falls in, as ISO text again. */
function bucketStart(expr: string, interval: 'DAY' | 'WEEK' | 'MONTH' | 'YEAR'): string {
  switch (interval) {
    case 'DAY':
      return `substr(${expr}, 1, 10) || 'T00:00:00.000Z'`;
    case 'WEEK':
      // The Monday on or before the day: step back six days, then forward to the next Monday.
      return `date(${expr}, '-6 days', 'weekday 1') || 'T00:00:00.000Z'`;
    case 'MONTH':
      return `substr(${expr}, 1, 7) || '-01T00:00:00.000Z'`;
    case 'YEAR':
      return `substr(${expr}, 1, 4) || '-01-01T00:00:00.000Z'`;
  }
}

function keySql(request: AggregationRequest, path: string): string {
  const column = eventColumn(request.field, `${path}.field`, invalidCriterion);
  if (request.type === 'TERMS') return column.expr;
  if (column.type !== 'date') throw new ServiceError('INVALID_BODY', `Invalid request: ${path}.field: ${column.label} is not a date; a DATE_HISTOGRAM needs DATE_DOWNLOADED.`);
  return bucketStart(column.expr, request.interval);
}

export function runAggregations(db: Db, query: EventQuery, requests: readonly AggregationRequest[], totalResults: number): Record<string, AggregationResult> {
  const seen = new Set<string>();
  const results: Record<string, AggregationResult> = {};
  requests.forEach((request, index) => {
    const path = `aggregations[${index}]`;
    if (seen.has(request.name)) throw new ServiceError('INVALID_BODY', `Invalid request: ${path}.name: "${request.name}" is used twice.`);
    seen.add(request.name);
    const key = keySql(request, path);
    const limit = request.type === 'TERMS' ? `LIMIT ${request.size}` : '';
    const order = request.type === 'TERMS' ? 'n DESC, k ASC' : 'k ASC';
    const sql = `SELECT ${key} AS k, count(*) AS n FROM download_events e WHERE ${query.where} GROUP BY 1 ORDER BY ${order} ${limit}`;
    const rows = db.prepare<[Record<string, SqlValue>], { k: string | null; n: number }>(sql).all(query.params);
    const buckets = rows.map((row): Bucket => ({ key: row.k, count: row.n }));
    if (request.type === 'TERMS') {
      const inBuckets = buckets.reduce((sum, bucket) => sum + bucket.count, 0);
      results[request.name] = { type: 'TERMS', buckets, otherCount: totalResults - inBuckets };
    } else {
      results[request.name] = { type: 'DATE_HISTOGRAM', interval: request.interval, buckets };
    }
  });
  return results;
}
