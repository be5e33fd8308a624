/**
 * The service's change feed in the simulation. A client that follows it runs the engine's own
 * ChangeListener (the watch session's, `startWatching(…, { followFeed: true })`); its two calls,
 * discovery (`GET /.well-known/asset-sync`) and a connection to `GET /change-events`, go to the real
 * service in-process (direct-request.ts, direct-stream.ts), behind a fault layer of the feed's own,
 * and the stream is read by the engine's own reader (readChangeStream: SSE parsing, its errors).
 *
 * A connection stays open while virtual time passes, as over a socket: it carries what the service
 * writes as it opens (the `ready` event and, when the client's cursor is behind, one `change` event
 * with every kind since), then each change the service pushes the moment another request (a
 * colleague's, another client's, this client's own) commits it, and the keep-alives, until the
 * service ends it after 15 minutes (its timers run on the virtual clock). The listener then reconnects
 * with its cursor after its own pause, a timer on the virtual clock too, so connections open and end
 * as time moves and never move it. The trace says of each change event whether it came as the
 * connection opened (`at connect`) or was pushed over an open one (`pushed`).
 *
 * Faults, drawn from the client's feed stream while its faults are on: the connection refused (the
 * service gone), dropped mid-stream (reset at a moment drawn within a minute of virtual time), a 503,
 * and the service restored from a backup older than the client's cursor (the cursor names a change
 * the service's history does not hold: the real service answers 410 CHANGE_CURSOR_UNKNOWN, and the
 * engine lists every root in full). A restore drawn for a fresh connection, which has no cursor yet,
 * happens while it is open: it drops like a reset, and the reconnection's cursor is refused. A client
 * whose process died hears nothing more.
 */
