import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../support/test-service.js';
import { addUser } from '../../support/test-users.js';
import { randomFile, uploadNewAsset, waitForJob } from '../../support/upload-helpers.js';
import { makeImage, runDownloadJob } from '../../support/media-fixtures.js';
import { LOCAL_SUBDOMAIN } from '../../../src/service/bootstrap.js';
import { downloadEventsRepo, type NewDownloadEvent, type UserType } from '../../../src/service/download-events/download-events-repo.js';

const fixed = (fieldName: string) => ({ type: 'FIXED', fieldName });
const equals = (fieldName: string, value: string) => ({ type: 'FIELD_EQUALS', field: fixed(fieldName), value });
const search = (service: TestService, body: Record<string, unknown>, token?: string) => service.api('POST', '/asset-download-event-searches', body, token);

describe('download events recorded by downloads', () => {
  let service: TestService;
  let assetId: string;
  beforeAll(async () => {
    service = await startTestService();
    ({ assetId } = await uploadNewAsset(service, '/photo.jpg', await makeImage(64, 48)));
  });
  afterAll(async () => {
    await service.dispose();
  });

  it('records one event per file a download job hands out: original, custom, preset and zipped', async () => {
    const me = await service.api('GET', '/current-user');
    await runDownloadJob(service, { items: [{ batchItemId: 'a', assetId, assetFileId: null }, { batchItemId: 'gone', assetId: 'no-such-asset', assetFileId: null }] });
    await runDownloadJob(service, {
      items: [{ batchItemId: 'a', assetId, assetFileId: null }],
      transformationDescription: { type: 'CUSTOM', candidateTransformations: [{ criteria: { type: 'MATCH_ALL' }, transformation: { operations: [{ type: 'CONVERT', format: 'PNG' }] } }] },
    });
    await runDownloadJob(service, { items: [{ batchItemId: 'a', assetId, assetFileId: null }], transformationDescription: { type: 'PRESET', presetTransformationId: 'web-1000-jpg' } });
    await runDownloadJob(service, { items: [{ batchItemId: 'a', assetId, assetFileId: null }], zip: true });

    const { status, body } = await search(service, { criterion: { type: 'MATCH_ALL' }, sorts: [{ field: fixed('DATE_DOWNLOADED'), order: 'ASC' }] });
    expect(status).toBe(200);
    // The item of an unknown asset failed and recorded nothing.
    expect(body.totalResults).toBe(4);
    const events = body.results.map((entry: { result: unknown }) => entry.result);
    for (const event of events) expect(event).toMatchObject({ assetId, userId: me.body.result.id, userType: 'USER', portalId: null, assetShareId: null });
    expect(events.map((event: { downloadType: string; transformation: { type: string } }) => `${event.downloadType}/${event.transformation.type}`)).toEqual([
      'DIRECT/ORIGINAL',
      'DIRECT/CUSTOM',
      'DIRECT/PRESET',
      'ZIP/ORIGINAL',
    ]);
    expect(events[2].transformation.presetTransformationId).toBe('web-1000-jpg');
  });

  it('records an anonymous event for each download through a share or a portal, naming it', async () => {
    const { assetId: pressId, asset } = await uploadNewAsset(service, '/Press/kit.bin', randomFile(300));
    const live = await service.api('POST', '/asset-lifecycle-transition-batch-jobs', { selector: { type: 'BY_IDS', assetIds: [pressId] }, targetState: 'LIVE' });
    expect(live.status, live.text).toBe(200);
    await waitForJob(service, '/asset-lifecycle-transition-batch-jobs', live.body.result.id);
    const share = (await service.api('POST', '/asset-shares', { assetIds: [pressId], access: 'VIEW_AND_DOWNLOAD' })).body.result.id;
    const foldersId = (await service.api('GET', '/folder-settings')).body.result.fieldId;
    const folder = asset.metadata.values[foldersId][0];
    const portal = (await service.api('POST', '/portals', { name: 'Press', folderIds: [folder] })).body.result.id;
    const visit = (path: string) => fetch(`${service.url}${path}`, { redirect: 'manual' });
    expect((await visit(`/public/asset-shares/${share}/assets/${pressId}/content`)).status).toBe(302);
    expect((await visit(`/public/portals/${portal}/assets/${pressId}/content`)).status).toBe(302);
    // A refused download (unknown asset) records nothing.
    expect((await visit(`/public/asset-shares/${share}/assets/no-such-asset/content`)).status).toBe(404);

    const { body } = await search(service, { criterion: { type: 'FIELD_IN', field: fixed('USER_TYPE'), values: ['ANONYMOUS'] }, sorts: [{ field: fixed('DATE_DOWNLOADED'), order: 'ASC' }] });
    const events = body.results.map((entry: { result: unknown }) => entry.result);
    expect(events).toEqual([
      expect.objectContaining({ assetId: pressId, userId: null, userType: 'ANONYMOUS', downloadType: 'SHARE', assetShareId: share, portalId: null }),
      expect.objectContaining({ assetId: pressId, userId: null, userType: 'ANONYMOUS', downloadType: 'PORTAL', assetShareId: null, portalId: portal }),
    ]);
    const byShare = await search(service, { criterion: equals('ASSET_SHARE_ID', share) });
    expect(byShare.body.totalResults).toBe(1);
  });
});

