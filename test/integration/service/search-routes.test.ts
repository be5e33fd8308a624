import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../support/test-service.js';
import { addUser, fakeClock } from '../../support/test-users.js';
import { uploadNewAsset } from '../../support/upload-helpers.js';
import { assetSeeder, type SeedAsset } from '../../support/seed-assets.js';
import { LOCAL_SUBDOMAIN } from '../../../src/service/bootstrap.js';
import { SCROLL_IDLE_MS } from '../../../src/service/search/scroll-store.js';

const fixed = (fieldName: string) => ({ type: 'FIXED', fieldName });
const keyword = (value: string) => ({ type: 'FIELD_EQUALS', field: fixed('KEYWORDS'), value });
const byId = [{ field: fixed('ASSET_ID'), order: 'ASC' }];

function accountOf(service: TestService): { accountId: string; keywordsId: string } {
  const { accounts, fields } = service.running.ctx;
  const accountId = accounts.bySubdomain(LOCAL_SUBDOMAIN)?.id ?? '';
  return { accountId, keywordsId: fields.byRole(accountId, 'KEYWORDS')?.id ?? '' };
}

/** Inserts asset rows directly (uploading thousands of real files would be far too slow). */
function seed(service: TestService, count: number, make: (index: number) => Omit<SeedAsset, 'accountId'>): string[] {
  const { accountId } = accountOf(service);
  const seeder = assetSeeder(service.running.ctx.db);
  return service.running.ctx.db.transaction(() => Array.from({ length: count }, (_, index) => seeder.insert({ accountId, ...make(index) })))();
}

