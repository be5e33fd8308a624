/**
 * Fakes for the API client's tests: a clock whose sleeps return at once (recording how long they
 * would have been), a scripted token provider, and a throwaway HTTP server on 127.0.0.1 whose handler
 * the test writes. Every server a test starts is closed by the test (`await server.close()`).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import type { ClientClock } from '../../src/main/api/client-clock.js';
import type { TokenProvider } from '../../src/main/api/api-client.js';

export interface InstantClock extends ClientClock {
  /** Every sleep asked for, ms, in order. */
  sleeps: number[];
  advance(ms: number): void;
}

/** A clock that starts at `start` and moves only when slept on or advanced. */
export function instantClock(start = Date.parse('2026-03-01T09:00:00.000Z')): InstantClock {
  let time = start;
  const clock: InstantClock = {
    sleeps: [],
    now: () => time,
    advance(ms) {
      time += ms;
    },
    async sleep(ms, signal) {
      if (signal?.aborted === true) throw signal.reason;
      clock.sleeps.push(ms);
      time += ms;
      await Promise.resolve();
    },
  };
  return clock;
}

export interface ScriptedTokens extends TokenProvider {
  current: string;
  refreshCount: number;
}

/** Answers `token-1`, and `token-2`, `token-3`… after each refresh. */
export function scriptedTokens(): ScriptedTokens {
  const tokens: ScriptedTokens = {
    current: 'token-1',
    refreshCount: 0,
    accessToken: async () => tokens.current,
    async refreshed(previous) {
      if (previous === tokens.current) {
        tokens.refreshCount++;
        tokens.current = `token-${tokens.refreshCount + 1}`;
      }
      return tokens.current;
    },
  };
  return tokens;
}

export interface SeenRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
}

export interface FakeServer {
  url: string;
  requests: SeenRequest[];
  close(): Promise<void>;
}

export type FakeHandler = (request: SeenRequest, response: ServerResponse, socket: Socket) => void | Promise<void>;

/** Starts an HTTP server on 127.0.0.1 that reads each body whole and passes it to `handler`. */
export async function startFakeServer(handler: FakeHandler): Promise<FakeServer> {
  const requests: SeenRequest[] = [];
  const server = createServer((incoming, response) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const seen = { method: incoming.method ?? 'GET', url: incoming.url ?? '/', headers: incoming.headers, body: Buffer.concat(chunks) };
      requests.push(seen);
      void Promise.resolve(handler(seen, response, incoming.socket)).catch((error: unknown) => {
        response.statusCode = 599;
        response.end(String(error));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Sends a JSON answer. */
export function sendJson(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify(body));
}

/** A Spring-style error body with our code. */
export function errorBody(status: number, code: string, message = code): Record<string, unknown> {
  return { timestamp: new Date(0).toISOString(), status, error: 'Error', message, path: '/', code };
}

export interface ConnectProxy {
  url: string;
  /** The `host:port` of every CONNECT it was asked for. */
  tunnels: string[];
  close(): Promise<void>;
}

/**
 * An HTTP proxy that answers CONNECT by tunnelling to 127.0.0.1:`targetPort` whatever host was named,
 * so a test can use a made-up host name and still prove the request went through the proxy.
 */
export async function startConnectProxy(targetPort: number): Promise<ConnectProxy> {
  const tunnels: string[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((_request, response) => {
    response.statusCode = 405;
    response.end();
  });
  server.on('connect', (request: IncomingMessage, client: Socket, head: Buffer) => {
    tunnels.push(request.url ?? '');
    sockets.add(client);
    const upstream = connect(targetPort, '127.0.0.1', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    sockets.add(upstream);
    const end = (): void => {
      upstream.destroy();
      client.destroy();
    };
    upstream.on('error', end);
    client.on('error', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    tunnels,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
