import { readdirSync, statSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { login, logout } from '../../src/main/auth/loopback-login.js';
import { createTokenProvider } from '../../src/main/auth/token-provider.js';
import { readTokens, tokenFilePath, writeTokens } from '../../src/main/auth/token-store.js';
import { createApiClient } from '../../src/main/api/create-api-client.js';
import { startTestService, type TestService } from '../support/test-service.js';
import { fakeBrowser } from '../support/fake-browser.js';
import { tempDir } from '../support/temp-dir.js';

describe('signing in against the real service', () => {
  let service: TestService | undefined;
  let stateDir: string;

  beforeEach(() => {
    stateDir = tempDir('asset-sync-login-');
  });

  afterEach(async () => {
    await service?.dispose();
    service = undefined;
  });

  async function signIn(overrides: Parameters<typeof startTestService>[0] = {}) {
    service = await startTestService(overrides);
    const browser = fakeBrowser({ email: service.running.ctx.config.adminEmail });
    const tokens = await login({ server: service.url, stateDir, openUrl: browser.openUrl, env: {} });
    return { service, browser, tokens };
  }

  it('runs the loopback flow with PKCE and state, stores the tokens 0600, and they work and refresh', async () => {
    const { service: running, browser, tokens } = await signIn();
    const visit = browser.visits[0];
    expect(visit?.formStatus).toBe(200);
    expect(visit?.redirectedTo?.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(visit?.redirectedTo?.pathname).toBe('/callback');
    expect(visit?.callbackStatus).toBe(200);
    expect(visit?.callbackPage).toContain('You can close this tab');

    expect(tokens).toMatchObject({ server: running.url, authServer: running.url, clientId: 'asset-sync-desktop', scope: 'subdomain:local offline_access' });
    expect(tokens.refreshToken).toEqual(expect.any(String));
    expect(tokens.expiresAt).toBeGreaterThan(Date.now());
    if (process.platform !== 'win32') expect(statSync(tokenFilePath(stateDir)).mode & 0o777).toBe(0o600);
    expect(await readTokens(stateDir)).toEqual(tokens);

    const provider = createTokenProvider({ stateDir, env: {} });
    const api = createApiClient({ server: running.url, tokens: provider, env: {} });
    try {
      expect((await api.currentUser()).result.email).toBe(running.running.ctx.config.adminEmail);

      // A refresh through the provider rotates the refresh token, and the new access token works.
      const renewed = await provider.refreshed(tokens.accessToken, running.url);
      expect(renewed).not.toBe(tokens.accessToken);
      const stored = await readTokens(stateDir);
      expect(stored?.accessToken).toBe(renewed);
      expect(stored?.refreshToken).not.toBe(tokens.refreshToken);
      expect((await api.currentUser()).result.email).toBe(running.running.ctx.config.adminEmail);
      expect(readdirSync(stateDir).sort()).toEqual(['tokens.json']);
    } finally {
      api.close();
    }
  });

  it('refreshes and retries when the API refuses the stored access token', async () => {
    const { service: running, tokens } = await signIn();
    await writeTokens(stateDir, { ...tokens, accessToken: 'not-a-jwt' });
    const api = createApiClient({ server: running.url, tokens: createTokenProvider({ stateDir, env: {} }), env: {} });
    try {
      expect((await api.currentUser()).result.email).toBe(running.running.ctx.config.adminEmail);
      expect((await readTokens(stateDir))?.accessToken).not.toBe('not-a-jwt');
    } finally {
      api.close();
    }
  });

  it('keeps the refresh token when the server does not rotate it', async () => {
    const { tokens } = await signIn({ rotateRefreshTokens: false });
    const provider = createTokenProvider({ stateDir, env: {} });
    const renewed = await provider.refreshed(tokens.accessToken, tokens.server);
    expect(renewed).not.toBe(tokens.accessToken);
    expect(await readTokens(stateDir)).toMatchObject({ accessToken: renewed, refreshToken: tokens.refreshToken });
  });

  it('fails with OAUTH_ACCESS_DENIED when the user cancels, and stores nothing', async () => {
    service = await startTestService();
    const browser = fakeBrowser({ email: service.running.ctx.config.adminEmail, decision: 'deny' });
    await expect(login({ server: service.url, stateDir, openUrl: browser.openUrl, env: {} })).rejects.toMatchObject({ code: 'OAUTH_ACCESS_DENIED' });
    expect(browser.visits[0]?.callbackPage).toContain('Sign-in did not complete');
    expect(await readTokens(stateDir)).toBeUndefined();
  });

  it('ignores an answer with another state and waits for the real one', async () => {
    service = await startTestService();
    const browser = fakeBrowser({ email: service.running.ctx.config.adminEmail });
    let forged: number | undefined;
    const tokens = await login({
      server: service.url,
      stateDir,
      env: {},
      openUrl: async (url) => {
        const redirectUri = new URL(url).searchParams.get('redirect_uri') ?? '';
        forged = (await fetch(`${redirectUri}?code=attacker-code&state=guessed`)).status;
        await browser.openUrl(url);
      },
    });
    expect(forged).toBe(400);
    expect(tokens.accessToken).toEqual(expect.any(String));
  });

  it('times out with a clear error when nobody signs in', async () => {
    const error = await login({ server: 'http://127.0.0.1:9', stateDir, openUrl: () => undefined, timeoutMs: 100, env: {}, checkServer: async () => undefined }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'LOGIN_TIMEOUT' });
    expect((error as Error).message).toMatch(/run the sign-in again/);
  });

  it('builds the authorize URL with audience, scope, client id, PKCE S256 and state', async () => {
    let seen: URL | undefined;
    await login({
      server: 'https://api-v2.dash.app/',
      authServer: 'https://login.dash.app',
      subdomain: 'acme',
      stateDir,
      timeoutMs: 50,
      env: {},
      checkServer: async () => undefined,
      openUrl: (url) => {
        seen = new URL(url);
      },
    }).catch(() => undefined);
    expect(`${seen?.origin ?? ''}${seen?.pathname ?? ''}`).toBe('https://login.dash.app/authorize');
    const params = Object.fromEntries(seen?.searchParams ?? []);
    expect(params).toMatchObject({
      response_type: 'code',
      client_id: 'asset-sync-desktop',
      audience: 'https://assetplatform.io',
      scope: 'subdomain:acme offline_access',
      code_challenge_method: 'S256',
    });
    expect(params.redirect_uri).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    expect(params.code_challenge).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(params.state).toMatch(/^[A-Za-z0-9_-]{32}$/);
  });

  it('logs out by ending the sign-in on the service, then forgetting the tokens', async () => {
    const { service: running, tokens } = await signIn();
    expect(await logout({ stateDir, env: {} })).toEqual({ signedOut: true, revocation: { kind: 'revoked' } });
    expect(await readTokens(stateDir)).toBeUndefined();
    const refused = await fetch(`${running.url}/current-user`, { headers: { authorization: `Bearer ${tokens.accessToken}` } });
    expect(refused.status).toBe(401);
    expect(await logout({ stateDir, env: {} })).toEqual({ signedOut: false, revocation: { kind: 'nothing' } });
  });

  it('forgets the tokens even when the service cannot be told, and says so', async () => {
    const { service: running } = await signIn();
    await running.dispose();
    service = undefined;
    const answer = await logout({ stateDir, env: {} });
    expect(answer).toMatchObject({ signedOut: true, revocation: { kind: 'failed', reason: expect.stringContaining("Can't reach") } });
    expect(await readTokens(stateDir)).toBeUndefined();
  });

  it('checks the server before opening anything, and opens nothing when it is not there', async () => {
    let opened = false;
    const error = await login({ server: 'http://127.0.0.1:9', stateDir, env: {}, openUrl: () => void (opened = true) }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'SERVER_UNREACHABLE' });
    expect(opened).toBe(false);
  });
});
