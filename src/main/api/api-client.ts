/**
 * The core of the API client: one JSON request to the service with the bearer token, one refresh and
 * retry on 401, bounded retries with backoff on network errors, 408, 429 and 5xx (honouring
 * Retry-After), and every failure as an ApiError. Resource modules build on `Requester.json`; the
 * transfer modules (part-upload.ts, download-file.ts) share its ClientContext (agents, clock, limits).
 * It knows HTTP and nothing about sync. It must never send the token anywhere but the configured
 * server (no redirects are followed), and never put it in an error or a log line.
 */
import { ApiError, apiErrorFromResponse, describeUrl, invalidResponse } from './api-error.js';
import type { AgentPool } from './proxy-agents.js';
import type { BandwidthLimiter } from './bandwidth-limiter.js';
import type { ChunkBuffers } from './chunk-buffers.js';
import type { ClientClock } from './client-clock.js';
import { transportError } from './transport-error.js';
import { abortedError, withRetries, type RetryPolicy } from './with-retries.js';
import type { InlineCalls } from '../disk/inline-calls.js';
import type { ConnectivityMonitor } from './connectivity-monitor.js';
import { nodeJsonTransport } from './json-transport.js';

/**
 * Where bearer tokens come from (src/main/auth implements it; tests pass a fake). Every call names the
 * server the token is for, so a provider holding a sign-in for one server can refuse to hand it out
 * for another (SIGNED_IN_ELSEWHERE): a token never leaves for an origin it was not issued by.
 */
export interface TokenProvider {
  /** A token believed valid now for `server` (refreshed first when it is known to have expired). */
  accessToken(server: string): Promise<string>;
  /** A token other than `previous`, which `server` refused: refreshes once however many callers ask. */
  refreshed(previous: string, server: string): Promise<string>;
}

/** A provider for a fixed token (ASSET_SYNC_TOKEN, tests): a refused token stays refused. */
export function staticTokenProvider(token: string): TokenProvider {
  return { accessToken: async () => token, refreshed: async () => token };
}

export interface Timeouts {
  /** TCP (and TLS) connection set-up, ms. */
  connectMs: number;
  /** From sending a JSON request to its first answer byte, ms. */
  responseMs: number;
  /** No byte either way on a transfer's socket for this long, ms. */
  idleMs: number;
}

export const DEFAULT_TIMEOUTS: Timeouts = { connectMs: 15_000, responseMs: 60_000, idleMs: 60_000 };

/** What the request core, the resource modules and the transfer modules share. */
export interface ClientContext {
  /** The API base URL without a trailing slash, e.g. `https://api-v2.dash.app`. */
  server: string;
  agents: AgentPool;
  clock: ClientClock;
  random: () => number;
  retry: RetryPolicy;
  timeouts: Timeouts;
  userAgent: string;
  uploadLimiter: BandwidthLimiter;
  downloadLimiter: BandwidthLimiter;
  /** The read buffers of large part PUTs, reused from part to part (chunk-buffers.ts; none: fresh ones per part). */
  chunkBuffers?: ChunkBuffers | undefined;
  /** Runs a part's small file calls on the event loop where that is safe (part-upload.ts). */
  inline: InlineCalls;
  /** Whether the service is reachable; requests wait for its next try while it is not. */
  connectivity: ConnectivityMonitor;
  /** Aborts every wait for the service (the CLI's Ctrl+C), so an outage never holds a process open. */
  stop?: AbortSignal | undefined;
  /** While the service is unreachable, requests wait for its next try, or fail at once (one pass). */
  whileUnreachable: 'wait' | 'fail';
  /** How JSON requests travel (default: Node's own client over `agents`, json-transport.ts). */
  transport?: JsonTransport | undefined;
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** One JSON exchange as the request core sees it, below retries and token refresh. */
export interface JsonExchange {
  method: HttpMethod;
  url: URL;
  headers: Record<string, string>;
  body?: unknown;
  signal?: AbortSignal | undefined;
}

export interface JsonAnswer {
  statusCode: number;
  headers: Record<string, string | string[] | undefined>;
  /** The body as text ('' when empty). */
  body: string;
}

/**
 * Sends one JSON exchange; a failure below HTTP rejects with an ApiError (transport-error.ts). The
 * default is Node's own client over the context's agents (json-transport.ts); the simulation passes
 * one that calls the service in-process (fastify.inject) through a fault layer, so retries, 401
 * refresh and Retry-After run the real code.
 */
export type JsonTransport = (exchange: JsonExchange) => Promise<JsonAnswer>;

export interface JsonRequest {
  method: HttpMethod;
  /** Path below the server, starting with `/`; ids already URI-encoded. */
  path: string;
  body?: unknown;
  /**
   * Whether repeating the request is harmless (default: every method but POST). A non-idempotent
   * request is retried only when the failure proves it was not applied (refused connection, 429, 503).
   */
  idempotent?: boolean;
  signal?: AbortSignal | undefined;
}

export interface Requester {
  readonly context: ClientContext;
  /** Sends the request and answers the parsed JSON body (null when the body is empty). */
  json(request: JsonRequest): Promise<unknown>;
}

export function urlFor(server: string, path: string): URL {
  return new URL(`${server}${path.startsWith('/') ? path : `/${path}`}`);
}

/** The retry rule for a request that must not be repeated when it may have been applied. */
export function safeToRepeat(error: ApiError): boolean {
  if (!error.retryable) return false;
  if (error.status === undefined) return !error.maybeApplied;
  return error.status === 429 || error.status === 503;
}

export function createRequester(context: ClientContext, tokens: TokenProvider): Requester {
  const send = async (request: JsonRequest, url: URL, token: string) => {
    const signal = request.signal === undefined ? context.stop : context.stop === undefined ? request.signal : AbortSignal.any([request.signal, context.stop]);
    try {
      await context.connectivity.ready(signal, context.whileUnreachable);
    } catch (error) {
      throw error instanceof ApiError ? error : abortedError(request.method, describeUrl(url));
    }
    const headers = { authorization: `Bearer ${token}`, accept: 'application/json', 'user-agent': context.userAgent };
    const response = await (context.transport ?? nodeJsonTransport(context))({ method: request.method, url, headers, body: request.body, signal: request.signal }).catch((error: unknown) => {
      const failure = transportError(error, request.method, url);
      context.connectivity.failed(failure);
      throw failure;
    });
    context.connectivity.reached();
    return response;
  };

  return {
    context,
    async json(request) {
      const url = urlFor(context.server, request.path);
      const idempotent = request.idempotent ?? request.method !== 'POST';
      const retryContext = { clock: context.clock, random: context.random, policy: context.retry, signal: request.signal };
      return withRetries(
        retryContext,
        async () => {
          let token = await tokens.accessToken(context.server);
          let response = await send(request, url, token);
          if (response.statusCode === 401) {
            token = await tokens.refreshed(token, context.server);
            response = await send(request, url, token);
          }
          const retryHeader = response.headers['retry-after'];
          const retryAfter = Array.isArray(retryHeader) ? retryHeader[0] : retryHeader;
          if (response.statusCode >= 300) {
            throw apiErrorFromResponse({ method: request.method, url, status: response.statusCode, retryAfter, bodyText: response.body, now: context.clock.now() });
          }
          if (response.body.trim() === '') return null;
          try {
            return JSON.parse(response.body) as unknown;
          } catch (error) {
            throw invalidResponse(request.method, url, 'the body is not JSON', error);
          }
        },
        idempotent ? undefined : safeToRepeat,
      );
    },
  };
}
