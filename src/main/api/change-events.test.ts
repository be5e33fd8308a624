import { afterEach, describe, expect, it } from 'vitest';
import type { ChangeFeedEvent } from '../../shared/api/change-feed.js';
import { createApiClient, type ApiClient } from './create-api-client.js';
import { errorBody, instantClock, scriptedTokens, sendJson, startFakeServer, type FakeHandler, type FakeServer } from '../../../test/support/api-client-fakes.js';

describe('the change feed client', () => {
  let server: FakeServer | undefined;
  let client: ApiClient | undefined;
  afterEach(async () => {
    client?.close();
    await server?.close();
    server = undefined;
    client = undefined;
  });

  async function setUp(handler: FakeHandler): Promise<{ server: FakeServer; client: ApiClient }> {
    server = await startFakeServer(handler);
    client = createApiClient({ server: server.url, tokens: scriptedTokens(), clock: instantClock(), random: () => 0.5, env: {}, retry: { attempts: 1 } });
    return { server, client };
  }

  /** Follows the stream until it ends; answers the events. */
  async function follow(api: ApiClient, cursor?: string): Promise<ChangeFeedEvent[]> {
    const events: ChangeFeedEvent[] = [];
    await api.followChanges({ path: '/change-events', cursor, signal: new AbortController().signal, onEvent: (event) => events.push(event) });
    return events;
  }

  it('discovers the feed, and finds none where the service has no metadata', async () => {
    const { client: api } = await setUp((_request, response) => sendJson(response, 200, { changeFeed: { path: '/change-events', protocol: 'server-sent-events', heartbeatSeconds: 20 } }));
    expect(await api.serviceFeatures()).toEqual({ changeFeed: { path: '/change-events', protocol: 'server-sent-events', heartbeatSeconds: 20 } });
    await server?.close();
    const { client: hosted } = await setUp((_request, response) => sendJson(response, 404, errorBody(404, 'NOT_FOUND')));
    expect(await hosted.serviceFeatures()).toEqual({});
  });

  it('will not follow a feed path that leaves the server', async () => {
    const { client: api } = await setUp((_request, response) => sendJson(response, 200, { changeFeed: { path: '//evil.example/x', protocol: 'server-sent-events', heartbeatSeconds: 20 } }));
    expect(await api.serviceFeatures()).toEqual({});
  });

  it('reads events split anywhere across chunks, with CRLF lines, comments and unknown events', async () => {
    const { server: fake, client: api } = await setUp(async (_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      const body = 'retry: 2000\r\nevent: ready\r\nid: e.1.a\r\ndata: {"cursor":"e.1.a"}\r\n\r\n: keep-alive\n\nevent: other\ndata: {}\n\nevent: change\nid: e.3.b\ndata: {"cursor":"e.3.b","kinds":["ASSET","NEW_KIND"]}\n\n';
      for (const piece of body.match(/[\s\S]{1,7}/g) ?? []) {
        response.write(piece);
        await new Promise((resolve) => setImmediate(resolve));
      }
      response.end();
    });
    expect(await follow(api, 'e.0.0')).toEqual([
      { type: 'ready', cursor: 'e.1.a', kinds: [] },
      { type: 'change', cursor: 'e.3.b', kinds: ['ASSET', 'NEW_KIND'] },
    ]);
    expect(fake.requests[0]?.url).toBe('/change-events?cursor=e.0.0');
    expect(fake.requests[0]?.headers.authorization).toBe('Bearer token-1');
  });

  it('refreshes a refused token once', async () => {
    const { server: fake, client: api } = await setUp((request, response) => {
      if (request.headers.authorization === 'Bearer token-1') {
        sendJson(response, 401, errorBody(401, 'TOKEN_EXPIRED'));
        return;
      }
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.end('event: ready\ndata: {"cursor":"c"}\n\n');
    });
    expect(await follow(api)).toHaveLength(1);
    expect(fake.requests.map((request) => request.headers.authorization)).toEqual(['Bearer token-1', 'Bearer token-2']);
  });

  it('fails with the service code for a cursor it refuses', async () => {
    const { client: api } = await setUp((_request, response) => sendJson(response, 410, errorBody(410, 'CHANGE_CURSOR_UNKNOWN')));
    await expect(follow(api, 'old')).rejects.toMatchObject({ code: 'CHANGE_CURSOR_UNKNOWN', status: 410 });
  });

  it('fails on an event without a cursor, and on a dropped connection', async () => {
    const { client: api } = await setUp((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.end('event: change\ndata: {"kinds":["ASSET"]}\n\n');
    });
    await expect(follow(api)).rejects.toMatchObject({ code: 'INVALID_RESPONSE' });
    await server?.close();
    const { client: dropping } = await setUp((_request, response, socket) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write('event: ready\ndata: {"cursor":"c"}\n\n', () => socket.destroy());
    });
    await expect(follow(dropping)).rejects.toMatchObject({ code: 'NETWORK' });
  });
});
