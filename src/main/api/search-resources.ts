/**
 * Asset searches: a paged search (at most 10,000 deep), a count (pageSize 0), and a scroll search as an
 * async iterator that always continues with the latest scrollId and ends at an empty page (or when a
 * foreign server stops handing out scroll ids). Remember the default state filter (API.md §5): a
 * criterion that does not mention LIFECYCLE_STATE or STAGED only matches LIVE assets.
 */
import type { Asset, SearchPage } from '../../shared/api/resources.js';
import type { Requester } from './api-client.js';
import type { Criterion, SearchRequest } from './asset-api.js';
import { assetSchema, parseAnswer, searchPageSchema } from './wire-shapes.js';

const assetPage = searchPageSchema(assetSchema);

export function searchResources(requester: Requester, defaultPageSize: number) {
  // Continuing a scroll is not repeated after an ambiguous failure: on a server whose scroll ids are
  // not cursors (Elasticsearch-style), a repeat would skip a page, and a skipped page looks like deletions.
  const post = async (path: string, body: unknown, signal?: AbortSignal, idempotent = true): Promise<SearchPage<Asset>> =>
    parseAnswer(assetPage, await requester.json({ method: 'POST', path, body, idempotent, signal }), 'POST', path);

  return {
    searchAssets(request: SearchRequest): Promise<SearchPage<Asset>> {
      const body = { from: request.from ?? 0, pageSize: request.pageSize ?? defaultPageSize, criterion: request.criterion, sorts: request.sorts };
      return post('/asset-searches', body);
    },

    async countAssets(criterion: Criterion): Promise<number> {
      return (await post('/asset-searches', { from: 0, pageSize: 0, criterion, sorts: [] })).totalResults;
    },

    async *scrollAssets(request: Omit<SearchRequest, 'from'>, signal?: AbortSignal): AsyncGenerator<SearchPage<Asset>, void, undefined> {
      const body = { pageSize: request.pageSize ?? defaultPageSize, criterion: request.criterion, sorts: request.sorts };
      let page = await post('/asset-scroll-searches', body, signal);
      for (;;) {
        if (page.results.length === 0) return;
        yield page;
        if (page.scrollId === undefined) return;
        page = await post('/asset-scroll-search-scrolls', { scrollId: page.scrollId }, signal, false);
      }
    },
  };
}
