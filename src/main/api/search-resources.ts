/**
 * Asset searches: a paged search (at most 10,000 deep), a count (pageSize 0), and a scroll search as an
 * async iterator that always continues with the latest scrollId and ends at an empty page (or when a
 * foreign server stops handing out scroll ids), or sooner: at a short page that brings what it has
 * given to the total the scroll started with (one call a listing saved, the empty page's). Remember
 * the default state filter (API.md §5): a criterion that does not mention LIFECYCLE_STATE or STAGED
 * only matches LIVE assets.
 */
import type { Asset, SearchPage } from '../../shared/api/resources.js';
import type { Requester } from './api-client.js';
import type { Criterion, SearchRequest } from './asset-api.js';
import { assetSchema, parseAnswer, searchPageSchema } from './wire-shapes.js';

const assetPage = searchPageSchema(assetSchema);

export function searchResources(requester: Requester, defaultPageSize: number) {
  // Continuing a scroll is not repeated after an ambiguous failure: on a server whose scroll ids are
  // not cursors (Elasticsearch-style), a repeat would skip a page, and a skipped page looks like deletions.
  const post = async (path: string, body: unknown, signal?: AbortSignal, idempotent = true): Promise<SearchPage<Asset>> => (await counted(path, body, signal, idempotent)).page;
  /** A page, and the total the server said (undefined when it said none: the page's default is its own length). */
  const counted = async (path: string, body: unknown, signal?: AbortSignal, idempotent = true): Promise<{ page: SearchPage<Asset>; total: number | undefined }> => {
    const answer = await requester.json({ method: 'POST', path, body, idempotent, signal });
    const page = parseAnswer(assetPage, answer, 'POST', path);
    return { page, total: typeof answer === 'object' && answer !== null && 'totalResults' in answer && typeof answer.totalResults === 'number' ? page.totalResults : undefined };
  };

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
      // The next page is asked for before this one is handed over, so the server finds it while the
      // caller reads this one (a listing's pages otherwise wait for each other's reading). A caller that
      // stops early aborts the page asked for ahead; its failure is only reported if it is waited for.
      const ahead = new AbortController();
      const aborted = (): void => ahead.abort(signal?.reason);
      signal?.addEventListener('abort', aborted, { once: true });
      let next: Promise<{ page: SearchPage<Asset>; total: number | undefined }> | undefined;
      try {
        let { page, total } = await counted('/asset-scroll-searches', body, signal);
        let given = 0;
        for (;;) {
          if (page.results.length === 0) return;
          given += page.results.length;
          const last = page.scrollId === undefined || lastPage(page.results.length, body.pageSize, given, total);
          if (!last) {
            next = counted('/asset-scroll-search-scrolls', { scrollId: page.scrollId }, ahead.signal, false);
            next.catch(() => undefined);
          }
          yield page;
          if (next === undefined) return;
          ({ page, total } = await next);
          next = undefined;
        }
      } finally {
        signal?.removeEventListener('abort', aborted);
        if (next !== undefined) ahead.abort();
      }
    },
  };
}

/**
 * Whether a scroll page is its last without asking for the empty one: shorter than asked for (a server
 * that caps page sizes gives only short pages) and reaching the total the server said (none said: no
 * guess; 10,000 or more may be a search engine's cap, not the count). Anything created after the
 * scroll began is the polls' news, as it would be after the empty page.
 */
function lastPage(length: number, pageSize: number, given: number, total: number | undefined): boolean {
  return total !== undefined && length < pageSize && given >= total && total < 10_000;
}
