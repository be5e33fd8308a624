import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../support/test-service.js';
import { addUser } from '../../support/test-users.js';
import { authorize, authorizeParams, currentUser, exchangeCode, openSignInForm, pkcePair, redirectLocation, refresh, submitSignIn, DESKTOP_CLIENT_ID } from '../../support/oauth-client.js';
import { smtpConfig, startSmtp, type TestSmtp } from '../../support/smtp-server.js';
import { signUpAccount } from '../../support/sign-up-account.js';

const STAFF_EMAIL = 'support@provider.test';
const STAFF_PASSWORD = 'the support password';

/** The whole OAuth flow into the account with `subdomain`, as the desktop app runs it. */
async function signIn(service: TestService, subdomain: string, email: string, password: string) {
  const pkce = pkcePair();
  const { code } = await authorize(service, authorizeParams(service, pkce, { scope: `subdomain:${subdomain} offline_access` }), { email, password });
  const exchanged = await exchangeCode(service, code, pkce.verifier);
  expect(exchanged.status, JSON.stringify(exchanged.body)).toBe(200);
  return { accessToken: exchanged.body.access_token as string, refreshToken: exchanged.body.refresh_token as string };
}

describe('staff members sign in to any account', () => {
  let service: TestService;
  let smtp: TestSmtp;
  let staffId: string;
  let acmeId: string;
  let acmeAdmin: string;
  let staffSession: { accessToken: string; refreshToken: string };

  beforeAll(async () => {
    smtp = await startSmtp();
    service = await startTestService({ smtp: smtpConfig(smtp) });
    // The staff member is a user of the installation's own account; acme is a customer's account.
    staffId = (await addUser(service, STAFF_EMAIL, 'viewer', STAFF_PASSWORD)).userId;
    acmeId = (await signUpAccount(service, smtp, { subdomain: 'acme', name: 'Acme', email: 'boss@acme.test', password: 'the boss password' })).id;
    acmeAdmin = (await signIn(service, 'acme', 'boss@acme.test', 'the boss password')).accessToken;
  });
  afterAll(async () => {
    await service.dispose();
    await smtp.close();
  });

  it('refuses a non-member who is not staff, then lets the same user in once they are staff', async () => {
    const form = await openSignInForm(service, authorizeParams(service, pkcePair(), { scope: 'subdomain:acme' }));
    const refused = await submitSignIn(service, form, { email: STAFF_EMAIL, password: STAFF_PASSWORD });
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain('is not a member of the account');

    expect((await service.api('POST', '/staff-members', { email: STAFF_EMAIL })).status).toBe(200);
    staffSession = await signIn(service, 'acme', STAFF_EMAIL, STAFF_PASSWORD);
    const me = await currentUser(service, staffSession.accessToken);
    expect(me.status).toBe(200);
    expect(me.body.result).toMatchObject({ id: staffId, email: STAFF_EMAIL, accountId: acmeId, role: 'admin', staff: true });
    expect(me.body.permittedActions).toContainEqual(expect.objectContaining({ resourceType: 'ACCOUNT', action: 'MANAGE' }));
    // Staff work as admins of the account: they may change its schema.
    expect((await service.api('POST', '/fields', { name: 'Set up by support' }, staffSession.accessToken)).status).toBe(200);
    // In their own account they stay what they are there.
    const home = (await service.api('GET', '/current-user', undefined, await service.token(STAFF_EMAIL))).body.result;
    expect(home).toMatchObject({ role: 'viewer', staff: false });
    expect((await currentUser(service, acmeAdmin)).body.result).toMatchObject({ role: 'admin', staff: false });
  });

  it("shows the account's admins each staff sign-in, and only theirs", async () => {
    const listed = await service.api('GET', '/staff-sign-ins', undefined, acmeAdmin);
    expect(listed.status).toBe(200);
    expect(listed.body.totalResults).toBe(1);
    expect(listed.body.results[0].result).toMatchObject({ userId: staffId, email: STAFF_EMAIL, clientId: DESKTOP_CLIENT_ID });
    // A wrong password starts no session and records nothing.
    const form = await openSignInForm(service, authorizeParams(service, pkcePair(), { scope: 'subdomain:acme' }));
    const wrong = await submitSignIn(service, form, { email: STAFF_EMAIL, password: 'not the password' });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('location')).toBeNull();
    await signIn(service, 'acme', STAFF_EMAIL, STAFF_PASSWORD);
    const newest = (await service.api('GET', '/staff-sign-ins?pageSize=1', undefined, acmeAdmin)).body;
    expect(newest.totalResults).toBe(2);
    expect(newest.results).toHaveLength(1);
    // The installation's own account saw no staff sign-in; a staff session there as a member records none.
    expect((await service.api('GET', '/staff-sign-ins')).body.totalResults).toBe(0);
    expect((await service.api('GET', '/staff-sign-ins?pageSize=0', undefined, acmeAdmin)).body.code).toBe('INVALID_QUERY');
    // Members who are not admins do not see them.
    const acmeUsers = service.running.ctx.accounts;
    const viewer = acmeUsers.createUser('viewer@acme.test', null, 'x', service.running.ctx.nowIso());
    acmeUsers.addMembership(acmeId, viewer.id, 'viewer');
    const viewerToken = await service.running.ctx.tokens.issue({ sub: viewer.id, scope: 'subdomain:acme' }, 600);
    expect((await service.api('GET', '/staff-sign-ins', undefined, viewerToken)).body.code).toBe('FORBIDDEN');
  });

  it("holds staff to neither the account's terms nor its sign-in settings, but keeps holding its members", async () => {
    const terms = `/account-terms-and-conditions/${acmeId}`;
    expect((await service.api('PUT', terms, { text: 'Acme terms', acceptanceRequired: true }, acmeAdmin)).status).toBe(200);
    expect((await service.api('GET', '/fields', undefined, acmeAdmin)).body.code).toBe('TERMS_NOT_ACCEPTED');
    expect((await service.api('GET', '/fields', undefined, staffSession.accessToken)).status).toBe(200);
    expect((await service.api('DELETE', terms, undefined, staffSession.accessToken)).status).toBe(200);

    // Each security change retires the account's tokens (staff's too): a fresh admin token each time.
    const boss = () => service.running.ctx.tokens.issue({ sub: acmeUserId(service, 'boss@acme.test'), scope: 'subdomain:acme' }, 600);
    expect((await service.api('PUT', '/account-security', { allowedEmailDomains: ['acme.test'], sessionLifetimeHours: 24 }, await boss())).status).toBe(200);
    expect((await service.api('PUT', '/allowed-login-methods', { methods: ['SAML'] }, await boss())).status).toBe(200);
    expect((await currentUser(service, staffSession.accessToken)).body.code).toBe('TOKEN_REVOKED');
    const again = await signIn(service, 'acme', STAFF_EMAIL, STAFF_PASSWORD);
    expect((await currentUser(service, again.accessToken)).body.result.staff).toBe(true);
    expect((await refresh(service, again.refreshToken)).status).toBe(200);
    const form = await openSignInForm(service, authorizeParams(service, pkcePair(), { scope: 'subdomain:acme' }));
    const bossSignIn = await submitSignIn(service, form, { email: 'boss@acme.test', password: 'the boss password' });
    expect(bossSignIn.status).toBe(403);
    expect(await bossSignIn.text()).toContain('does not allow signing in with a password');
    staffSession = again;
  });

  it('refuses an unknown account at the sign-in form and in a token', async () => {
    const form = await openSignInForm(service, authorizeParams(service, pkcePair(), { scope: 'subdomain:nowhere' }));
    const location = redirectLocation(form.response);
    expect(location.searchParams.get('error')).toBe('invalid_scope');
    expect(location.searchParams.get('error_description')).toContain('nowhere');
    const elsewhere = await service.running.ctx.tokens.issue({ sub: staffId, scope: 'subdomain:nowhere' }, 600);
    expect((await currentUser(service, elsewhere)).body).toMatchObject({ code: 'TOKEN_INVALID', message: 'No account with subdomain "nowhere".' });
  });

  it('ends every staff session at once when the staff member is removed', async () => {
    const ownToken = await service.token(STAFF_EMAIL);
    // With staff present, only staff manage staff: the staff member removes themselves.
    expect((await service.api('DELETE', `/staff-members/${staffId}`, undefined, ownToken)).status).toBe(200);
    const after = await currentUser(service, staffSession.accessToken);
    expect(after.status).toBe(401);
    expect(after.body.code).toBe('TOKEN_INVALID');
    const refreshed = await refresh(service, staffSession.refreshToken);
    expect(refreshed.status).toBe(400);
    expect(refreshed.body.error).toBe('invalid_grant');
    // Their membership of their own account is untouched.
    expect((await service.api('GET', '/current-user', undefined, ownToken)).status).toBe(200);
    const form = await openSignInForm(service, authorizeParams(service, pkcePair(), { scope: 'subdomain:acme' }));
    expect((await submitSignIn(service, form, { email: STAFF_EMAIL, password: STAFF_PASSWORD })).status).toBe(403);
  });
});

function acmeUserId(service: TestService, email: string): string {
  return service.running.ctx.accounts.userByEmail(email)?.id ?? '';
}
