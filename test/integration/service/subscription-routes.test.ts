import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../support/test-service.js';
import { addUser, fakeClock } from '../../support/test-users.js';
import { assetSeeder } from '../../support/seed-assets.js';
import { LOCAL_SUBDOMAIN } from '../../../src/service/bootstrap.js';
import { downloadEventsRepo } from '../../../src/service/download-events/download-events-repo.js';

describe('subscriptions', () => {
  let service: TestService;
  const clock = fakeClock(Date.parse('2026-11-20T12:00:00.000Z'));
  beforeAll(async () => {
    service = await startTestService({}, { clock });
    const { ctx } = service.running;
    const accountId = ctx.accounts.bySubdomain(LOCAL_SUBDOMAIN)?.id ?? '';
    const seed = assetSeeder(ctx.db);
    const events = downloadEventsRepo(ctx.db);
    // Two assets in August, three more in October; downloads: 4 in September, 2 in November.
    for (const when of ['2026-08-03', '2026-08-20', '2026-10-01', '2026-10-02', '2026-10-30']) seed.insert({ accountId, dateLastModified: `${when}T10:00:00.000Z` });
    for (const when of ['2026-09-01', '2026-09-15', '2026-09-15', '2026-09-30', '2026-11-02', '2026-11-19']) {
      events.record({ accountId, assetId: 'a', assetFileId: 'f', userId: null, userType: 'ANONYMOUS', downloadType: 'SHARE', transformationType: 'ORIGINAL', dateDownloaded: `${when}T08:00:00.000Z` });
    }
  });
  afterAll(async () => {
    await service.dispose();
  });

  it('has none until an intent is confirmed', async () => {
    expect((await service.api('GET', '/subscription')).body.code).toBe('NO_SUBSCRIPTION');
    const intent = (await service.api('POST', '/subscription-intents', { plan: 'TIERED', tier: 'STARTER' })).body.result;
    expect(intent.status).toBe('PENDING');
    expect((await service.api('GET', `/subscription-intents/${intent.id}`)).body.result).toEqual(intent);
    expect((await service.api('GET', '/subscription')).status).toBe(404);
    const confirmed = await service.api('PATCH', `/subscription-intents/${intent.id}`, { status: 'CONFIRMED' });
    expect(confirmed.body.result.status).toBe('CONFIRMED');
    expect((await service.api('GET', '/subscription')).body.result).toMatchObject({ plan: 'TIERED', tier: 'STARTER' });
    const again = await service.api('PATCH', `/subscription-intents/${intent.id}`, { status: 'CANCELLED' });
    expect(again.body.code).toBe('SUBSCRIPTION_INTENT_CLOSED');
  });

  it('buckets a tiered plan by calendar month from real counts, and estimates from the current month', async () => {
    const { body } = await service.api('GET', '/subscription-usage');
    expect(body.result.bucketing).toBe('CALENDAR_MONTH');
    expect(body.result.buckets.map((bucket: any) => [bucket.periodStart.slice(0, 10), bucket.assets, bucket.downloads])).toEqual([
      ['2026-06-01', 0, 0],
      ['2026-07-01', 0, 0],
      ['2026-08-01', 2, 0],
      ['2026-09-01', 2, 4],
      ['2026-10-01', 5, 0],
      ['2026-11-01', 5, 2],
    ]);
    const estimate = (await service.api('GET', '/subscription-estimate')).body.result;
    expect(estimate).toMatchObject({ plan: 'TIERED', tier: 'STARTER', currency: 'EUR', amountCents: 4_900, usage: { assets: 5, downloads: 2 } });
  });

  it('buckets a value-based plan by billing month from its start day', async () => {
    clock.advance(-10 * 24 * 3600 * 1000); // 10 November: the plan starts on the 10th
    const intent = (await service.api('POST', '/subscription-intents', { plan: 'VALUE_BASED', tier: 'STANDARD' })).body.result;
    await service.api('PATCH', `/subscription-intents/${intent.id}`, { status: 'CONFIRMED' });
    clock.advance(10 * 24 * 3600 * 1000);
    const { body } = await service.api('GET', '/subscription-usage');
    expect(body.result.bucketing).toBe('BILLING_MONTH');
    expect(body.result.buckets.map((bucket: any) => [bucket.periodStart.slice(0, 10), bucket.downloads])).toEqual([
      ['2026-06-10', 0],
      ['2026-07-10', 0],
      ['2026-08-10', 1],
      ['2026-09-10', 3],
      ['2026-10-10', 1],
      ['2026-11-10', 1],
    ]);
    // Per-download pricing: 1 cent for the one download of the current billing month.
    expect((await service.api('GET', '/subscription-estimate')).body.result.amountCents).toBe(9_900 + 1);
    expect((await service.api('DELETE', '/subscription')).status).toBe(200);
    expect((await service.api('GET', '/subscription-usage')).body.code).toBe('NO_SUBSCRIPTION');
  });

  it('refuses bad plans and non-admins', async () => {
    expect((await service.api('POST', '/subscription-intents', { plan: 'TIERED', tier: 'GOLD' })).body.code).toBe('INVALID_BODY');
    expect((await service.api('GET', '/subscription-intents/nope')).body.code).toBe('NOT_FOUND');
    const member = await addUser(service, 'member@example.test', 'member');
    expect((await service.api('GET', '/subscription-usage', undefined, member.token)).body.code).toBe('FORBIDDEN');
  });
});

describe('external apps', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService();
  });
  afterAll(async () => {
    await service.dispose();
  });

  it('links the user, then mints SSO tokens for the linked user', async () => {
    expect((await service.api('POST', '/external-app-sso-tokens')).body.code).toBe('EXTERNAL_APP_USER_MISSING');
    expect((await service.api('POST', '/external-app-users', { externalAppUserId: 'ext-42' })).body.result.externalAppUserId).toBe('ext-42');
    const first = (await service.api('POST', '/external-app-sso-tokens')).body.result;
    const second = (await service.api('POST', '/external-app-sso-tokens')).body.result;
    expect(first.externalAppUserId).toBe('ext-42');
    expect(first.token).not.toBe(second.token);
    const stored = service.running.ctx.db.prepare('SELECT token_hash FROM external_app_sso_tokens').all() as { token_hash: string }[];
    expect(stored.map((row) => row.token_hash)).not.toContain(first.token);
    expect((await service.api('POST', '/external-app-users', { externalAppUserId: '' })).body.code).toBe('INVALID_BODY');
  });

  it('links external accounts, ordered by id, each to one account', async () => {
    await service.api('POST', '/external-app-accounts', { externalAppAccountId: 'zeta' });
    await service.api('POST', '/external-app-accounts', { externalAppAccountId: 'alpha' });
    await service.api('POST', '/external-app-accounts', { externalAppAccountId: 'alpha' });
    const { body } = await service.api('GET', '/external-app-accounts');
    expect(body.results.map((entry: any) => entry.result.externalAppAccountId)).toEqual(['alpha', 'zeta']);
    const { ctx } = service.running;
    const other = ctx.accounts.createAccount('other', 'Other', ctx.nowIso());
    ctx.db.prepare("INSERT INTO external_app_accounts VALUES ('taken', ?, '2026-01-01')").run(other.id);
    expect((await service.api('POST', '/external-app-accounts', { externalAppAccountId: 'taken' })).body.code).toBe('EXTERNAL_APP_ACCOUNT_TAKEN');
  });
});
