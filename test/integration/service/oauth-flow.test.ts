import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../support/test-service.js';
import { fakeClock, type FakeClock } from '../../support/test-users.js';
import {
  authorize,
  authorizeParams,
  currentUser,
  exchangeCode,
  pkcePair,
  refresh,
  requestToken,
  DESKTOP_CLIENT_ID,
  LOOPBACK_REDIRECT,
} from '../../support/oauth-client.js';

describe('OAuth code flow with PKCE (rotating refresh tokens)', () => {
  let service: TestService;
  let clock: FakeClock;
  beforeAll(async () => {
    clock = fakeClock();
    service = await startTestService({ authCodeTtl: 60 }, { clock });
  });
  afterAll(async () => {
    await service.dispose();
  });

  it('signs in, exchanges the code, uses the token, refreshes, and treats reuse of a rotated token as theft', async () => {
    const pkce = pkcePair();
    const params = authorizeParams(service, pkce, { state: 'opaque/state=with&chars' });
    const { code, state, location } = await authorize(service, params);
    expect(`${location.origin}${location.pathname}`).toBe(LOOPBACK_REDIRECT);
    expect(state).toBe('opaque/state=with&chars');

    const exchanged = await exchangeCode(service, code, pkce.verifier);
    expect(exchanged.status).toBe(200);
    expect(exchanged.headers.get('cache-control')).toBe('no-store');
    expect(exchanged.body).toMatchObject({ token_type: 'Bearer', expires_in: 3600, scope: 'subdomain:local offline_access' });
    expect(typeof exchanged.body.access_token).toBe('string');
    expect(typeof exchanged.body.refresh_token).toBe('string');

    const me = await currentUser(service, exchanged.body.access_token);
    expect(me.status).toBe(200);
    expect(me.body.result.email).toBe(service.running.ctx.config.adminEmail);

    const first = exchanged.body.refresh_token as string;
    const refreshed = await refresh(service, first);
    expect(refreshed.status).toBe(200);
    expect(refreshed.headers.get('cache-control')).toBe('no-store');
    expect(refreshed.body.scope).toBe('subdomain:local offline_access');
    const second = refreshed.body.refresh_token as string;
    expect(typeof second).toBe('string');
    expect(second).not.toBe(first);
    expect((await currentUser(service, refreshed.body.access_token)).status).toBe(200);

    const replayed = await refresh(service, first);
    expect(replayed.status).toBe(400);
    expect(replayed.body).toMatchObject({ error: 'invalid_grant', code: 'OAUTH_GRANT_REUSED', status: 400, path: '/oauth/token' });

    const successor = await refresh(service, second);
    expect(successor.status).toBe(400);
    expect(successor.body).toMatchObject({ error: 'invalid_grant', code: 'OAUTH_INVALID_GRANT' });
    expect(successor.body.error_description).toMatch(/revoked/);
  });

  it("refuses a refresh once the account's allowed e-mail domains exclude the user, and revokes the family", async () => {
    const pkce = pkcePair();
    const { code } = await authorize(service, authorizeParams(service, pkce));
    const exchanged = await exchangeCode(service, code, pkce.verifier);
    expect((await service.api('PUT', '/account-security', { allowedEmailDomains: ['elsewhere.test'], sessionLifetimeHours: 24 })).status).toBe(200);
    const refused = await refresh(service, exchanged.body.refresh_token);
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ error: 'invalid_grant', error_description: expect.stringContaining('e-mail domain') });
    expect((await service.api('PUT', '/account-security', { allowedEmailDomains: [], sessionLifetimeHours: 24 })).status).toBe(200);
    // The family was revoked when refused: lifting the restriction does not bring it back.
    expect((await refresh(service, exchanged.body.refresh_token)).body.error).toBe('invalid_grant');
  });

  it('issues no refresh token without offline_access', async () => {
    const pkce = pkcePair();
    const { code } = await authorize(service, authorizeParams(service, pkce, { scope: 'subdomain:local' }));
    const exchanged = await exchangeCode(service, code, pkce.verifier);
    expect(exchanged.status).toBe(200);
    expect(exchanged.body.scope).toBe('subdomain:local');
    expect(exchanged.body).not.toHaveProperty('refresh_token');
  });

  it('grants only the scopes it knows', async () => {
    const pkce = pkcePair();
    const { code } = await authorize(service, authorizeParams(service, pkce, { scope: 'openid subdomain:local profile' }));
    const exchanged = await exchangeCode(service, code, pkce.verifier);
    expect(exchanged.body.scope).toBe('subdomain:local');
  });

  it('accepts a code once: a second exchange fails and revokes the refresh tokens of the first', async () => {
    const pkce = pkcePair();
    const { code } = await authorize(service, authorizeParams(service, pkce));
    const first = await exchangeCode(service, code, pkce.verifier);
    expect(first.status).toBe(200);

    const second = await exchangeCode(service, code, pkce.verifier);
    expect(second.status).toBe(400);
    expect(second.body).toMatchObject({ error: 'invalid_grant', code: 'OAUTH_GRANT_REUSED' });

    const refreshed = await refresh(service, first.body.refresh_token);
    expect(refreshed.status).toBe(400);
    expect(refreshed.body.error).toBe('invalid_grant');
  });

  it('refuses a code after authCodeTtl seconds', async () => {
    const pkce = pkcePair();
    const { code } = await authorize(service, authorizeParams(service, pkce));
    clock.advance(61_000);
    const late = await exchangeCode(service, code, pkce.verifier);
    expect(late.status).toBe(400);
    expect(late.body).toMatchObject({ error: 'invalid_grant', code: 'OAUTH_INVALID_GRANT' });
    expect(late.body.error_description).toMatch(/expired/);
  });

  it('accepts a code just before it expires', async () => {
    const pkce = pkcePair();
    const { code } = await authorize(service, authorizeParams(service, pkce));
    clock.advance(59_000);
    expect((await exchangeCode(service, code, pkce.verifier)).status).toBe(200);
  });

  it('refuses a wrong code_verifier, and a missing one, without using up the code', async () => {
    const pkce = pkcePair();
    const { code } = await authorize(service, authorizeParams(service, pkce));
    const wrong = await exchangeCode(service, code, pkcePair().verifier);
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({ error: 'invalid_grant', code: 'OAUTH_INVALID_GRANT' });
    expect(wrong.body.error_description).toMatch(/code_verifier/);

    const missing = await requestToken(service, { grant_type: 'authorization_code', client_id: DESKTOP_CLIENT_ID, code, redirect_uri: LOOPBACK_REDIRECT });
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ error: 'invalid_request', code: 'OAUTH_INVALID_REQUEST' });

    expect((await exchangeCode(service, code, pkce.verifier)).status).toBe(200);
  });

  it('refuses a redirect_uri other than the one used at /authorize', async () => {
    const pkce = pkcePair();
    const { code } = await authorize(service, authorizeParams(service, pkce));
    const other = await exchangeCode(service, code, pkce.verifier, { redirect_uri: 'http://127.0.0.1:9999/callback' });
    expect(other.status).toBe(400);
    expect(other.body).toMatchObject({ error: 'invalid_grant', code: 'OAUTH_INVALID_GRANT' });
    expect(other.body.error_description).toMatch(/redirect_uri/);
  });

  it('refuses a made-up code and a made-up refresh token', async () => {
    const code = await exchangeCode(service, 'not-a-code', pkcePair().verifier);
    expect(code.body).toMatchObject({ error: 'invalid_grant', code: 'OAUTH_INVALID_GRANT' });
    const token = await refresh(service, 'not-a-token');
    expect(token.body).toMatchObject({ error: 'invalid_grant', code: 'OAUTH_INVALID_GRANT' });
  });

  it('refuses a refresh token after refreshTokenTtl', async () => {
    const pkce = pkcePair();
    const { code } = await authorize(service, authorizeParams(service, pkce));
    const { body } = await exchangeCode(service, code, pkce.verifier);
    clock.advance(service.running.ctx.config.refreshTokenTtl * 1000 + 1000);
    const late = await refresh(service, body.refresh_token);
    expect(late.body).toMatchObject({ error: 'invalid_grant', code: 'OAUTH_INVALID_GRANT' });
    expect(late.body.error_description).toMatch(/expired/);
  });
});