describe('asset searches', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService();
  });
  afterAll(async () => {
    await service.dispose();
  });

  it('finds only LIVE assets by default, renders them like GET /assets/{id}, with permitted actions', async () => {
    const uploaded = [];
    for (const name of ['one', 'two', 'three']) uploaded.push(await uploadNewAsset(service, `/Real/${name}.bin`, Buffer.from(name)));
    const criterion = { type: 'FIELD_MATCHES', field: fixed('FILENAME'), value: '*.bin' };
    const none = await service.api('POST', '/asset-searches', { from: 0, pageSize: 10, criterion, sorts: byId });
    expect(none.status).toBe(200);
    expect(none.body).toEqual({ results: [], totalResults: 0 });

    // The lifecycle transition job is not part of this change: move assets to LIVE in the database directly.
    const [first, second, third] = uploaded.map((asset) => asset.assetId);
    const goLive = service.running.ctx.db.prepare("UPDATE assets SET state = 'LIVE', date_live = ? WHERE id = ?");
    for (const id of [first, second]) goLive.run(service.running.ctx.nowIso(), id);

    const live = await service.api('POST', '/asset-searches', { from: 0, pageSize: 10, criterion, sorts: byId });
    expect(live.body.totalResults).toBe(2);
    const expectedIds = [first, second].sort();
    expect(live.body.results.map((item: any) => item.result.id)).toEqual(expectedIds);
    for (const item of live.body.results) {
      const single = await service.api('GET', `/assets/${item.result.id}`);
      expect(item).toEqual(single.body);
      expect(item.permittedActions).toContainEqual({ resourceType: 'ASSET', resourceId: item.result.id, action: 'EDIT' });
    }
    const staged = await service.api('POST', '/asset-searches', { from: 0, pageSize: 10, criterion: { type: 'AND', criteria: [criterion, { type: 'FIELD_EQUALS', field: fixed('STAGED'), value: true }] }, sorts: [] });
    expect(staged.body.results.map((item: any) => item.result.id)).toEqual([third]);
  });

  it('lets a viewer search, with only the actions a viewer holds', async () => {
    const { token } = await addUser(service, 'viewer@example.com', 'viewer');
    const answer = await service.api('POST', '/asset-searches', { from: 0, pageSize: 1, criterion: { type: 'MATCH_ALL' }, sorts: byId }, token);
    expect(answer.status).toBe(200);
    const [item] = answer.body.results;
    expect(item.permittedActions.map((action: any) => action.action).sort()).toEqual(['DOWNLOAD', 'VIEW']);
    const scroll = await service.api('POST', '/asset-scroll-searches', { pageSize: 1, criterion: { type: 'MATCH_ALL' }, sorts: byId }, token);
    expect(scroll.status).toBe(200);
  });

  it.each([
    ['no criterion', { from: 0, pageSize: 10, sorts: [] }, 'INVALID_CRITERION', 'criterion'],
    ['no sorts', { from: 0, pageSize: 10, criterion: { type: 'MATCH_ALL' } }, 'INVALID_SORT', 'sorts'],
    ['an unknown fixed field', { criterion: { type: 'AND', criteria: [{ type: 'MATCH_ALL' }, { type: 'FIELD_EXISTS', field: fixed('SIZE') }] }, sorts: [] }, 'INVALID_CRITERION', 'criterion.criteria[1].field.fieldName'],
    ['a V1 field name', { criterion: { type: 'FIELD_EXISTS', field: fixed('ADDED_BY') }, sorts: [] }, 'UNSUPPORTED_V1_NAME', 'STAGED_BY'],
    ['a V1 sort name', { criterion: { type: 'MATCH_ALL' }, sorts: [{ field: fixed('DATE_ADDED'), order: 'DESC' }] }, 'UNSUPPORTED_V1_NAME', 'DATE_LIVE'],
    ['a V1 body property', { criterion: { type: 'MATCH_ALL' }, sorts: [], stagingStatus: 'STAGED' }, 'UNSUPPORTED_V1_NAME', 'LIFECYCLE_STATE'],
    ['a page larger than 1000', { pageSize: 1001, criterion: { type: 'MATCH_ALL' }, sorts: [] }, 'INVALID_BODY', 'pageSize'],
    ['a negative from', { from: -1, criterion: { type: 'MATCH_ALL' }, sorts: [] }, 'INVALID_BODY', 'from'],
  ])('answers 400 for %s', async (_name, body, code, fragment) => {
    const answer = await service.api('POST', '/asset-searches', body);
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ status: 400, error: 'Bad Request', path: '/asset-searches', code });
    expect(answer.body.message).toContain(fragment);
  });

  describe('paging over 10,050 assets', () => {
    const bulk = keyword('bulk');
    let ids: string[];
    beforeAll(() => {
      const { keywordsId } = accountOf(service);
      ids = seed(service, 10_050, (index) => ({ id: `bulk-${String(index).padStart(5, '0')}`, values: { [keywordsId]: ['bulk'] } }));
    });

    it('answers pageSize 0 with the count alone', async () => {
      const answer = await service.api('POST', '/asset-searches', { from: 0, pageSize: 0, criterion: bulk, sorts: [] });
      expect(answer.body).toEqual({ results: [], totalResults: 10_050 });
    });

    it('pages up to 10,000 deep with the true total', async () => {
      const first = await service.api('POST', '/asset-searches', { from: 0, pageSize: 1000, criterion: bulk, sorts: byId });
      expect(first.body.results.map((item: any) => item.result.id)).toEqual(ids.slice(0, 1000));
      const last = await service.api('POST', '/asset-searches', { from: 9950, pageSize: 50, criterion: bulk, sorts: byId });
      expect(last.status).toBe(200);
      expect(last.body.totalResults).toBe(10_050);
      expect(last.body.results.map((item: any) => item.result.id)).toEqual(ids.slice(9950, 10_000));
      const descending = await service.api('POST', '/asset-searches', { from: 10, pageSize: 3, criterion: bulk, sorts: [{ field: fixed('ASSET_ID'), order: 'DESC' }] });
      expect(descending.body.results.map((item: any) => item.result.id)).toEqual(ids.slice(-13, -10).reverse());
    });

    it('refuses to page beyond 10,000 (PAGING_LIMIT_EXCEEDED) but a scroll goes on', async () => {
      const beyond = await service.api('POST', '/asset-searches', { from: 9951, pageSize: 50, criterion: bulk, sorts: byId });
      expect(beyond.status).toBe(400);
      expect(beyond.body.code).toBe('PAGING_LIMIT_EXCEEDED');
      expect(beyond.body.message).toContain('asset-scroll-searches');
      expect((await service.api('POST', '/asset-searches', { from: 10_001, pageSize: 0, criterion: bulk, sorts: [] })).body.code).toBe('PAGING_LIMIT_EXCEEDED');

      const seen: string[] = [];
      let page = await service.api('POST', '/asset-scroll-searches', { pageSize: 1000, criterion: bulk, sorts: byId });
      while (page.body.results.length > 0) {
        expect(page.body.totalResults).toBe(10_050);
        seen.push(...page.body.results.map((item: any) => item.result.id));
        page = await service.api('POST', '/asset-scroll-search-scrolls', { scrollId: page.body.scrollId });
        expect(page.status).toBe(200);
      }
      expect(seen).toEqual(ids);
    });
  });

  describe('scrolls', () => {
    const scrolling = keyword('scroll');
    const byModified = [{ field: fixed('DATE_LAST_MODIFIED'), order: 'ASC' }];
    const at = (second: number) => new Date(Date.UTC(2026, 0, 1) + second * 1000).toISOString();

    it('returns each of 2,500 assets exactly once while assets are added underneath', async () => {
      const { keywordsId } = accountOf(service);
      const values = { [keywordsId]: ['scroll'] };
      const originals = seed(service, 2500, (index) => ({ id: `scroll-${String(index).padStart(4, '0')}`, dateLastModified: at(index), values }));
      const mustAppear = new Set<string>();
      const mustNotAppear = new Set<string>();

      let page = await service.api('POST', '/asset-scroll-searches', { pageSize: 97, criterion: scrolling, sorts: byModified });
      expect(page.body.totalResults).toBe(2500);
      const seen: any[] = [];
      for (let round = 0; page.body.results.length > 0; round++) {
        seen.push(...page.body.results.map((item: any) => item.result));
        const last = seen[seen.length - 1];
        // Assets added ahead of the cursor are found, so adding on every page would scroll forever.
        if (round >= 20) {
          page = await service.api('POST', '/asset-scroll-search-scrolls', { scrollId: page.body.scrollId });
          continue;
        }
        // Added behind the cursor (earlier, or the same date with a smaller id): never returned.
        const behind = seed(service, 2, (index) => (index === 0 ? { id: `added-early-${round}`, dateLastModified: at(-1 - round), values } : { id: `${last.id.slice(0, -1)}!${round}`, dateLastModified: last.dateLastModified, values }));
        // Added ahead (later, or the same date with a larger id): returned once, in order.
        const ahead = seed(service, 2, (index) => (index === 0 ? { id: `added-late-${round}`, dateLastModified: at(5000 + round), values } : { id: `${last.id}~tie`, dateLastModified: last.dateLastModified, values }));
        behind.forEach((id) => mustNotAppear.add(id));
        ahead.forEach((id) => mustAppear.add(id));
        page = await service.api('POST', '/asset-scroll-search-scrolls', { scrollId: page.body.scrollId });
        expect(page.status).toBe(200);
        expect(page.body.totalResults).toBe(2500);
      }
      const ids = seen.map((asset) => asset.id);
      expect(new Set(ids).size).toBe(ids.length);
      for (const id of originals) expect(ids).toContain(id);
      for (const id of mustAppear) expect(ids).toContain(id);
      for (const id of mustNotAppear) expect(ids).not.toContain(id);
      expect(ids.length).toBe(originals.length + mustAppear.size);
      const keys = seen.map((asset) => `${asset.dateLastModified} ${asset.id}`);
      expect(keys).toEqual([...keys].sort());
    });

    it('repeats a page when an older scroll id is sent again, and ends with an empty page', async () => {
      const start = await service.api('POST', '/asset-scroll-searches', { pageSize: 2, criterion: scrolling, sorts: byModified });
      const next = await service.api('POST', '/asset-scroll-search-scrolls', { scrollId: start.body.scrollId });
      const again = await service.api('POST', '/asset-scroll-search-scrolls', { scrollId: start.body.scrollId });
      expect(again.body.results).toEqual(next.body.results);
      expect(again.body.results).toHaveLength(2);

      const small = await service.api('POST', '/asset-scroll-searches', { pageSize: 5, criterion: keyword('no such keyword'), sorts: [] });
      expect(small.body).toMatchObject({ results: [], totalResults: 0, scrollId: expect.any(String) });
      const after = await service.api('POST', '/asset-scroll-search-scrolls', { scrollId: small.body.scrollId });
      expect(after.body.results).toEqual([]);
    });

    it('answers 404 SCROLL_EXPIRED for unknown, tampered and foreign scroll ids, 400 for bad bodies', async () => {
      const start = await service.api('POST', '/asset-scroll-searches', { pageSize: 2, criterion: scrolling, sorts: [] });
      const [payload = '', signature = ''] = start.body.scrollId.split('.');
      const forged = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), c: { values: [], id: 'zzz' } })).toString('base64url');
      const { token } = await addUser(service, 'member@example.com', 'member');
      for (const [scrollId, who] of [['nonsense', undefined], [`${forged}.${signature}`, undefined], [start.body.scrollId, token]] as const) {
        const answer = await service.api('POST', '/asset-scroll-search-scrolls', { scrollId }, who);
        expect(answer.status).toBe(404);
        expect(answer.body.code).toBe('SCROLL_EXPIRED');
      }
      expect((await service.api('POST', '/asset-scroll-search-scrolls', {})).body.code).toBe('INVALID_BODY');
      expect((await service.api('POST', '/asset-scroll-searches', { from: 10, criterion: scrolling, sorts: [] })).body.code).toBe('INVALID_BODY');
      expect((await service.api('POST', '/asset-scroll-searches', { pageSize: 0, criterion: scrolling, sorts: [] })).body.code).toBe('INVALID_BODY');
      expect((await service.api('POST', '/asset-scroll-searches', { criterion: scrolling })).body.code).toBe('INVALID_SORT');
    });
  });
});

describe('scroll expiry', () => {
  it('expires a scroll idle for 10 minutes, not one in use', async () => {
    const clock = fakeClock();
    const service = await startTestService({}, { clock });
    try {
      seed(service, 5, () => ({}));
      const body = { pageSize: 1, criterion: { type: 'MATCH_ALL' }, sorts: [] };
      let page = await service.api('POST', '/asset-scroll-searches', body);
      for (let step = 0; step < 3; step++) {
        clock.advance(SCROLL_IDLE_MS - 1000);
        page = await service.api('POST', '/asset-scroll-search-scrolls', { scrollId: page.body.scrollId });
        expect(page.status).toBe(200);
      }
      clock.advance(SCROLL_IDLE_MS + 1);
      const expired = await service.api('POST', '/asset-scroll-search-scrolls', { scrollId: page.body.scrollId });
      expect(expired.status).toBe(404);
      expect(expired.body.code).toBe('SCROLL_EXPIRED');
    } finally {
      await service.dispose();
    }
  });
});
