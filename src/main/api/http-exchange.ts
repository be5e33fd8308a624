/**
 * One HTTP request with Node's own client, for the data plane (part PUTs and downloads, one or more
 * per file) and the JSON API's requests (json-transport.ts). got, which the JSON requests used before,
 * spends 0.2–0.4 ms of CPU per request on option handling, measured beside a bare `http.request`
 * (about 0.1 ms); over thousands of small files that is seconds, and a signed-URL transfer needs none
 * of it (no auth, no JSON, no redirects to follow, the callers retry). Timeouts work as got's do and
 * fail the same way (name TimeoutError, code ETIMEDOUT, the phase in `event`), so transportError reads
 * both: connect, first response byte (when asked for), and an idle socket at any time.
 *
 * It must never buffer a response body (the caller reads the stream) and never follow a redirect.
 */
import { request as httpRequest, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { Readable, Writable } from 'node:stream';
import type { ClientContext } from './api-client.js';

/**
 * Writes a body to the request and ends it, resolving once all of it is handed over; a rejection fails
 * the request with its error. For bodies that manage their own buffers (send-file-range.ts).
 */
export type BodyWriter = (request: Writable) => Promise<void>;

export interface ExchangeRequest {
  method: 'GET' | 'PUT' | 'POST' | 'PATCH' | 'DELETE';
  url: URL;
  headers: Record<string, string>;
  /** Sent whole (a Buffer), streamed, or written by a function; a body that fails fails the request with its error. */
  body?: Buffer | Readable | BodyWriter;
  /** Limit on the wait for the response's first byte after the request went out (none: the idle limit only). */
  responseMs?: number;
  signal?: AbortSignal | undefined;
}

export interface Exchange {
  stream: IncomingMessage;
  status: number;
  headers: IncomingHttpHeaders;
  url: URL;
}

/** A timeout the way transportError reads it (got's shape). */
function timeoutError(event: 'connect' | 'response' | 'socket', ms: number): Error {
  return Object.assign(new Error(`Timeout awaiting '${event}' for ${ms}ms`), { name: 'TimeoutError', code: 'ETIMEDOUT', event });
}

/** Sends the request; resolves with the response (body unread) or rejects with the raw failure. */
export function exchange(context: ClientContext, input: ExchangeRequest): Promise<Exchange> {
  return new Promise((resolve, reject) => {
    const { url, body } = input;
    const agents = context.agents.agentsFor(url);
    const https = url.protocol === 'https:';
    const options = { method: input.method, headers: { ...input.headers, 'user-agent': context.userAgent }, ...(input.signal === undefined ? {} : { signal: input.signal }) };
    const request = https ? httpsRequest(url, { ...options, agent: agents.https }) : httpRequest(url, { ...options, agent: agents.http });
    const { connectMs, idleMs } = context.timeouts;
    let connectTimer: NodeJS.Timeout | undefined;
    let responseTimer: NodeJS.Timeout | undefined;
    const settle = (): void => {
      clearTimeout(responseTimer);
      clearTimeout(connectTimer);
    };
    request.once('socket', (socket) => {
      if (!socket.connecting) return;
      connectTimer = setTimeout(() => request.destroy(timeoutError('connect', connectMs)), connectMs);
      socket.once(https ? 'secureConnect' : 'connect', () => clearTimeout(connectTimer));
    });
    request.setTimeout(idleMs, () => request.destroy(timeoutError('socket', idleMs)));
    request.once('error', (error) => {
      settle();
      reject(error);
    });
    request.once('response', (response) => {
      settle();
      resolve({ stream: response, status: response.statusCode ?? 0, headers: response.headers, url });
    });
    if (input.responseMs !== undefined) {
      const responseMs = input.responseMs;
      request.once('finish', () => {
        responseTimer = setTimeout(() => request.destroy(timeoutError('response', responseMs)), responseMs);
      });
    }
    if (body === undefined || Buffer.isBuffer(body)) {
      request.end(body);
      return;
    }
    if (typeof body === 'function') {
      // Destroying an already destroyed request does nothing, so the first failure is the one reported.
      body(request).catch((error: unknown) => request.destroy(error instanceof Error ? error : new Error(String(error))));
      return;
    }
    body.once('error', (error) => request.destroy(error));
    body.pipe(request);
  });
}

/** Reads a small body as text (error answers, ETag responses), at most `limit` bytes; never throws. */
export async function readText(stream: IncomingMessage, limit = 64 * 1024): Promise<string> {
  const chunks: Buffer[] = [];
  let total = 0;
  try {
    for await (const chunk of stream) {
      const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
      chunks.push(buffer);
      total += buffer.length;
      if (total >= limit) break;
    }
  } catch {
    // Only ever read for a message: what arrived is enough.
  }
  if (total >= limit) stream.destroy();
  return Buffer.concat(chunks).toString('utf8');
}
