/**
 * Follows the service's change feed for the engine [ours] (docs/api.md "Change feed"): discovers it in
 * the service's metadata (never configured), keeps one connection for the whole account however many
 * roots sync with it, and tells the roots' remote feeds what to fetch. A dropped connection reconnects
 * after a capped, jittered backoff with its last cursor, so the service says what changed meanwhile and
 * nothing is missed; while it is down the roots poll as they would without a feed. A cursor the
 * service refuses (CHANGE_CURSOR_UNKNOWN: restored from a backup, another installation) makes every
 * root list in full before the feed is followed again from a fresh cursor. A service without the feed
 * (the hosted one) is polled, and asked again now and then whether it has one.
 *
 * Must never: treat the feed as the only truth (the periodic full listing stays), or retry without
 * a pause (a refusing or flapping service must not be hammered).
 */
import type { AssetApi } from '../api/index.js';
import { isApiError } from '../api/index.js';
import type { ChangeFeedEvent } from '../../shared/api/change-feed.js';
import type { Clock } from '../local/index.js';

export interface ChangeListenerDeps {
  api: Pick<AssetApi, 'serviceFeatures' | 'followChanges'>;
  clock: Clock;
  /** [0, 1), for jitter (default Math.random). */
  random?: () => number;
  /** The feed is followed (true) or not (false): while it is not, the roots poll. */
  following(followed: boolean): void;
  /** These kinds changed since the last event. */
  changed(kinds: readonly string[]): void;
  /** The service refused the cursor: list every root in full. */
  reset(): void;
  log?: (level: 'info' | 'warn', message: string) => void;
  options?: ChangeListenerOptions;
}

export interface ChangeListenerOptions {
  /** First pause after a failed connection, doubled per failure in a row (default 1 s). */
  backoffMs?: number;
  /** Default 60 s. */
  maxBackoffMs?: number;
  /** How often a service without the feed is asked again (default 30 min). */
  rediscoverMs?: number;
}

/** What a fresh connection (no cursor) may have missed before it was established: anything but a deletion. */
const CATCH_UP_KINDS = ['ASSET', 'ASSET_FILE', 'FOLDER'] as const;

export class ChangeListener {
  private cursor: string | undefined;
  private followed = false;
  private failures = 0;
  private outageReported = false;
  private readonly options: Required<ChangeListenerOptions>;

  constructor(private readonly deps: ChangeListenerDeps) {
    this.options = {
      backoffMs: deps.options?.backoffMs ?? 1000,
      maxBackoffMs: deps.options?.maxBackoffMs ?? 60_000,
      rediscoverMs: deps.options?.rediscoverMs ?? 30 * 60_000,
    };
  }

  /** Runs until the signal aborts; never rejects. */
  async run(signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      let path: string | undefined;
      try {
        path = (await this.deps.api.serviceFeatures()).changeFeed?.path;
      } catch (error) {
        this.failures++;
        this.outage(`Could not ask the service whether it has a change feed; polling meanwhile: ${messageOf(error)}`);
        await this.pause(this.backoff(), signal);
        continue;
      }
      if (path === undefined) {
        this.failures = 0;
        await this.pause(this.options.rediscoverMs, signal);
        continue;
      }
      this.log('info', 'Following the service\'s change feed.');
      await this.follow(path, signal);
    }
    this.setFollowed(false);
  }

  /** Connection after connection until the feed goes away or the signal aborts. */
  private async follow(path: string, signal: AbortSignal): Promise<void> {
    const aborted = (): boolean => signal.aborted;
    while (!aborted()) {
      const connection = { established: false };
      try {
        await this.deps.api.followChanges({
          path,
          cursor: this.cursor,
          signal,
          onEvent: (event) => {
            connection.established = true;
            this.onEvent(event);
          },
        });
        // The service ended the stream (it does every few minutes): come back at once, a little spread.
        if (!connection.established) this.failures++;
      } catch (error) {
        if (aborted()) break;
        this.setFollowed(false);
        if (isApiError(error, 'CHANGE_CURSOR_UNKNOWN')) {
          this.log('warn', 'The service no longer knows where this client was in its change feed; listing every folder in full.');
          this.cursor = undefined;
          this.deps.reset();
        } else if (isApiError(error) && (error.status === 404 || error.status === 405)) {
          this.log('warn', 'The service stopped offering its change feed; polling.');
          return;
        } else {
          this.failures++;
          this.outage(`The change feed's connection dropped; polling until it is back: ${messageOf(error)}`);
        }
      }
      this.setFollowed(false);
      if (aborted()) break;
      await this.pause(this.failures === 0 ? this.jitter(1000) : this.backoff(), signal);
    }
  }

  private onEvent(event: ChangeFeedEvent): void {
    const fresh = this.cursor === undefined;
    this.cursor = event.cursor;
    this.failures = 0;
    if (this.outageReported) {
      this.outageReported = false;
      this.log('info', 'Following the service\'s change feed again.');
    }
    if (event.type === 'ready') {
      this.setFollowed(true);
      // Without a cursor the stream starts now: what changed between the last look and now is unsaid.
      if (fresh) this.deps.changed(CATCH_UP_KINDS);
      return;
    }
    if (event.kinds.length > 0) this.deps.changed(event.kinds);
  }

  private setFollowed(followed: boolean): void {
    if (this.followed === followed) return;
    this.followed = followed;
    this.deps.following(followed);
  }

  private backoff(): number {
    const delay = Math.min(this.options.maxBackoffMs, this.options.backoffMs * 2 ** Math.max(0, this.failures - 1));
    return delay / 2 + this.jitter(delay / 2);
  }

  private jitter(ms: number): number {
    return (this.deps.random ?? Math.random)() * ms;
  }

  /**
   * Waits on a timer, not on the clock's sleep: the listener runs beside the passes, and where time
   * moves only when told to (the simulation, in which a sleep is what moves it) its pauses must wait
   * for time to move rather than move it themselves. Ends early when the signal aborts (the loop ends).
   */
  private pause(ms: number, signal: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      if (signal.aborted) {
        resolve();
        return;
      }
      const done = (): void => {
        signal.removeEventListener('abort', done);
        cancel();
        resolve();
      };
      const cancel = this.deps.clock.setTimer(ms, done);
      signal.addEventListener('abort', done, { once: true });
    });
  }

  /**
   * Says once per outage that the feed is gone, not at every reconnection attempt: while the service
   * is down the attempts go on for minutes, and the connectivity line already says so.
   */
  private outage(message: string): void {
    if (this.outageReported) return;
    this.outageReported = true;
    this.log('warn', message);
  }

  private log(level: 'info' | 'warn', message: string): void {
    this.deps.log?.(level, message);
  }
}

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));