describe('OAuth code flow with rotation off', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService({ rotateRefreshTokens: false });
  });
  afterAll(async () => {
    await service.dispose();
  });

  it('keeps the refresh token valid and sends no new one', async () => {
    const pkce = pkcePair();
    const { code } = await authorize(service, authorizeParams(service, pkce));
    const exchanged = await exchangeCode(service, code, pkce.verifier);
    const token = exchanged.body.refresh_token as string;

    for (let round = 0; round < 3; round++) {
      const refreshed = await refresh(service, token);
      expect(refreshed.status).toBe(200);
      expect(refreshed.body).not.toHaveProperty('refresh_token');
      expect(refreshed.body.scope).toBe('subdomain:local offline_access');
      expect((await currentUser(service, refreshed.body.access_token)).status).toBe(200);
    }
  });

  it('still revokes the family when the code it came from is replayed', async () => {
    const pkce = pkcePair();
    const { code } = await authorize(service, authorizeParams(service, pkce));
    const exchanged = await exchangeCode(service, code, pkce.verifier);
    expect((await exchangeCode(service, code, pkce.verifier)).body.code).toBe('OAUTH_GRANT_REUSED');
    expect((await refresh(service, exchanged.body.refresh_token)).body.error).toBe('invalid_grant');
  });
});
