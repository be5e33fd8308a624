import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../support/test-service.js';
import { addUser } from '../../support/test-users.js';
import { smtpConfig, startSmtp, type TestSmtp } from '../../support/smtp-server.js';
import { signUpAccount } from '../../support/sign-up-account.js';

const unauthenticated = async (service: TestService, method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> => {
  const response = await fetch(`${service.url}${path}`, { method, headers: body === undefined ? {} : { 'content-type': 'application/json' }, body: body === undefined ? null : JSON.stringify(body) });
  return { status: response.status, body: await response.json() };
};

describe('accounts side by side', () => {
  let service: TestService;
  let smtp: TestSmtp;
  let otherToken: string;
  let otherAccountId: string;
  beforeAll(async () => {
    smtp = await startSmtp();
    service = await startTestService({ smtp: smtpConfig(smtp) });
  });
  afterAll(async () => {
    await service.dispose();
    await smtp.close();
  });

  it('creates an account without a token, with its built-in fields and admin, refusing taken subdomains', async () => {
    expect((await unauthenticated(service, 'POST', '/subdomain-availability-checks', { subdomain: 'acme' })).body.result).toEqual({ subdomain: 'acme', available: true });
    otherAccountId = (await signUpAccount(service, smtp, { subdomain: 'acme', name: 'Acme', email: 'boss@acme.test', password: 'a long enough password' })).id;
    expect((await unauthenticated(service, 'POST', '/subdomain-availability-checks', { subdomain: 'ACME' })).body.result.available).toBe(false);
    expect((await unauthenticated(service, 'POST', '/accounts', { subdomain: 'acme', name: 'Again', email: 'x@acme.test', password: 'a long enough password' })).body.code).toBe('SUBDOMAIN_TAKEN');
    expect((await unauthenticated(service, 'POST', '/accounts', { subdomain: 'local', name: 'L', email: 'y@acme.test', password: 'a long enough password' })).body.code).toBe('SUBDOMAIN_TAKEN');
    expect((await unauthenticated(service, 'POST', '/accounts', { subdomain: '-bad', name: 'B', email: 'z@acme.test', password: 'a long enough password' })).body.code).toBe('INVALID_BODY');
    const user = service.running.ctx.accounts.userByEmail('boss@acme.test');
    otherToken = await service.running.ctx.tokens.issue({ sub: user?.id ?? '', scope: 'subdomain:acme' }, 3600);
    const fields = await service.api('GET', '/fields', undefined, otherToken);
    expect(fields.body.map((field: { name: string }) => field.name)).toEqual(['Folders', 'Keywords']);
  });

  it('records invite requests and answers public account data without a token', async () => {
    const invite = await unauthenticated(service, 'POST', '/account-invite-requests', { subdomain: 'acme', email: 'new@people.test', message: 'let me in' });
    expect(invite.body.result).toMatchObject({ subdomain: 'acme', email: 'new@people.test' });
    expect((await unauthenticated(service, 'POST', '/account-invite-requests', { subdomain: 'nowhere', email: 'new@people.test' })).status).toBe(404);
    const found = await unauthenticated(service, 'POST', '/publicly-available-account-data-searches', { subdomain: 'acme' });
    expect(found.body.results[0].result).toEqual({ accountId: otherAccountId, subdomain: 'acme', name: 'Acme', allowedLoginMethods: ['PASSWORD'] });
    expect((await unauthenticated(service, 'POST', '/publicly-available-account-data-searches', { subdomain: 'nowhere' })).body.totalResults).toBe(0);
  });

  it('keeps every kind of data inside its account', async () => {
    // Data in the local account…
    const field = (await service.api('POST', '/fields', { name: 'Secret field' })).body.result.id;
    const view = (await service.api('POST', '/field-views', { name: 'Local view', fieldIds: [field] })).body.result.id;
    const intent = (await service.api('POST', '/subscription-intents', { plan: 'TIERED', tier: 'STARTER' })).body.result.id;
    await service.api('PATCH', `/subscription-intents/${intent}`, { status: 'CONFIRMED' });
    await service.api('POST', '/external-app-accounts', { externalAppAccountId: 'local-ext' });
    await service.api('PUT', '/storefront-sku-settings', { skus: [{ sku: 'S1', name: 'Print', priceCents: 500, currency: 'EUR' }] });
    await service.api('POST', '/search-filter-view/search-filters', { searchFilterId: field });
    const localId = service.running.ctx.accounts.bySubdomain('local')?.id ?? '';
    await service.api('PUT', `/account-terms-and-conditions/${localId}`, { text: 'Local terms' });
    // …is invisible from the other account, id by id and in every list.
    const other = (method: string, path: string, body?: unknown) => service.api(method, path, body, otherToken);
    expect((await other('GET', `/fields/${field}`)).status).toBe(404);
    expect((await other('GET', `/field-views/${view}`)).status).toBe(404);
    expect((await other('GET', '/field-views')).body.totalResults).toBe(0);
    expect((await other('GET', `/subscription-intents/${intent}`)).status).toBe(404);
    expect((await other('GET', '/subscription')).body.code).toBe('NO_SUBSCRIPTION');
    expect((await other('GET', '/external-app-accounts')).body.totalResults).toBe(0);
    expect((await other('GET', '/storefront-sku-settings')).body.result.skus).toEqual([]);
    expect((await other('GET', '/search-filter-view')).body.result.searchFilters).toEqual([]);
    expect((await other('GET', '/search-filters')).body.results.map((entry: any) => entry.result.id)).not.toContain(field);
    expect((await other('PUT', `/account-terms-and-conditions/${localId}`, { text: 'Hijack' })).status).toBe(404);
    expect((await other('DELETE', `/account-terms-and-conditions/${localId}`)).status).toBe(404);
    expect((await other('POST', '/field-views', { name: 'x', fieldIds: [field] })).body.code).toBe('INVALID_BODY');
    expect((await other('PATCH', '/auto-tagging-image-settings', { targetFieldId: field })).body.code).toBe('INVALID_BODY');
    expect((await other('GET', '/auto-tagging-image-settings')).body.result.targetFieldId).toBeNull();
    expect((await service.api('PATCH', '/auto-tagging-image-settings', { targetFieldId: field })).body.result.targetFieldId).toBe(field);
    expect((await other('POST', '/asset-download-event-searches', { criterion: { type: 'MATCH_ALL' } })).body.totalResults).toBe(0);
    expect((await other('GET', '/onboarding-checklist')).body.result.items.find((item: any) => item.id === 'CREATE_FIELD').done).toBe(false);
    expect((await service.api('GET', '/onboarding-checklist')).body.result.items.find((item: any) => item.id === 'CREATE_FIELD').done).toBe(true);
    expect((await unauthenticated(service, 'GET', `/account-terms-and-conditions/${localId}`)).body.result.text).toBe('Local terms');
  });
});

describe('account administration', () => {
  let service: TestService;
  let member: { userId: string; token: string };
  let accountId: string;
  beforeAll(async () => {
    service = await startTestService();
    member = await addUser(service, 'member@example.test', 'member');
    accountId = service.running.ctx.accounts.bySubdomain('local')?.id ?? '';
  });
  afterAll(async () => {
    await service.dispose();
  });

  it('reads defaults, replaces and merges settings, admins only', async () => {
    expect((await service.api('GET', '/auto-tagging-image-settings')).body.result).toEqual({ enabled: false, minimumConfidence: 0.8, targetFieldId: null });
    expect((await service.api('PATCH', '/auto-tagging-image-settings', { enabled: true })).body.result).toEqual({ enabled: true, minimumConfidence: 0.8, targetFieldId: null });
    expect((await service.api('PATCH', '/text-in-image-settings', { languages: ['en', 'de'] })).body.result).toEqual({ enabled: false, languages: ['en', 'de'] });
    expect((await service.api('PUT', '/account-security', { allowedEmailDomains: ['Example.test'], sessionLifetimeHours: 12 })).body.result).toEqual({ allowedEmailDomains: ['example.test'], sessionLifetimeHours: 12 });
    expect((await service.api('PUT', '/allowed-login-methods', { methods: ['PASSWORD', 'SAML', 'SAML'] })).body.result).toEqual({ methods: ['PASSWORD', 'SAML'] });
    expect((await service.api('PUT', '/allowed-login-methods', { methods: [] })).body.code).toBe('INVALID_BODY');
    // Those were security changes: the member's access token went with them; a new one works.
    expect((await service.api('GET', '/auto-tagging-image-settings', undefined, member.token)).body.code).toBe('TOKEN_REVOKED');
    member = { ...member, token: await service.token('member@example.test') };
    expect((await service.api('PUT', '/storefront-sku-settings', { skus: [{ sku: 'A', name: 'A', priceCents: -1, currency: 'EUR' }] })).body.code).toBe('INVALID_BODY');
    expect((await service.api('PATCH', '/auto-tagging-image-settings', { enabled: false }, member.token)).body.code).toBe('FORBIDDEN');
    expect((await service.api('GET', '/auto-tagging-image-settings', undefined, member.token)).body.result.enabled).toBe(true);
    await service.api('PUT', '/storefront-sku-settings', { skus: [{ sku: 'A', name: 'A', priceCents: 100, currency: 'EUR' }] });
    expect((await service.api('DELETE', '/storefront-sku-settings')).body.result).toEqual({ skus: [] });
  });

  it('ticks the onboarding checklist from real actions', async () => {
    const before = (await service.api('GET', '/onboarding-checklist')).body.result;
    expect(before.items.find((item: any) => item.id === 'INVITE_USER').done).toBe(true);
    expect(before.items.find((item: any) => item.id === 'CREATE_FIELD').done).toBe(false);
    await service.api('POST', '/fields', { name: 'Credit' });
    const after = (await service.api('PATCH', '/onboarding-checklist', { dismissed: true })).body.result;
    expect(after.items.find((item: any) => item.id === 'CREATE_FIELD').done).toBe(true);
    expect(after.dismissed).toBe(true);
  });

  it('keeps terms per account, versioned, readable without a token', async () => {
    expect((await service.api('GET', `/account-terms-and-conditions/${accountId}`)).body.code).toBe('NOT_FOUND');
    await service.api('PUT', `/account-terms-and-conditions/${accountId}`, { text: 'v1', acceptanceRequired: true });
    const second = await service.api('PUT', `/account-terms-and-conditions/${accountId}`, { text: 'v2', acceptanceRequired: true });
    expect(second.body.result).toMatchObject({ id: accountId, text: 'v2', acceptanceRequired: true, version: 2 });
    const response = await fetch(`${service.url}/account-terms-and-conditions/${accountId}`);
    expect(response.status).toBe(200);
    expect((await service.api('DELETE', `/account-terms-and-conditions/${accountId}`)).status).toBe(200);
  });

  it('answers TERMS_NOT_ACCEPTED to a member who has not accepted the current terms, except to read and accept them', async () => {
    const terms = `/account-terms-and-conditions/${accountId}`;
    expect((await service.api('PUT', terms, { text: 'Be kind.', acceptanceRequired: false })).status).toBe(200);
    // Terms that do not require acceptance block nothing.
    expect((await service.api('GET', '/fields', undefined, member.token)).status).toBe(200);
    const current = (await service.api('PUT', terms, { text: 'Be very kind.', acceptanceRequired: true })).body.result.version;
    const blocked = await service.api('GET', '/fields', undefined, member.token);
    expect(blocked.status).toBe(403);
    expect(blocked.body).toMatchObject({ code: 'TERMS_NOT_ACCEPTED', message: expect.stringContaining(`version ${current}`) });
    expect((await service.api('GET', '/current-user', undefined, member.token)).status).toBe(200);
    expect((await service.api('GET', terms, undefined, member.token)).body.result.text).toBe('Be very kind.');
    expect((await service.api('POST', `${terms}/acceptances`, { version: current - 1 }, member.token)).body.code).toBe('TERMS_VERSION_OUTDATED');
    expect((await service.api('POST', '/account-terms-and-conditions/someone-else/acceptances', { version: current }, member.token)).body.code).toBe('NOT_FOUND');
    const accepted = await service.api('POST', `${terms}/acceptances`, { version: current }, member.token);
    expect(accepted.body.result).toMatchObject({ accountId, userId: member.userId, version: current });
    expect((await service.api('GET', '/fields', undefined, member.token)).status).toBe(200);
    // A new version asks again; the admin, who never accepted, is held too until the terms are gone.
    await service.api('PUT', terms, { text: 'Be kinder.', acceptanceRequired: true });
    expect((await service.api('GET', '/fields', undefined, member.token)).body.code).toBe('TERMS_NOT_ACCEPTED');
    expect((await service.api('GET', '/fields')).body.code).toBe('TERMS_NOT_ACCEPTED');
    expect((await service.api('DELETE', terms)).status).toBe(200);
    expect((await service.api('GET', '/fields', undefined, member.token)).status).toBe(200);
  });

  it('manages staff members, for staff only once there are some', async () => {
    expect((await service.api('GET', '/staff-members', undefined, member.token)).body.code).toBe('FORBIDDEN');
    const added = await service.api('POST', '/staff-members', { email: 'member@example.test' });
    expect(added.body.result).toMatchObject({ id: member.userId, email: 'member@example.test' });
    // The installation admin is not staff: with staff present, only staff manage staff.
    expect((await service.api('GET', '/staff-members')).body.code).toBe('FORBIDDEN');
    expect((await service.api('GET', '/staff-members', undefined, member.token)).body.totalResults).toBe(1);
    expect((await service.api('POST', '/staff-members', { email: 'nobody@example.test' }, member.token)).body.code).toBe('NOT_FOUND');
    expect((await service.api('DELETE', `/staff-members/${member.userId}`, undefined, member.token)).status).toBe(200);
    expect((await service.api('DELETE', `/staff-members/${member.userId}`)).body.code).toBe('NOT_FOUND');
  });

  it('enforces quotas with a clear error and nothing half-created', async () => {
    const path = `/admin/accounts/${accountId}/entities/fieldOption/quota-override`;
    const fields = (await service.api('GET', '/fields')).body;
    const folders = fields.find((field: { name: string }) => field.name === 'Folders').id;
    const used: number = (await service.api('GET', path)).body.result.used;
    expect((await service.api('PUT', path, { quota: used + 2 })).body.result).toMatchObject({ entityId: 'fieldOption', override: used + 2, quota: used + 2, used });
    const items = ['a', 'b', 'c'].map((value, position) => ({ batchItemId: value, fieldId: folders, value, position }));
    const refused = await service.api('POST', '/field-option-batches', { items });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('QUOTA_EXCEEDED');
    expect(refused.body.message).toContain('Nothing was created');
    expect((await service.api('GET', path)).body.result.used).toBe(used);
    expect((await service.api('POST', '/field-option-batches', { items: items.slice(0, 2) })).status).toBe(200);
    const fieldQuota = `/admin/accounts/${accountId}/entities/field/quota-override`;
    const fieldCount = (await service.api('GET', fieldQuota)).body.result.used;
    await service.api('PUT', fieldQuota, { quota: fieldCount });
    expect((await service.api('POST', '/fields', { name: 'One too many' })).body.code).toBe('QUOTA_EXCEEDED');
    expect((await service.api('GET', '/fields')).body.map((field: { name: string }) => field.name)).not.toContain('One too many');
    await service.api('PUT', fieldQuota, { quota: null });
    expect((await service.api('POST', '/fields', { name: 'One too many' })).status).toBe(200);
    expect((await service.api('GET', `/admin/accounts/${accountId}/entities/nonsense/quota-override`)).body.code).toBe('INVALID_PATH');
    expect((await service.api('GET', path, undefined, member.token)).body.code).toBe('FORBIDDEN');
  });

  it("enforces and counts the quotas of issue 20's entities: collections, groups, saved searches", async () => {
    const creates: [string, string, object][] = [
      ['collection', '/collections', { name: 'Quota kit' }],
      ['group', '/groups', { name: 'Quota group' }],
      ['savedSearch', '/saved-searches', { name: 'Quota search', criterion: { type: 'MATCH_ALL' } }],
    ];
    for (const [entity, create, body] of creates) {
      const quotaPath = `/admin/accounts/${accountId}/entities/${entity}/quota-override`;
      const used: number = (await service.api('GET', quotaPath)).body.result.used;
      expect(typeof used, entity).toBe('number');
      await service.api('PUT', quotaPath, { quota: used });
      const refused = await service.api('POST', create, body);
      expect(refused.body.code, entity).toBe('QUOTA_EXCEEDED');
      expect((await service.api('GET', quotaPath)).body.result.used, entity).toBe(used);
      await service.api('PUT', quotaPath, { quota: null });
      const created = await service.api('POST', create, body);
      expect(created.status, `${entity}: ${created.text}`).toBe(200);
      expect((await service.api('GET', quotaPath)).body.result.used, entity).toBe(used + 1);
    }
  });
});