/** A small deterministic generator, so the seeded events are the same on every run. */
function lcg(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}

describe('download event search', () => {
  let service: TestService;
  let accountId: string;
  const events: NewDownloadEvent[] = [];
  const EVENTS = 10_050;
  const assets = Array.from({ length: 37 }, (_, index) => `asset-${String(index).padStart(2, '0')}`);
  const users = ['user-a', 'user-b', 'user-c', null];

  beforeAll(async () => {
    service = await startTestService();
    const { ctx } = service.running;
    accountId = ctx.accounts.bySubdomain(LOCAL_SUBDOMAIN)?.id ?? '';
    const other = ctx.accounts.createAccount('elsewhere', 'Elsewhere', ctx.nowIso());
    const random = lcg(21);
    const start = Date.parse('2025-06-01T00:00:00.000Z');
    for (let index = 0; index < EVENTS; index++) {
      const userId = users[Math.floor(random() * users.length)] ?? null;
      const userType: UserType = userId === null ? 'ANONYMOUS' : 'USER';
      events.push({
        accountId,
        assetId: assets[Math.floor(random() * random() * assets.length)] ?? 'asset-00',
        assetFileId: 'file',
        userId,
        userType,
        downloadType: userId === null ? 'SHARE' : random() < 0.2 ? 'ZIP' : 'DIRECT',
        transformationType: random() < 0.3 ? 'CUSTOM' : 'ORIGINAL',
        dateDownloaded: new Date(start + Math.floor(random() * 400 * 24 * 3600 * 1000)).toISOString(),
      });
    }
    const repo = downloadEventsRepo(ctx.db);
    ctx.db.transaction(() => {
      for (const event of events) repo.record(event);
      // Another account's downloads of the same asset ids never show up here.
      for (const event of events.slice(0, 50)) repo.record({ ...event, accountId: other.id });
    })();
  });
  afterAll(async () => {
    await service.dispose();
  });

  it('counts exact and ranged criteria with AND, OR and NOT as an independent count does', async () => {
    const inRange = (event: NewDownloadEvent) => event.dateDownloaded >= '2025-09-01T00:00:00.000Z' && event.dateDownloaded < '2026-01-01T00:00:00.000Z';
    const cases: [unknown, (event: NewDownloadEvent) => boolean][] = [
      [{ type: 'MATCH_ALL' }, () => true],
      [equals('USER_TYPE', 'ANONYMOUS'), (event) => event.userType === 'ANONYMOUS'],
      [{ type: 'FIELD_MATCHES', field: fixed('DATE_DOWNLOADED'), value: '[2025-09-01 TO 2026-01-01}' }, inRange],
      [
        { type: 'AND', criteria: [equals('USER_ID', 'user-a'), { type: 'NOT', criterion: equals('DOWNLOAD_TYPE', 'ZIP') }] },
        (event) => event.userId === 'user-a' && event.downloadType !== 'ZIP',
      ],
      [
        { type: 'OR', criteria: [{ type: 'FIELD_IN', field: fixed('ASSET_ID'), values: ['asset-03', 'asset-30'] }, { type: 'FIELD_IS_EMPTY', field: fixed('USER_ID') }] },
        (event) => ['asset-03', 'asset-30'].includes(event.assetId) || event.userId === null,
      ],
    ];
    for (const [criterion, keep] of cases) {
      const { status, body } = await search(service, { criterion, pageSize: 0 });
      expect(status, JSON.stringify(criterion)).toBe(200);
      expect(body.totalResults, JSON.stringify(criterion)).toBe(events.filter(keep).length);
    }
  });

  it('sorts by any field, the id breaking ties', async () => {
    const { body } = await search(service, { criterion: equals('USER_ID', 'user-b'), sorts: [{ field: fixed('ASSET_ID'), order: 'DESC' }, { field: fixed('DATE_DOWNLOADED'), order: 'ASC' }], pageSize: 1000 });
    const keys = body.results.map((entry: { result: { assetId: string; dateDownloaded: string } }) => `${entry.result.assetId} ${entry.result.dateDownloaded}`);
    const expected = events
      .filter((event) => event.userId === 'user-b')
      .sort((a, b) => (a.assetId === b.assetId ? a.dateDownloaded.localeCompare(b.dateDownloaded) : b.assetId.localeCompare(a.assetId)))
      .slice(0, 1000)
      .map((event) => `${event.assetId} ${event.dateDownloaded}`);
    expect(keys).toEqual(expected);
  });

  it('pages up to 10,000 results, while totalResults counts all of them', async () => {
    const last = await search(service, { criterion: { type: 'MATCH_ALL' }, from: 9_990, pageSize: 10 });
    expect(last.status).toBe(200);
    expect(last.body.results).toHaveLength(10);
    expect(last.body.totalResults).toBe(EVENTS);
    const beyond = await search(service, { criterion: { type: 'MATCH_ALL' }, from: 9_995, pageSize: 10 });
    expect(beyond.status).toBe(400);
    expect(beyond.body.code).toBe('PAGING_LIMIT_EXCEEDED');
  });

  it('aggregates downloads per asset and one user per month as counted independently', async () => {
    const { body } = await search(service, {
      criterion: equals('USER_ID', 'user-c'),
      pageSize: 0,
      aggregations: [
        { name: 'perAsset', type: 'TERMS', field: fixed('ASSET_ID'), size: 5 },
        { name: 'perMonth', type: 'DATE_HISTOGRAM', field: fixed('DATE_DOWNLOADED'), interval: 'MONTH' },
      ],
    });
    const mine = events.filter((event) => event.userId === 'user-c');
    const tally = (key: (event: NewDownloadEvent) => string): Map<string, number> => {
      const counts = new Map<string, number>();
      for (const event of mine) counts.set(key(event), (counts.get(key(event)) ?? 0) + 1);
      return counts;
    };
    const perAsset = [...tally((event) => event.assetId)].sort(([a, m], [b, n]) => n - m || a.localeCompare(b)).map(([key, count]) => ({ key, count }));
    expect(body.aggregations.perAsset.buckets).toEqual(perAsset.slice(0, 5));
    expect(body.aggregations.perAsset.otherCount).toBe(mine.length - perAsset.slice(0, 5).reduce((sum, bucket) => sum + bucket.count, 0));
    const perMonth = [...tally((event) => `${event.dateDownloaded.slice(0, 7)}-01T00:00:00.000Z`)].sort(([a], [b]) => a.localeCompare(b)).map(([key, count]) => ({ key, count }));
    expect(perMonth.length).toBeGreaterThan(12);
    expect(body.aggregations.perMonth.buckets).toEqual(perMonth);
  });

  it('buckets weeks from Monday', async () => {
    const { body } = await search(service, {
      criterion: { type: 'FIELD_MATCHES', field: fixed('DATE_DOWNLOADED'), value: '[2025-06-04 TO 2025-06-08]' },
      pageSize: 0,
      aggregations: [{ name: 'weeks', type: 'DATE_HISTOGRAM', field: fixed('DATE_DOWNLOADED'), interval: 'WEEK' }],
    });
    // 4–8 June 2025 is Wednesday to Sunday: one week, from Monday 2 June.
    expect(body.aggregations.weeks.buckets).toEqual([{ key: '2025-06-02T00:00:00.000Z', count: body.totalResults }]);
  });

  it.each([
    [{ criterion: equals('COLOUR', 'red') }, 'INVALID_CRITERION', 'criterion.field.fieldName'],
    [{ criterion: { type: 'FIELD_EQUALS', field: { type: 'FIELD', fieldId: 'x' }, value: 'y' } }, 'INVALID_CRITERION', 'criterion.field.type'],
    [{ criterion: equals('USER_TYPE', 'ROBOT') }, 'INVALID_CRITERION', 'USER_TYPE'],
    [{}, 'INVALID_CRITERION', 'criterion'],
    [{ criterion: { type: 'MATCH_ALL' }, sorts: [{ field: fixed('NOPE') }] }, 'INVALID_SORT', 'sorts[0].field.fieldName'],
    [{ criterion: { type: 'MATCH_ALL' }, aggregations: [{ name: 'h', type: 'DATE_HISTOGRAM', field: fixed('ASSET_ID'), interval: 'MONTH' }] }, 'INVALID_BODY', 'not a date'],
    [{ criterion: { type: 'MATCH_ALL' }, aggregations: [{ name: 't', type: 'TERMS', field: fixed('ASSET_ID') }, { name: 't', type: 'TERMS', field: fixed('USER_ID') }] }, 'INVALID_BODY', 'used twice'],
    [{ criterion: { type: 'MATCH_ALL' }, aggregations: [{ name: 't', type: 'PERCENTILES', field: fixed('ASSET_ID') }] }, 'INVALID_BODY', 'aggregations.0.type'],
  ])('answers %j with 400 %s naming %s', async (request, code, where) => {
    const { status, body } = await search(service, request);
    expect(status).toBe(400);
    expect(body.code).toBe(code);
    expect(body.message).toContain(where);
  });

  it('is for admins only', async () => {
    const member = await addUser(service, 'member@example.test', 'member');
    const refused = await search(service, { criterion: { type: 'MATCH_ALL' } }, member.token);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('FORBIDDEN');
  });
});
