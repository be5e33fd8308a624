/**
 * The client of the service's change feed [ours] (docs/api.md "Change feed"): discovery through
 * `/.well-known/asset-sync` (a service without it, such as the hosted one, offers no feed), and one
 * connection to the server-sent event stream, read until it ends. Reconnecting, backoff and what a
 * change means for sync are the caller's (remote/change-listener.ts). Knows HTTP, nothing about sync.
 *
 * Must never: buffer a stream without bound (an event longer than 64 KiB fails the connection), or
 * send the token anywhere but the configured server (the stream's path comes from the service's
 * metadata, so only a path below the server is accepted).
 */
import type { Readable } from 'node:stream';
import { z } from 'zod';
import type { ChangeFeedEvent, ServiceFeatures } from '../../shared/api/change-feed.js';
import { ApiError, apiErrorFromResponse, invalidResponse, isApiError } from './api-error.js';
import { urlFor, type ClientContext, type Requester, type TokenProvider } from './api-client.js';
import { exchange, readText } from './http-exchange.js';
import { transportError } from './transport-error.js';

export const FEATURES_PATH = '/.well-known/asset-sync';
const MAX_EVENT_CHARS = 64 * 1024;

export interface FollowChangesRequest {
  /** The stream's path, as the service advertised it. */
  path: string;
  /** Resume after this cursor; none: from now. */
  cursor?: string | undefined;
  signal: AbortSignal;
  onEvent(event: ChangeFeedEvent): void;
}

const featuresSchema = z.object({
  changeFeed: z.object({ path: z.string().regex(/^(\/[A-Za-z0-9_-][A-Za-z0-9_.-]*)+$/), protocol: z.literal('server-sent-events'), heartbeatSeconds: z.number() }).optional(),
});
const eventData = z.object({ cursor: z.string().min(1), kinds: z.array(z.string()).optional() });

/** What the service offers beyond API.md; `{}` from a service that does not say (404). */
export async function serviceFeatures(requester: Requester): Promise<ServiceFeatures> {
  let answer: unknown;
  try {
    answer = await requester.json({ method: 'GET', path: FEATURES_PATH });
  } catch (error) {
    if (isApiError(error) && (error.status === 404 || error.status === 405)) return {};
    throw error;
  }
  return parseServiceFeatures(answer);
}

/** The metadata document's features we know how to use (none from a document we cannot read). */
export function parseServiceFeatures(answer: unknown): ServiceFeatures {
  const parsed = featuresSchema.safeParse(answer);
  if (!parsed.success) return {};
  return parsed.data.changeFeed === undefined ? {} : { changeFeed: parsed.data.changeFeed };
}

/**
 * Follows the stream until the service ends it (resolves), the signal aborts (resolves) or it fails
 * (rejects with an ApiError: CHANGE_CURSOR_UNKNOWN for a cursor the service refused, NETWORK or
 * TIMEOUT for a dropped or silent connection).
 */
export async function followChanges(context: ClientContext, tokens: TokenProvider, request: FollowChangesRequest): Promise<void> {
  const url = urlFor(context.server, request.path);
  if (request.cursor !== undefined) url.searchParams.set('cursor', request.cursor);
  const open = async (token: string) => {
    try {
      return await exchange(context, { method: 'GET', url, headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' }, responseMs: context.timeouts.responseMs, signal: request.signal });
    } catch (error) {
      throw transportError(error, 'GET', url);
    }
  };
  let token = await tokens.accessToken(context.server);
  let response = await open(token);
  if (response.status === 401) {
    response.stream.resume();
    token = await tokens.refreshed(token, context.server);
    response = await open(token);
  }
  if (response.status !== 200) {
    const retryAfter = response.headers['retry-after'];
    throw apiErrorFromResponse({ method: 'GET', url, status: response.status, retryAfter, bodyText: await readText(response.stream), now: context.clock.now() });
  }
  await readChangeStream(response.stream, url, request);
}

/**
 * Reads one connection's server-sent events until the stream ends (resolves), the signal aborts
 * (resolves) or it fails (rejects with an ApiError). Apart from opening the connection so that a
 * transport of another kind (the simulation's in-process one) reads its stream the same way.
 */
export async function readChangeStream(stream: Readable, url: URL, request: Pick<FollowChangesRequest, 'signal' | 'onEvent'>): Promise<void> {
  stream.setEncoding('utf8');
  let buffer = '';
  try {
    for await (const chunk of stream) {
      buffer += String(chunk);
      for (let end = blockEnd(buffer); end !== undefined; end = blockEnd(buffer)) {
        const block = buffer.slice(0, end.at);
        buffer = buffer.slice(end.at + end.length);
        const event = parseEvent(block, url);
        if (event !== undefined) request.onEvent(event);
      }
      if (buffer.length > MAX_EVENT_CHARS) throw invalidResponse('GET', url, 'an event is longer than 64 KiB');
    }
  } catch (error) {
    if (request.signal.aborted) return;
    if (error instanceof ApiError) throw error;
    throw transportError(error, 'GET', url);
  } finally {
    stream.destroy();
  }
}

function blockEnd(buffer: string): { at: number; length: number } | undefined {
  const match = /\r?\n\r?\n/.exec(buffer);
  return match === null ? undefined : { at: match.index, length: match[0].length };
}

/** One event block (the standard's fields; comments and unknown events skipped). */
function parseEvent(block: string, url: URL): ChangeFeedEvent | undefined {
  let name = 'message';
  const data: string[] = [];
  for (const line of block.split(/\r?\n/)) {
    if (line === '' || line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'event') name = value;
    else if (field === 'data') data.push(value);
  }
  if (name !== 'ready' && name !== 'change') return undefined;
  let json: unknown;
  try {
    json = JSON.parse(data.join('\n'));
  } catch (error) {
    throw invalidResponse('GET', url, `a ${name} event's data is not JSON`, error);
  }
  const parsed = eventData.safeParse(json);
  if (!parsed.success) throw invalidResponse('GET', url, `a ${name} event has no cursor`);
  return { type: name, cursor: parsed.data.cursor, kinds: parsed.data.kinds ?? [] };
}
