/**
 * The HTTP transport's link: its event stream open is `up`; dropped or unanswered (the browser retries
 * by itself) is `down`; closed by an answer that refuses this page's session is `refused`, and the
 * stream is reopened until the app lets the page in again. The EventSource and fetch are fakes.
 */
import { describe, expect, it } from 'vitest';
import type { AppLink, LinkState } from './app-link.js';
import { createHttpBridge } from './http-bridge.js';

/** The link's next change. */
function nextChange(link: AppLink): Promise<LinkState> {
  return new Promise((resolve) => {
    const stop = link.subscribe((state) => {
      stop();
      resolve(state);
    });
  });
}

/** An EventSource the test drives: it opens, drops and closes when told. */
class FakeSource {
  static readonly made: FakeSource[] = [];
  private static waiting: ((source: FakeSource) => void)[] = [];
  readonly CONNECTING = 0;
  readonly OPEN = 1;
  readonly CLOSED = 2;
  readyState = 0;
  onopen: (() => void) | null = null;
  onmessage: ((message: MessageEvent<string>) => void) | null = null;
  onerror: (() => void) | null = null;

  constructor(readonly url: string) {
    FakeSource.made.push(this);
    for (const resolve of FakeSource.waiting.splice(0)) resolve(this);
  }

  /** The next stream the transport opens. */
  static next(): Promise<FakeSource> {
    return new Promise((resolve) => FakeSource.waiting.push(resolve));
  }

  opens(): void {
    this.readyState = this.OPEN;
    this.onopen?.();
  }

  /** The stream dropped or the app did not answer: the browser will retry. */
  drops(): void {
    this.readyState = this.CONNECTING;
    this.onerror?.();
  }

  /** An answer that was not a stream: the browser gave up. */
  refused(): void {
    this.readyState = this.CLOSED;
    this.onerror?.();
  }

  close(): void {
    this.readyState = this.CLOSED;
  }
}

function transport(answer: () => Response) {
  FakeSource.made.length = 0;
  const seen: LinkState[] = [];
  const { bridge, link } = createHttpBridge(
    { origin: 'http://127.0.0.1:7470' },
    { EventSource: FakeSource as unknown as typeof EventSource, fetch: async () => answer(), reconnectMs: 0 },
  );
  link.subscribe((state) => seen.push(state));
  const unsubscribe = bridge.subscribe(() => undefined);
  return { link, seen, unsubscribe, latest: () => FakeSource.made.at(-1)! };
}

describe('the HTTP link', () => {
  it('goes down when the stream drops and up when it opens again', () => {
    const { link, seen, latest, unsubscribe } = transport(() => new Response('{}'));
    latest().opens();
    expect(link.current()).toBe('up');
    latest().drops();
    expect(link.current()).toBe('down');
    latest().opens();
    expect(seen).toEqual(['down', 'up']);
    unsubscribe();
  });

  it('says refused when the app answers that this page is not signed in, and comes up once it is', async () => {
    const { link, latest, unsubscribe } = transport(() => new Response(JSON.stringify({ error: { name: 'BridgeError', code: 'NOT_AUTHORISED', message: 'Open the address.' } }), { status: 401 }));
    latest().opens();
    const change = nextChange(link);
    const reopened = FakeSource.next();
    latest().refused();
    expect(await change).toBe('refused');
    // Signed in again (the printed address opened in another tab): the reopened stream is let in.
    (await reopened).opens();
    expect(link.current()).toBe('up');
    unsubscribe();
  });

  it('says down, not refused, when something else answers at the address', async () => {
    const { link, latest, unsubscribe } = transport(() => new Response('<html>another program</html>', { status: 404 }));
    latest().opens();
    const change = nextChange(link);
    latest().refused();
    expect(await change).toBe('down');
    unsubscribe();
  });
});
