import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../support/test-service.js';
import { addUser, fakeClock, type FakeClock } from '../../support/test-users.js';
import { hashPassword } from '../../../src/service/accounts/passwords.js';
import {
  authorize,
  authorizeParams,
  exchangeCode,
  openSignInForm,
  pkcePair,
  redirectLocation,
  submitSignIn,
  type AuthorizeParams,
} from '../../support/oauth-client.js';

describe('GET/POST /authorize', () => {
  let service: TestService;
  let clock: FakeClock;
  const params = (overrides: AuthorizeParams = {}): AuthorizeParams => authorizeParams(service, pkcePair(), { state: 'xyz', ...overrides });

  beforeAll(async () => {
    clock = fakeClock();
    service = await startTestService({}, { clock });
  });
  afterAll(async () => {
    await service.dispose();
  });

  it('shows a self-contained sign-in form under a strict CSP', async () => {
    const form = await openSignInForm(service, params());
    expect(form.response.status).toBe(200);
    expect(form.response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const csp = form.response.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'none'");
    expect(csp).toMatch(/style-src 'sha256-[A-Za-z0-9+/=]+'/);
    expect(csp).toContain(`form-action ${service.url} http://127.0.0.1:53117`);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(form.response.headers.get('cache-control')).toBe('no-store');
    expect(form.response.headers.get('referrer-policy')).toBe('no-referrer');
    expect(form.response.headers.get('x-frame-options')).toBe('DENY');
    expect(form.html).toContain(`<form method="post" action="${service.url}/authorize">`);
    expect(form.html).toMatch(/name="email" type="email"/);
    expect(form.html).toMatch(/name="password" type="password"/);
    expect(form.html).not.toMatch(/<script|<link|src=/i);
    expect(form.transaction).not.toBe('');
    expect(form.cookie).toMatch(/^asset_sync_sign_in=/);
    const setCookie = form.response.headers.getSetCookie()[0] ?? '';
    expect(setCookie).toContain('HttpOnly');
    expect(setCookie).toContain('SameSite=Strict');
  });

  it('escapes what it echoes', async () => {
    const form = await openSignInForm(service, params());
    const response = await submitSignIn(service, form, { email: '"><script>alert(1)</script>@x.test', password: 'nope' });
    const html = await response.text();
    expect(html).not.toContain('<script>');
    expect(html).toContain('&#34;&#62;&#60;script&#62;');
  });

  describe('when the client or redirect URI cannot be trusted, it shows an error page and never redirects', () => {
    it.each([
      ['an unknown client', { client_id: 'nobody' }, 'OAUTH_UNKNOWN_CLIENT'],
      ['no client', { client_id: undefined }, 'OAUTH_UNKNOWN_CLIENT'],
      ['no redirect_uri', { redirect_uri: undefined }, 'OAUTH_INVALID_REDIRECT_URI'],
      ['an unregistered redirect_uri', { redirect_uri: 'https://evil.example/callback' }, 'OAUTH_INVALID_REDIRECT_URI'],
      ['another loopback path', { redirect_uri: 'http://127.0.0.1:53117/other' }, 'OAUTH_INVALID_REDIRECT_URI'],
      ['a loopback URI with a query', { redirect_uri: 'http://127.0.0.1:53117/callback?next=x' }, 'OAUTH_INVALID_REDIRECT_URI'],
      ['https on loopback', { redirect_uri: 'https://127.0.0.1:53117/callback' }, 'OAUTH_INVALID_REDIRECT_URI'],
      ['credentials in the URI', { redirect_uri: 'http://evil@127.0.0.1:53117/callback' }, 'OAUTH_INVALID_REDIRECT_URI'],
      ['a non-canonical path', { redirect_uri: 'http://127.0.0.1:53117/x/../callback' }, 'OAUTH_INVALID_REDIRECT_URI'],
      ['a wrong audience too', { redirect_uri: 'https://evil.example/cb', audience: 'https://other.example' }, 'OAUTH_INVALID_REDIRECT_URI'],
    ])('for %s', async (_name, overrides, code) => {
      const form = await openSignInForm(service, params(overrides));
      expect(form.response.status).toBe(400);
      expect(form.response.headers.get('location')).toBeNull();
      expect(form.response.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(form.response.headers.get('content-security-policy')).toContain("form-action 'none'");
      expect(form.html).toContain('Sign-in cannot continue');
      expect(form.html).toContain(code);
      expect(form.transaction).toBe('');
    });
  });

  it.each([
    ['127.0.0.1 on another port', 'http://127.0.0.1:61999/callback'],
    ['127.0.0.1 without a port', 'http://127.0.0.1/callback'],
    ['localhost on any port', 'http://localhost:40001/callback'],
  ])('accepts the desktop client on %s and redirects there', async (_name, redirectUri) => {
    const pkce = pkcePair();
    const { location, state, code } = await authorize(service, authorizeParams(service, pkce, { redirect_uri: redirectUri, state: 's1' }));
    expect(`${location.origin}${location.pathname}`).toBe(redirectUri);
    expect(state).toBe('s1');
    expect((await exchangeCode(service, code, pkce.verifier, { redirect_uri: redirectUri })).status).toBe(200);
  });

  describe('once the redirect URI is trusted, it sends errors back to it with the state', () => {
    it.each([
      ['no audience', { audience: undefined }, 'invalid_request', /audience/],
      ['another audience', { audience: 'https://other.example' }, 'invalid_request', /audience/],
      ['no subdomain scope', { scope: 'offline_access' }, 'invalid_scope', /subdomain/],
      ['no scope at all', { scope: undefined }, 'invalid_scope', /subdomain/],
      ['an unknown subdomain', { scope: 'subdomain:nowhere' }, 'invalid_scope', /nowhere/],
      ['two subdomains', { scope: 'subdomain:local subdomain:other' }, 'invalid_scope', /exactly one/],
      ['response_type=token', { response_type: 'token' }, 'unsupported_response_type', /response_type/],
      ['no response_type', { response_type: undefined }, 'invalid_request', /response_type/],
      ['no PKCE for a public client', { code_challenge: undefined, code_challenge_method: undefined }, 'invalid_request', /PKCE/],
      ['PKCE plain', { code_challenge_method: 'plain' }, 'invalid_request', /plain/],
      ['PKCE without a method (plain by default)', { code_challenge_method: undefined }, 'invalid_request', /plain/],
      ['a malformed challenge', { code_challenge: 'short' }, 'invalid_request', /code_challenge/],
    ])('for %s', async (_name, overrides, error, description) => {
      const response = await fetch(`${service.url}/authorize?${query(params(overrides))}`, { redirect: 'manual' });
      const location = redirectLocation(response);
      expect(`${location.origin}${location.pathname}`).toBe('http://127.0.0.1:53117/callback');
      expect(location.searchParams.get('error')).toBe(error);
      expect(location.searchParams.get('error_description')).toMatch(description);
      expect(location.searchParams.get('state')).toBe('xyz');
      expect(location.searchParams.get('code')).toBeNull();
    });

    it('refuses a repeated parameter', async () => {
      const response = await fetch(`${service.url}/authorize?${query(params())}&scope=subdomain:local`, { redirect: 'manual' });
      const location = redirectLocation(response);
      expect(location.searchParams.get('error')).toBe('invalid_request');
      expect(location.searchParams.get('error_description')).toMatch(/scope/);
    });
  });

  it('re-renders the form with 401 for a wrong password, and redirects nowhere', async () => {
    const form = await openSignInForm(service, params());
    const response = await submitSignIn(service, form, { password: 'wrong password' });
    expect(response.status).toBe(401);
    expect(response.headers.get('location')).toBeNull();
    const html = await response.text();
    expect(html).toContain('The email address or password is wrong.');
    expect(html).toContain(`value="${service.running.ctx.config.adminEmail}"`);
    expect(html).toMatch(/name="transaction" value="[^"]+"/);
  });

  it('answers an unknown email exactly like a wrong password', async () => {
    const form = await openSignInForm(service, params());
    const response = await submitSignIn(service, form, { email: 'nobody@example.test' });
    expect(response.status).toBe(401);
    expect(await response.text()).toContain('The email address or password is wrong.');
  });

  it('lets the user try again on the re-rendered form', async () => {
    const form = await openSignInForm(service, params());
    const failed = await submitSignIn(service, form, { password: 'typo' });
    const retry = /name="transaction" value="([^"]+)"/.exec(await failed.text())?.[1] ?? '';
    const location = redirectLocation(await submitSignIn(service, form, { transaction: retry }));
    expect(location.searchParams.get('code')).not.toBeNull();
    expect(location.searchParams.get('state')).toBe('xyz');
  });

  it('signs in any member of the account, with their own identity', async () => {
    const { userId } = await addUser(service, 'viewer@example.test', 'viewer', 'viewer password');
    const pkce = pkcePair();
    const { code } = await authorize(service, authorizeParams(service, pkce), { email: 'viewer@example.test', password: 'viewer password' });
    const { body } = await exchangeCode(service, code, pkce.verifier);
    const me = await service.api('GET', '/current-user', undefined, body.access_token);
    expect(me.body.result.id).toBe(userId);
  });

  it('refuses a user who is not a member of the account (403, form again)', async () => {
    const { ctx } = service.running;
    ctx.accounts.createUser('outsider@example.test', 'Outsider', await hashPassword('outsider password'), ctx.nowIso());
    const form = await openSignInForm(service, params());
    const response = await submitSignIn(service, form, { email: 'outsider@example.test', password: 'outsider password' });
    expect(response.status).toBe(403);
    expect(response.headers.get('location')).toBeNull();
    expect(await response.text()).toContain('is not a member of the account');
  });

  it("refuses a sign-in the account's security settings do not allow (403 LOGIN_METHOD_NOT_ALLOWED, form again)", async () => {
    await addUser(service, 'partner@partner.test', 'viewer', 'partner password');
    await addUser(service, 'insider@example.test', 'viewer', 'insider password');
    const signIn = async (email: string, password: string) => {
      const response = await submitSignIn(service, await openSignInForm(service, params()), { email, password });
      return { status: response.status, location: response.headers.get('location'), text: await response.text() };
    };
    const security = await service.api('PUT', '/account-security', { allowedEmailDomains: ['Example.test'], sessionLifetimeHours: 24 });
    expect(security.status, security.text).toBe(200);
    const outside = await signIn('partner@partner.test', 'partner password');
    expect(outside.status).toBe(403);
    expect(outside.location).toBeNull();
    expect(outside.text).toContain('only allows sign-ins with an address at example.test');
    expect((await signIn('insider@example.test', 'insider password')).status).toBe(302);

    expect((await service.api('PUT', '/allowed-login-methods', { methods: ['SAML'] })).status).toBe(200);
    const noPasswords = await signIn('insider@example.test', 'insider password');
    expect(noPasswords.status).toBe(403);
    expect(noPasswords.text).toContain('does not allow signing in with a password');

    expect((await service.api('PUT', '/allowed-login-methods', { methods: ['PASSWORD', 'SAML'] })).status).toBe(200);
    expect((await service.api('PUT', '/account-security', { allowedEmailDomains: [], sessionLifetimeHours: 24 })).status).toBe(200);
    expect((await signIn('partner@partner.test', 'partner password')).status).toBe(302);
  });

  it('sends access_denied with the state when the user cancels', async () => {
    const form = await openSignInForm(service, params());
    const location = redirectLocation(await submitSignIn(service, form, { decision: 'deny', email: '', password: '' }));
    expect(location.searchParams.get('error')).toBe('access_denied');
    expect(location.searchParams.get('state')).toBe('xyz');
    expect(location.searchParams.get('code')).toBeNull();
  });

  describe('protects the posted form', () => {
    it('refuses a tampered transaction', async () => {
      const form = await openSignInForm(service, params());
      const [payload, mac] = form.transaction.split('.');
      const request = JSON.parse(Buffer.from(payload ?? '', 'base64url').toString('utf8'));
      const forged = Buffer.from(JSON.stringify({ ...request, redirectUri: 'https://evil.example/cb' })).toString('base64url');
      const response = await submitSignIn(service, form, { transaction: `${forged}.${mac}` });
      expect(response.status).toBe(400);
      expect(response.headers.get('location')).toBeNull();
      expect(await response.text()).toContain('OAUTH_SIGN_IN_EXPIRED');
    });

    it('refuses a post without the form cookie (cross-site request forgery)', async () => {
      const form = await openSignInForm(service, params());
      const response = await submitSignIn(service, form, { cookie: '' });
      expect(response.status).toBe(400);
      expect(response.headers.get('location')).toBeNull();
    });

    it("refuses a post carrying another browser's cookie", async () => {
      const form = await openSignInForm(service, params());
      const other = await openSignInForm(service, params());
      const response = await submitSignIn(service, form, { cookie: other.cookie });
      expect(response.status).toBe(400);
    });

    it('refuses a form older than its lifetime', async () => {
      const form = await openSignInForm(service, params());
      clock.advance(11 * 60 * 1000);
      const response = await submitSignIn(service, form);
      expect(response.status).toBe(400);
      expect(await response.text()).toContain('expired');
    });

    it('refuses a post with no transaction at all', async () => {
      const response = await fetch(`${service.url}/authorize`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'email=a%40b.c&password=x',
      });
      expect(response.status).toBe(400);
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    });
  });
});

function query(params: AuthorizeParams): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value !== undefined) search.set(key, value);
  return search.toString();
}