import type { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { ApiError, apiErrorFromResponse } from '../src/main/api/api-error.js';
import type { AssetApi, FollowChangesRequest } from '../src/main/api/index.js';
import { parseServiceFeatures, readChangeStream } from '../src/main/api/change-events.js';
import type { ServiceFeatures } from '../src/shared/api/change-feed.js';
import { SimCrash, type Faults } from './faults.js';
import type { Prng } from './prng.js';
import type { SimClock } from './sim-clock.js';
import { SIM_SERVER } from './sim-api.js';
import { directRequest } from './direct-request.js';
import { directStream } from './direct-stream.js';

export type FeedFault = 'refused' | 'dropped' | 'http-503' | 'restored';
const FEED_FAULTS: readonly FeedFault[] = ['refused', 'dropped', 'http-503', 'restored'];
/** Chance that a feed call meets a fault while the client's faults are on. */
export const FEED_FAULT_RATE = 0.25;
const FEATURES_PATH = '/.well-known/asset-sync';
/** How far past the restored history the client's cursor points. */
const RESTORED_GAP = 1000;
/** A dropped connection is reset within this much virtual time of opening. */
const DROP_WITHIN_MS = 60_000;

export interface SimFeedDeps {
  app: FastifyInstance;
  token: string;
  clock: SimClock;
  /** The client's faults: feed faults only while they are on; nothing once the process is dead. */
  faults: Faults;
  /** The feed's own stream (its faults and the listener's jitter), so the other draws stay as they were. */
  random: Prng;
  trace: (line: string) => void;
}

export class SimFeed {
  /** The service was restored from a backup while a connection was open: the next connection's cursor is past its history. */
  private restoredUnder = false;

  constructor(private readonly deps: SimFeedDeps) {}

  /** The listener's jitter, from the seed. */
  readonly jitter = (): number => this.deps.random.next();

  /** The engine's API with discovery and the feed going to the service through this layer. */
  api(api: AssetApi): AssetApi {
    return { ...api, serviceFeatures: () => this.features(), followChanges: (request) => this.follow(request) };
  }

  private async features(): Promise<ServiceFeatures> {
    const fault = this.draw(`GET ${FEATURES_PATH}`, ['refused', 'http-503']);
    const url = new URL(FEATURES_PATH, SIM_SERVER);
    this.refuse(fault, url);
    const response = await directRequest(this.deps.app, 'GET', FEATURES_PATH, {});
    if (response.status !== 200) throw this.answerError(url, response.status, response.headers['retry-after'], response.body.toString('utf8'));
    const answer: unknown = JSON.parse(response.body.toString('utf8'));
    return parseServiceFeatures(answer);
  }

  private async follow(request: FollowChangesRequest): Promise<void> {
    const fault = this.draw(`GET ${request.path}`, FEED_FAULTS);
    const url = new URL(request.path, SIM_SERVER);
    this.refuse(fault, url);
    // Restored before this connection: its cursor is past the history. A fresh connection (no cursor
    // yet) has none to refuse: the restore happens while it is open, and the next one meets it.
    const restored = (fault === 'restored' || this.restoredUnder) && request.cursor !== undefined;
    this.restoredUnder = fault === 'restored' && !restored;
    const cursor = restored && request.cursor !== undefined ? beyondHistory(request.cursor) : request.cursor;
    if (cursor !== undefined) url.searchParams.set('cursor', cursor);
    // Where each change event came from, in the order the service wrote them: the reader sees them in that order.
    const origins: ('at connect' | 'pushed')[] = [];
    let opened = false;
    const connection = await directStream(this.deps.app, 'GET', `${url.pathname}${url.search}`, { authorization: `Bearer ${this.deps.token}`, accept: 'text/event-stream' }, (chunk) => {
      for (const _ of chunk.toString('utf8').matchAll(/^event: change$/gm)) origins.push(opened ? 'pushed' : 'at connect');
    });
    // What the route wrote as it opened (`ready`, what the cursor missed) is in the body already.
    opened = true;
    if (connection.status !== 200) throw this.answerError(url, connection.status, connection.headers['retry-after'], await textOf(connection.body));
    const hangUp = (): void => void connection.body.destroy();
    // The listener may have stopped while the connection opened: an abort already signalled never fires.
    if (request.signal.aborted) hangUp();
    else request.signal.addEventListener('abort', hangUp, { once: true });
    const cancelDrop = fault === 'dropped' || this.restoredUnder ? this.deps.clock.setTimer(this.deps.random.next() * DROP_WITHIN_MS, () => connection.drop(Object.assign(new Error('read ECONNRESET (simulated)'), { code: 'ECONNRESET' }))) : () => undefined;
    const onEvent: FollowChangesRequest['onEvent'] = (event) => {
      const origin = event.type === 'change' ? origins.shift() : undefined;
      // A process that died hears nothing more; its connection goes when its engine closes.
      if (this.deps.faults.crashed) return;
      if (event.type === 'change') this.deps.trace(`feed: ${event.kinds.join(',')} changed (${origin ?? 'unknown'})`);
      request.onEvent(event);
    };
    try {
      await readChangeStream(connection.body, url, { signal: request.signal, onEvent });
      if (!request.signal.aborted && !this.deps.faults.crashed) this.deps.trace('feed: the service ended the stream');
    } finally {
      cancelDrop();
      request.signal.removeEventListener('abort', hangUp);
    }
  }

  /** The feed's fault for this call, if any; a dead process calls nothing. */
  private draw(label: string, kinds: readonly FeedFault[]): FeedFault | undefined {
    if (this.deps.faults.crashed) throw new SimCrash(`crashed earlier; ${label}`);
    if (!this.deps.faults.active || !this.deps.random.chance(FEED_FAULT_RATE)) return undefined;
    const fault = this.deps.random.pick(kinds);
    this.deps.trace(`feed fault ${fault} on ${label}`);
    return fault;
  }

  /** Throws what a refused connection or a 503 looks like to the engine. */
  private refuse(fault: FeedFault | undefined, url: URL): void {
    if (fault === 'refused') throw new ApiError({ code: 'NETWORK', message: `GET ${url.pathname}: connect ECONNREFUSED (simulated)`, retryable: true });
    if (fault === 'http-503') throw this.answerError(url, 503, '3', JSON.stringify({ code: 'SERVICE_UNAVAILABLE', message: 'simulated 503' }));
  }

  private answerError(url: URL, status: number, retryAfter: string | number | string[] | undefined, bodyText: string): ApiError {
    return apiErrorFromResponse({ method: 'GET', url, status, retryAfter: retryAfter === undefined ? undefined : String(retryAfter), bodyText, now: this.deps.clock.now() });
  }
}

/** The engine's API, with the feed's calls through `feed` when the client follows it. */
export function withFeed(feed: SimFeed | undefined, api: AssetApi): AssetApi {
  return feed === undefined ? api : feed.api(api);
}

/**
 * The cursor as a client holds it after the service was restored from an older backup: it names a
 * change past the history the service has (the cursor is `<epoch>.<seq>.<stamp>`, change-feed.ts).
 */
function beyondHistory(cursor: string): string {
  const [epoch, seq, stamp] = cursor.split('.');
  if (epoch === undefined || seq === undefined || stamp === undefined) return cursor;
  return `${epoch}.${String(Number(seq) + RESTORED_GAP)}.${stamp}`;
}

async function textOf(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
  return Buffer.concat(chunks).toString('utf8');
}
