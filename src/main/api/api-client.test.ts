import { afterEach, describe, expect, it } from 'vitest';
import { createApiClient, type ApiClient } from './create-api-client.js';
import { ApiError } from './api-error.js';
import { errorBody, instantClock, scriptedTokens, sendJson, startFakeServer, type FakeServer, type InstantClock, type ScriptedTokens } from '../../../test/support/api-client-fakes.js';

const user = { result: { id: 'u1', email: 'a@example.com', accountId: 'acc' }, permittedActions: [] };

describe('the request core against a fake server', () => {
  let server: FakeServer | undefined;
  let client: ApiClient | undefined;
  let clock: InstantClock;
  let tokens: ScriptedTokens;

  afterEach(async () => {
    client?.close();
    await server?.close();
    server = undefined;
    client = undefined;
  });

  async function setUp(handler: Parameters<typeof startFakeServer>[0]): Promise<{ server: FakeServer; client: ApiClient }> {
    server = await startFakeServer(handler);
    clock = instantClock();
    tokens = scriptedTokens();
    client = createApiClient({ server: server.url, tokens, clock, random: () => 0.5, env: {} });
    return { server, client };
  }

  it('waits out a 503 with Retry-After and then succeeds', async () => {
    let calls = 0;
    const { server: fake, client: api } = await setUp((_request, response) => {
      if (++calls === 1) sendJson(response, 503, errorBody(503, 'UNAVAILABLE'), { 'retry-after': '3' });
      else sendJson(response, 200, user);
    });
    const answer = await api.currentUser();
    expect(answer.result.email).toBe('a@example.com');
    expect(fake.requests).toHaveLength(2);
    expect(clock.sleeps).toEqual([3000]);
    expect(fake.requests[0]?.headers.authorization).toBe('Bearer token-1');
  });

  it('honours Retry-After given as an HTTP date on 429', async () => {
    let calls = 0;
    const { client: api } = await setUp((_request, response) => {
      const retryAt = new Date(clock.now() + 7000).toUTCString();
      if (++calls === 1) sendJson(response, 429, errorBody(429, 'RATE_LIMITED'), { 'retry-after': retryAt });
      else sendJson(response, 200, user);
    });
    await api.currentUser();
    expect(calls).toBe(2);
    // HTTP dates have whole seconds: the wait is at most the 7 s asked for.
    expect(clock.sleeps).toHaveLength(1);
    expect(clock.sleeps[0]).toBeGreaterThan(6000);
    expect(clock.sleeps[0]).toBeLessThanOrEqual(7000);
  });

  it('backs off with jitter on a 429 without Retry-After and gives up after the bounded attempts', async () => {
    const { server: fake, client: api } = await setUp((_request, response) => sendJson(response, 429, errorBody(429, 'RATE_LIMITED')));
    const error = await api.currentUser().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ code: 'RATE_LIMITED', status: 429, retryable: true, method: 'GET' });
    expect(fake.requests).toHaveLength(5);
    // random() = 0.5: half of 250, 500, 1000, 2000 ms.
    expect(clock.sleeps).toEqual([125, 250, 500, 1000]);
  });

  it('hands a Retry-After longer than it waits for to the caller', async () => {
    const { server: fake, client: api } = await setUp((_request, response) => sendJson(response, 503, errorBody(503, 'UNAVAILABLE'), { 'retry-after': '3600' }));
    await expect(api.currentUser()).rejects.toMatchObject({ code: 'UNAVAILABLE', retryAfterMs: 3_600_000, retryable: true });
    expect(fake.requests).toHaveLength(1);
  });

  it('retries a connection reset on an idempotent request', async () => {
    let calls = 0;
    const { server: fake, client: api } = await setUp((_request, response, socket) => {
      if (++calls === 1) socket.destroy();
      else sendJson(response, 200, user);
    });
    await api.currentUser();
    expect(fake.requests).toHaveLength(2);
    expect(clock.sleeps).toHaveLength(1);
  });

  it('does not repeat a non-idempotent request after a reset, and says it may have been applied', async () => {
    const { server: fake, client: api } = await setUp((_request, _response, socket) => {
      socket.destroy();
    });
    const error = await api.createAssetsWithUploads([{ batchItemId: 'a', path: '/a.txt', size: 3 }]).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'NETWORK', retryable: true, maybeApplied: true, method: 'POST' });
    expect(fake.requests).toHaveLength(1);
  });

  it('retries a non-idempotent request after a 503, which means it was not applied', async () => {
    let calls = 0;
    const job = { id: 'j1', type: 'AssetAndUploadBatchJob', state: 'COMPLETED', progress: 1, dateCreated: '', successes: {}, failures: {} };
    const { server: fake, client: api } = await setUp((_request, response) => {
      if (++calls === 1) sendJson(response, 503, errorBody(503, 'UNAVAILABLE'), { 'retry-after': '1' });
      else sendJson(response, 200, { result: job, permittedActions: [] });
    });
    const outcome = await api.createAssetsWithUploads([{ batchItemId: 'a', path: '/a.txt', size: 3 }]);
    expect(outcome.jobId).toBe('j1');
    expect(fake.requests).toHaveLength(2);
  });

  it('refreshes the token once on 401 and retries with the new one', async () => {
    const { server: fake, client: api } = await setUp((request, response) => {
      if (request.headers.authorization === 'Bearer token-1') sendJson(response, 401, errorBody(401, 'TOKEN_EXPIRED'));
      else sendJson(response, 200, user);
    });
    await api.currentUser();
    expect(tokens.refreshCount).toBe(1);
    expect(fake.requests.map((request) => request.headers.authorization)).toEqual(['Bearer token-1', 'Bearer token-2']);
    expect(clock.sleeps).toEqual([]);
  });

  it('gives up after one refresh when the new token is refused too', async () => {
    const { server: fake, client: api } = await setUp((_request, response) => sendJson(response, 401, errorBody(401, 'UNAUTHENTICATED')));
    const error = await api.currentUser().catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'UNAUTHENTICATED', status: 401, retryable: false });
    expect(tokens.refreshCount).toBe(1);
    expect(fake.requests).toHaveLength(2);
    expect(JSON.stringify(error)).not.toContain('token-');
    expect((error as Error).message).not.toContain('token-');
  });

  it('refreshes on a 401 without a code (a foreign server)', async () => {
    const { client: api } = await setUp((request, response) => {
      if (request.headers.authorization === 'Bearer token-1') {
        response.writeHead(401);
        response.end();
      } else sendJson(response, 200, user);
    });
    await api.currentUser();
    expect(tokens.refreshCount).toBe(1);
  });

  it('does not retry a 400, and keeps the service code and message', async () => {
    const { server: fake, client: api } = await setUp((_request, response) => sendJson(response, 400, errorBody(400, 'INVALID_CRITERION', 'criterion.type is missing')));
    const error = await api.searchAssets({ criterion: { type: 'NOPE' }, sorts: [] }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'INVALID_CRITERION', status: 400, retryable: false });
    expect((error as Error).message).toContain('criterion.type is missing');
    expect(fake.requests).toHaveLength(1);
  });

  it('derives codes from the status when a foreign server sends none', async () => {
    const answers: [number, string][] = [
      [404, 'NOT_FOUND'],
      [409, 'CONFLICT'],
      [403, 'FORBIDDEN'],
      [400, 'BAD_REQUEST'],
    ];
    let index = 0;
    const { client: api } = await setUp((_request, response) => {
      const [status] = answers[index++] ?? [500];
      sendJson(response, status, { timestamp: '', status, error: 'Whatever', message: 'nope', path: '/assets/x' });
    });
    for (const [status, code] of answers) {
      await expect(api.getAsset('x')).rejects.toMatchObject({ status, code, retryable: false });
    }
  });

  it('answers INVALID_RESPONSE for a body that is not JSON or misses what the engine needs', async () => {
    let calls = 0;
    const { client: api } = await setUp((_request, response) => {
      if (++calls === 1) {
        response.writeHead(200, { 'content-type': 'text/html' });
        response.end('<html>proxy login</html>');
      } else sendJson(response, 200, { result: { email: 'no id' } });
    });
    await expect(api.currentUser()).rejects.toMatchObject({ code: 'INVALID_RESPONSE' });
    await expect(api.currentUser()).rejects.toMatchObject({ code: 'INVALID_RESPONSE' });
  });

  it('reports a refused connection as NETWORK, not applied, after bounded retries', async () => {
    const { server: fake } = await setUp(() => undefined);
    const url = fake.url;
    await fake.close();
    server = undefined;
    const api = createApiClient({ server: url, tokens: scriptedTokens(), clock, random: () => 0, env: {}, retry: { attempts: 3 } });
    try {
      const start = clock.now();
      await expect(api.currentUser()).rejects.toMatchObject({ code: 'NETWORK', retryable: true, maybeApplied: false });
      // Each retry also waits for the next try of the unreachable service (2 s, then 5 s after that).
      expect(clock.sleeps).toHaveLength(4);
      expect(clock.now() - start).toBe(7_000);
      expect(api.connectivity()).toMatchObject({ state: 'unreachable', server: url, code: 'NETWORK', since: start, nextTryAt: start + 7_000 + 10_000 });
    } finally {
      api.close();
    }
  });

  it('never follows a redirect with the bearer token', async () => {
    const { server: fake, client: api } = await setUp((_request, response) => {
      response.writeHead(302, { location: 'http://example.invalid/steal' });
      response.end();
    });
    await expect(api.currentUser()).rejects.toMatchObject({ code: 'UNEXPECTED_REDIRECT', status: 302 });
    expect(fake.requests).toHaveLength(1);
  });
});
