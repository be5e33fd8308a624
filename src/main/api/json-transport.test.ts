import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_TIMEOUTS, type ClientContext } from './api-client.js';
import { createAgentPool } from './proxy-agents.js';
import { createBandwidthLimiter } from './bandwidth-limiter.js';
import { ConnectivityMonitor } from './connectivity-monitor.js';
import { DEFAULT_RETRY } from './with-retries.js';
import { InlineCalls } from '../disk/inline-calls.js';
import { nodeJsonTransport } from './json-transport.js';
import { transportError } from './transport-error.js';
import { instantClock, startFakeServer, type FakeServer } from '../../../test/support/api-client-fakes.js';

describe("the JSON transport over Node's own client", () => {
  let server: FakeServer | undefined;
  let context: ClientContext | undefined;

  afterEach(async () => {
    context?.agents.destroy();
    await server?.close();
    server = undefined;
    context = undefined;
  });

  function contextFor(url: string, responseMs = DEFAULT_TIMEOUTS.responseMs): ClientContext {
    const clock = instantClock();
    context = {
      server: url,
      agents: createAgentPool({}),
      clock,
      random: () => 0.5,
      retry: DEFAULT_RETRY,
      timeouts: { ...DEFAULT_TIMEOUTS, responseMs },
      userAgent: 'asset-sync-test',
      uploadLimiter: createBandwidthLimiter(clock),
      downloadLimiter: createBandwidthLimiter(clock),
      inline: new InlineCalls(),
      connectivity: new ConnectivityMonitor(url, clock),
      whileUnreachable: 'fail',
    };
    return context;
  }

  it('sends the body as JSON with its length and answers a body sent in pieces as text, whatever the status', async () => {
    server = await startFakeServer((_request, response) => {
      response.writeHead(409, { 'content-type': 'application/json', 'x-extra': 'yes' });
      response.write('{"message":"bientôt ');
      setTimeout(() => response.end('là"}'), 20);
    });
    const send = nodeJsonTransport(contextFor(server.url));
    const body = { name: 'café ☕', items: [1, 2] };
    const answer = await send({ method: 'POST', url: new URL(`${server.url}/things`), headers: { authorization: 'Bearer t' }, body });
    expect(answer).toMatchObject({ statusCode: 409, body: '{"message":"bientôt là"}' });
    expect(answer.headers['x-extra']).toBe('yes');
    const [seen] = server.requests;
    expect(seen?.method).toBe('POST');
    expect(seen?.headers).toMatchObject({ 'content-type': 'application/json', authorization: 'Bearer t', 'user-agent': 'asset-sync-test' });
    expect(Number(seen?.headers['content-length'])).toBe(Buffer.byteLength(JSON.stringify(body)));
    expect(JSON.parse(seen?.body.toString('utf8') ?? '')).toEqual(body);
  });

  it('sends no body and no content type for a GET', async () => {
    server = await startFakeServer((_request, response) => {
      response.end('');
    });
    const answer = await nodeJsonTransport(contextFor(server.url))({ method: 'GET', url: new URL(`${server.url}/x`), headers: {} });
    expect(answer).toMatchObject({ statusCode: 200, body: '' });
    expect(server.requests[0]?.headers['content-type']).toBeUndefined();
    expect(server.requests[0]?.body.length).toBe(0);
  });

  it('fails as a timeout of the response when no answer starts in time', async () => {
    server = await startFakeServer(() => undefined);
    const url = new URL(`${server.url}/slow`);
    const failure = await nodeJsonTransport(contextFor(server.url, 50))({ method: 'GET', url, headers: {} }).catch((error: unknown) => error);
    expect(transportError(failure, 'GET', url)).toMatchObject({ code: 'TIMEOUT', retryable: true, maybeApplied: true });
  });

  it('fails as a network error when the connection drops in the middle of the body', async () => {
    server = await startFakeServer((_request, response, socket) => {
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
      response.write('{"partial":', () => socket.destroy());
    });
    const url = new URL(`${server.url}/cut`);
    const failure = await nodeJsonTransport(contextFor(server.url))({ method: 'GET', url, headers: {} }).catch((error: unknown) => error);
    expect(transportError(failure, 'GET', url)).toMatchObject({ code: 'NETWORK', retryable: true });
  });
});
