/**
 * The change feed's routes [ours] (docs/api.md "Change feed"): `GET /change-events`, a server-sent
 * event stream of one account's changes, and `GET /.well-known/asset-sync`, the service metadata that
 * advertises it so a client discovers the feed instead of being configured for it (a service without
 * the document, such as the hosted one, is polled).
 *
 * A stream says only that something of a kind changed and where to resume (a cursor), never what, and
 * only for the caller's own account (a folder-limited member learns only that something of a kind changed;
 * what they read next is limited by groups/folder-scope.ts), and the membership (or staff status) and the
 * token's generation are checked again before each event, so a member removed from the account, or
 * whose token a security change revoked, learns nothing more. A stream ends when the token expires, or
 * after 15 minutes, whichever is first; the client reconnects with its cursor and misses nothing.
 * A change is pushed as soon as it is committed (the feed hears of it from the store, change-feed.ts);
 * the keep-alives and the end run on the service's timers, a virtual clock's in the simulation.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { decodeJwt, type JWTPayload } from 'jose';
import { z } from 'zod';
import type { ServiceContext } from '../context.js';
import { caller } from '../http/request-auth.js';
import { generationIn } from '../auth/access-tokens.js';
import { isRetired } from '../auth/session-members.js';
import { parseInput } from '../http/parse-input.js';
import type { ChangeKind, ServiceFeatures } from '../../shared/api/change-feed.js';
import type { ChangeFeed } from './change-feed.js';
import { systemTimers, type Timers } from '../clock.js';

export const CHANGE_EVENTS_PATH = '/change-events';

export interface ChangeRouteOptions {
  /** Between keep-alive comments on an idle stream (default 20 s; clients time out after 60 s of silence). */
  heartbeatMs?: number;
  /** Longest life of one stream (default 15 min). */
  maxStreamMs?: number;
  /** Where the keep-alives and the stream's end are scheduled (default: real timers). */
  timers?: Timers;
}

// Strict: a stream opened on a mistyped query would wait silently instead of saying what is wrong.
const query = z.object({ cursor: z.string().min(1).max(200).optional() }).strict();

/** One server-sent event, `data` as one JSON line. */
const event = (name: string, id: string, data: unknown): string => `event: ${name}\nid: ${id}\ndata: ${JSON.stringify(data)}\n\n`;

export function registerChangeRoutes(app: FastifyInstance, ctx: ServiceContext, feed: ChangeFeed, options: ChangeRouteOptions = {}): void {
  const heartbeatMs = options.heartbeatMs ?? 20_000;
  const maxStreamMs = options.maxStreamMs ?? 15 * 60_000;
  const timers = options.timers ?? systemTimers;

  const features: ServiceFeatures = { changeFeed: { path: CHANGE_EVENTS_PATH, protocol: 'server-sent-events', heartbeatSeconds: Math.round(heartbeatMs / 1000) } };
  app.get('/.well-known/asset-sync', { config: { public: true } }, async () => features);

  app.get(CHANGE_EVENTS_PATH, async (request, reply) => {
    const who = caller(request);
    const { cursor } = parseInput(query, request.query, 'INVALID_QUERY');
    // The standard resume header of an EventSource, else the query; checked before the stream starts,
    // so an unknown cursor is an ordinary error answer (410 CHANGE_CURSOR_UNKNOWN).
    const asked = lastEventId(request) ?? cursor;
    let position = asked === undefined ? feed.head(who.accountId) : feed.parse(asked, who.accountId);

    reply.hijack();
    const raw = reply.raw;
    raw.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', 'x-accel-buffering': 'no' });
    // HEAD gets the stream's headers only: Node sends nothing of a HEAD answer until it ends, so a
    // stream kept open here would hold the request (and a feed subscription) with nothing ever sent.
    if (request.method === 'HEAD') {
      raw.end();
      return;
    }
    const ready = feed.cursorOf(position);
    raw.write(`retry: 2000\n${event('ready', ready, { cursor: ready })}`);

    let ended = false;
    const end = (): void => {
      if (ended) return;
      ended = true;
      unsubscribe();
      cancelHeartbeat();
      cancelExpiry();
      raw.end();
    };
    const send = (): void => {
      if (ended) return;
      const member = ctx.sessions.byAccount(who.accountId, who.userId);
      if (member === undefined || isRetired(generation, member.generation)) {
        end();
        return;
      }
      const changes = feed.since(who.accountId, position.seq);
      if (changes.head.seq <= position.seq) return;
      position = changes.head;
      const kinds: ChangeKind[] = changes.kinds;
      const cursor = feed.cursorOf(position);
      raw.write(event('change', cursor, { cursor, kinds }));
    };
    const generation = generationIn(tokenClaims(request).gen);
    const unsubscribe = feed.subscribe(who.accountId, send);
    let cancelHeartbeat = (): void => undefined;
    const heartbeat = (): void => {
      cancelHeartbeat = timers.setTimer(heartbeatMs, () => {
        raw.write(': keep-alive\n\n');
        heartbeat();
      });
    };
    heartbeat();
    const cancelExpiry = timers.setTimer(Math.max(0, Math.min(maxStreamMs, tokenLifeLeft(tokenClaims(request), ctx.clock.now()))), end);
    raw.once('close', end);
    // What changed between the cursor and the subscription.
    send();
  });
}

function lastEventId(request: FastifyRequest): string | undefined {
  const header = request.headers['last-event-id'];
  return typeof header === 'string' && header.trim() !== '' ? header.trim() : undefined;
}

/** The claims of the (already verified) bearer token. */
function tokenClaims(request: FastifyRequest): JWTPayload {
  const credential = request.headers.authorization?.trim().split(/\s+/, 2)[1];
  return credential === undefined ? { exp: 0 } : decodeJwt(credential);
}

/** Milliseconds until the token expires. */
function tokenLifeLeft({ exp }: JWTPayload, now: number): number {
  return exp === undefined ? Infinity : exp * 1000 - now;
}
