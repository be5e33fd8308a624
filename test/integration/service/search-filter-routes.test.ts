import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../support/test-service.js';
import { addUser } from '../../support/test-users.js';

describe('search filters and the search filter view', () => {
  let service: TestService;
  let memberToken: string;
  let photographer: string;
  beforeAll(async () => {
    service = await startTestService();
    memberToken = (await addUser(service, 'member@example.test', 'member')).token;
    photographer = (await service.api('POST', '/fields', { name: 'Photographer' })).body.result.id;
  });
  afterAll(async () => {
    await service.dispose();
  });

  const viewIds = async (): Promise<string[]> => (await service.api('GET', '/search-filter-view')).body.result.searchFilters.map((entry: { id: string }) => entry.id);

  it('lists the hard-coded filters, then one per field', async () => {
    const { status, body } = await service.api('GET', '/search-filters');
    expect(status).toBe(200);
    const filters = body.results.map((entry: { result: unknown }) => entry.result);
    expect(body.totalResults).toBe(filters.length);
    expect(filters[0]).toEqual({ id: 'DATE_LIVE', type: 'HARD_CODED_FREE_OPTION', name: 'Date live', searchField: 'DATE_LIVE' });
    expect(filters.map((filter: { name: string }) => filter.name)).toEqual(['Date live', 'File type', 'Staged', 'Folders', 'Keywords', 'Photographer']);
    expect(filters[5]).toEqual({ id: photographer, type: 'FIELD', name: 'Photographer', fieldId: photographer });
  });

  it('adds filters at a position, moves and removes them, keeping positions contiguous', async () => {
    expect(await viewIds()).toEqual([]);
    expect((await service.api('POST', '/search-filter-view/search-filters', { searchFilterId: 'FILE_TYPE' })).status).toBe(200);
    await service.api('POST', '/search-filter-view/search-filters', { searchFilterId: photographer });
    const first = await service.api('POST', '/search-filter-view/search-filters', { searchFilterId: 'DATE_LIVE', position: 0 });
    expect(first.body.result).toMatchObject({ id: 'DATE_LIVE', position: 0, searchFilter: { searchField: 'DATE_LIVE' } });
    expect(await viewIds()).toEqual(['DATE_LIVE', 'FILE_TYPE', photographer]);
    const moved = await service.api('PATCH', `/search-filter-view/search-filters/${photographer}`, { position: 0 });
    expect(moved.body.result.position).toBe(0);
    await service.api('PATCH', '/search-filter-view/search-filters/DATE_LIVE', { position: 99 });
    expect(await viewIds()).toEqual([photographer, 'FILE_TYPE', 'DATE_LIVE']);
    expect((await service.api('DELETE', '/search-filter-view/search-filters/FILE_TYPE')).status).toBe(200);
    const { body } = await service.api('GET', '/search-filter-view');
    expect(body.result.searchFilters.map((entry: { id: string; position: number }) => [entry.id, entry.position])).toEqual([
      [photographer, 0],
      ['DATE_LIVE', 1],
    ]);
  });

  it('drops a deleted field from the view', async () => {
    const field = (await service.api('POST', '/fields', { name: 'Short-lived' })).body.result.id;
    await service.api('POST', '/search-filter-view/search-filters', { searchFilterId: field });
    expect(await viewIds()).toContain(field);
    await service.api('DELETE', `/fields/${field}`);
    expect(await viewIds()).not.toContain(field);
    expect((await service.api('GET', '/search-filters')).body.results.map((entry: { result: { id: string } }) => entry.result.id)).not.toContain(field);
  });

  it.each([
    ['POST', '/search-filter-view/search-filters', { searchFilterId: 'NO_SUCH' }, 404, 'NOT_FOUND'],
    ['POST', '/search-filter-view/search-filters', { searchFilterId: 'STAGED', position: -1 }, 400, 'INVALID_BODY'],
    ['POST', '/search-filter-view/search-filters', {}, 400, 'INVALID_BODY'],
    ['PATCH', '/search-filter-view/search-filters/STAGED', { position: 1 }, 404, 'NOT_FOUND'],
    ['DELETE', '/search-filter-view/search-filters/STAGED', undefined, 404, 'NOT_FOUND'],
  ])('%s %s %j → %i %s', async (method, path, body, status, code) => {
    const answer = await service.api(method, path, body);
    expect(answer.status).toBe(status);
    expect(answer.body.code).toBe(code);
  });

  it('refuses a filter already in the view, and changes by non-admins', async () => {
    await service.api('POST', '/search-filter-view/search-filters', { searchFilterId: 'STAGED' });
    const again = await service.api('POST', '/search-filter-view/search-filters', { searchFilterId: 'STAGED' });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('SEARCH_FILTER_IN_VIEW');
    const before = await viewIds();
    const refused = await service.api('DELETE', '/search-filter-view/search-filters/STAGED', undefined, memberToken);
    expect(refused.body.code).toBe('FORBIDDEN');
    expect((await service.api('GET', '/search-filter-view', undefined, memberToken)).body.result.searchFilters.map((entry: { id: string }) => entry.id)).toEqual(before);
  });
});
