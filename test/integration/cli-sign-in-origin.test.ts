/**
 * The stored sign-in goes only to the server it was issued by: signed in to one service, `sync
 * --server` naming another origin is refused (exit 2, naming both and the way out) and that origin
 * never sees the token, on any request. ASSET_SYNC_TOKEN stays an explicit override.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/test-service.js';
import { startFakeServer, sendJson, errorBody, type FakeServer } from '../support/api-client-fakes.js';
import { cli } from '../support/cli-runner.js';
import { writeTokens } from '../../src/main/auth/token-store.js';
import { createApiClient } from '../../src/main/api/index.js';
import { createTokenProvider } from '../../src/main/auth/index.js';
import { tempDir } from '../support/temp-dir.js';

describe('the stored sign-in and the server it belongs to', () => {
  let service: TestService;
  let other: FakeServer;

  beforeAll(async () => {
    service = await startTestService();
    // Another origin: it answers like a service that does not know the token, and records what came.
    other = await startFakeServer((_request, response) => sendJson(response, 401, errorBody(401, 'UNAUTHENTICATED')));
  });
  afterAll(async () => {
    await other.close();
    await service.dispose();
  });

  const signedIn = async (): Promise<{ stateDir: string; token: string }> => {
    const stateDir = tempDir('asset-sync-origin-state-');
    const token = await service.token();
    await writeTokens(stateDir, { server: service.url, authServer: service.url, clientId: 'asset-sync-desktop', accessToken: token, refreshToken: null, expiresAt: null, scope: null });
    return { stateDir, token };
  };

  it('refuses `sync --server` for another origin, and that origin never receives the token', async () => {
    const { stateDir, token } = await signedIn();
    const folder = tempDir('asset-sync-origin-root-');
    writeFileSync(join(folder, 'a.txt'), 'hello');
    const run = await cli(['sync', '--server', other.url, '--folder', folder, '--state', stateDir, '--once', '--stable-ms', '0']);
    expect(run.code).toBe(2);
    expect(run.err).toContain(`You are signed in to ${service.url}, not ${other.url}: run \`asset-sync login --server ${other.url}\`. [SIGNED_IN_ELSEWHERE]`);
    expect(other.requests.filter((request) => JSON.stringify(request.headers).includes(token))).toEqual([]);

    // Below the command too: an API client for the other origin with the stored sign-in sends nothing.
    const api = createApiClient({ server: other.url, tokens: createTokenProvider({ stateDir, env: {} }), env: {} });
    try {
      await expect(api.currentUser()).rejects.toMatchObject({ code: 'SIGNED_IN_ELSEWHERE' });
    } finally {
      api.close();
    }
    expect(other.requests.map((request) => request.headers.authorization).filter((value) => value !== undefined)).toEqual([]);

    // Its own server still gets it.
    const own = await cli(['sync', '--server', service.url, '--folder', folder, '--state', stateDir, '--once', '--stable-ms', '0']);
    expect(own.code, own.err).toBe(0);
  });

  it('sends ASSET_SYNC_TOKEN where the user points it', async () => {
    const { stateDir } = await signedIn();
    const api = createApiClient({ server: other.url, tokens: createTokenProvider({ stateDir, env: { ASSET_SYNC_TOKEN: 'chosen-by-the-user' } }), env: {} });
    try {
      await expect(api.currentUser()).rejects.toMatchObject({ status: 401 });
    } finally {
      api.close();
    }
    expect(other.requests.at(-1)?.headers.authorization).toBe('Bearer chosen-by-the-user');
  });
});
