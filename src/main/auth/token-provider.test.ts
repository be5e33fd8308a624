import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTokenProvider } from './token-provider.js';
import { readTokens, writeTokens, type StoredTokens } from './token-store.js';
import { instantClock, sendJson, startFakeServer, type FakeServer, type InstantClock } from '../../../test/support/api-client-fakes.js';
import { tempDir } from '../../../test/support/temp-dir.js';

describe('the token provider against a scripted token endpoint', () => {
  let stateDir: string;
  let server: FakeServer;
  let clock: InstantClock;
  let rotate = true;
  let issued = 0;
  let refuse: string | undefined;

  beforeEach(async () => {
    stateDir = tempDir('asset-sync-provider-');
    clock = instantClock();
    rotate = true;
    issued = 0;
    refuse = undefined;
    server = await startFakeServer(async (request, response) => {
      const form = new URLSearchParams(request.body.toString());
      if (refuse !== undefined) {
        sendJson(response, 400, { error: refuse, error_description: 'no such refresh token' });
        return;
      }
      // Slow enough that concurrent callers overlap.
      await new Promise((resolve) => setTimeout(resolve, 30));
      issued++;
      sendJson(response, 200, {
        access_token: `access-${issued + 1}`,
        ...(rotate ? { refresh_token: `refresh-${issued + 1}` } : {}),
        expires_in: 3600,
        token_type: 'Bearer',
        scope: 'subdomain:local offline_access',
        echo: form.get('refresh_token'),
      });
    });
  });

  afterEach(async () => {
    await server.close();
  });

  const stored = (overrides: Partial<StoredTokens> = {}): StoredTokens => ({
    server: server.url,
    authServer: server.url,
    clientId: 'asset-sync-desktop',
    accessToken: 'access-1',
    refreshToken: 'refresh-1',
    expiresAt: clock.now() + 3600_000,
    scope: 'subdomain:local offline_access',
    ...overrides,
  });

  it('answers the stored token while it is valid, and refreshes it a minute before it expires', async () => {
    await writeTokens(stateDir, stored({ expiresAt: clock.now() + 120_000 }));
    const provider = createTokenProvider({ stateDir, clock, env: {} });
    expect(await provider.accessToken(server.url)).toBe('access-1');
    expect(server.requests).toHaveLength(0);
    clock.advance(61_000);
    expect(await provider.accessToken(server.url)).toBe('access-2');
    const request = new URLSearchParams(server.requests[0]?.body.toString());
    expect(Object.fromEntries(request)).toEqual({ grant_type: 'refresh_token', client_id: 'asset-sync-desktop', refresh_token: 'refresh-1' });
    expect(await readTokens(stateDir)).toMatchObject({ accessToken: 'access-2', refreshToken: 'refresh-2', expiresAt: clock.now() + 3600_000 });
  });

  it('refreshes once for many concurrent 401s', async () => {
    await writeTokens(stateDir, stored());
    const provider = createTokenProvider({ stateDir, clock, env: {} });
    const previous = await provider.accessToken(server.url);
    const answers = await Promise.all(Array.from({ length: 8 }, () => provider.refreshed(previous, server.url)));
    expect(new Set(answers)).toEqual(new Set(['access-2']));
    expect(server.requests).toHaveLength(1);
    // A late caller still holding the refused token gets the new one without another refresh.
    expect(await provider.refreshed(previous, server.url)).toBe('access-2');
    expect(server.requests).toHaveLength(1);
  });

  it('keeps the refresh token when the server does not rotate it', async () => {
    rotate = false;
    await writeTokens(stateDir, stored());
    const provider = createTokenProvider({ stateDir, clock, env: {} });
    expect(await provider.refreshed('access-1', server.url)).toBe('access-2');
    expect(await readTokens(stateDir)).toMatchObject({ accessToken: 'access-2', refreshToken: 'refresh-1' });
  });

  it('adopts tokens another process refreshed instead of spending the refresh token again', async () => {
    await writeTokens(stateDir, stored());
    const provider = createTokenProvider({ stateDir, clock, env: {} });
    expect(await provider.accessToken(server.url)).toBe('access-1');
    await writeTokens(stateDir, stored({ accessToken: 'access-from-cli', refreshToken: 'refresh-from-cli' }));
    expect(await provider.refreshed('access-1', server.url)).toBe('access-from-cli');
    expect(server.requests).toHaveLength(0);
  });

  it('says NOT_SIGNED_IN when nobody signed in, when there is no refresh token, and when the server revoked it', async () => {
    const provider = createTokenProvider({ stateDir, clock, env: {} });
    await expect(provider.accessToken(server.url)).rejects.toMatchObject({ code: 'NOT_SIGNED_IN' });

    await writeTokens(stateDir, stored({ refreshToken: null }));
    await expect(createTokenProvider({ stateDir, clock, env: {} }).refreshed('access-1', server.url)).rejects.toMatchObject({ code: 'NOT_SIGNED_IN' });

    await writeTokens(stateDir, stored());
    refuse = 'invalid_grant';
    const error = await createTokenProvider({ stateDir, clock, env: {} })
      .refreshed('access-1', server.url)
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'NOT_SIGNED_IN', status: 401 });
    expect((error as Error).cause).toMatchObject({ code: 'OAUTH_INVALID_GRANT' });
    expect(String(error)).not.toContain('refresh-1');
  });

  it('answers ASSET_SYNC_TOKEN without touching the store', async () => {
    const provider = createTokenProvider({ stateDir, clock, env: { ASSET_SYNC_TOKEN: 'static-token' } });
    expect(await provider.accessToken(server.url)).toBe('static-token');
    expect(await provider.refreshed('static-token', server.url)).toBe('static-token');
    expect(server.requests).toHaveLength(0);
  });
});

describe('the token provider with no state dir at all', () => {
  it('says NOT_SIGNED_IN when asked to refresh', async () => {
    const root = tempDir('asset-sync-provider-');
    const provider = createTokenProvider({ stateDir: `${root}/missing/state`, env: {} });
    await expect(provider.refreshed('anything', 'http://127.0.0.1:1')).rejects.toMatchObject({ code: 'NOT_SIGNED_IN' });
  });
});

describe('the token provider and the server a sign-in belongs to', () => {
  const stateDir = tempDir('asset-sync-provider-origin-');

  const signedInTo = async (server: string): Promise<void> => {
    await writeTokens(stateDir, { server, authServer: server, clientId: 'asset-sync-desktop', accessToken: 'access-1', refreshToken: 'refresh-1', expiresAt: null, scope: null });
  };

  it('answers the stored token for its own origin only, whatever the path', async () => {
    await signedInTo('https://api.example.test');
    const provider = createTokenProvider({ stateDir, env: {} });
    expect(await provider.accessToken('https://api.example.test/v2')).toBe('access-1');
    const error = await provider.accessToken('https://other.example.test').catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'SIGNED_IN_ELSEWHERE' });
    expect((error as Error).message).toBe('You are signed in to https://api.example.test, not https://other.example.test: run `asset-sync login --server https://other.example.test`.');
    expect(String(error)).not.toContain('access-1');
    await expect(provider.refreshed('access-1', 'http://api.example.test')).rejects.toMatchObject({ code: 'SIGNED_IN_ELSEWHERE' });
  });

  it('lets ASSET_SYNC_TOKEN go wherever the user sends it', async () => {
    await signedInTo('https://api.example.test');
    const provider = createTokenProvider({ stateDir, env: { ASSET_SYNC_TOKEN: 'chosen' } });
    expect(await provider.accessToken('https://other.example.test')).toBe('chosen');
  });
});
