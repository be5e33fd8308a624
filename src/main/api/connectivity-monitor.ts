/**
 * Connectivity of the API client as one condition instead of a failure per request: every attempt
 * tells the monitor whether it reached the service (any HTTP answer does) or could not get there (a
 * refused or unroutable connection, an unknown host, a connect timeout). The first such failure makes
 * the service *unreachable*: listeners hear it once, and from then on every request waits for the next
 * try (after 2, 5, 10, 20, then every 30 s) instead of each retrying on its own schedule, so an outage costs a
 * few refused connections per interval, not one per file and per poll. (A single pass, `sync --once`,
 * asks requests to fail at once instead, so it ends in seconds rather than waiting out the schedule.) The first answer makes it
 * *reachable* again, heard once. A failure that may have reached the service (a reset mid-request, a
 * response timeout) says nothing about reachability and changes nothing.
 */
import type { Connectivity } from '../../shared/sync/connectivity.js';
import { ApiError } from './api-error.js';
import type { ClientClock } from './client-clock.js';

export const RETRY_SCHEDULE_MS: readonly number[] = [2_000, 5_000, 10_000, 20_000, 30_000];

export type ConnectivityListener = (connectivity: Connectivity) => void;

/** A failure that shows the request never got to the service. */
export function isUnreachable(error: ApiError): boolean {
  return error.status === undefined && (error.code === 'NETWORK' || error.code === 'TIMEOUT') && !error.maybeApplied;
}

export class ConnectivityMonitor {
  private current: Connectivity;
  private failures = 0;
  private readonly listeners = new Set<ConnectivityListener>();

  constructor(
    private readonly server: string,
    private readonly clock: ClientClock,
    private readonly schedule: readonly number[] = RETRY_SCHEDULE_MS,
  ) {
    this.current = { state: 'reachable', server };
  }

  get state(): Connectivity {
    return this.current;
  }

  /** Hears every change of state; answers a function that stops it. */
  listen(listener: ConnectivityListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * While the service is unreachable: waits for the next try (rejects when `signal` aborts), or with
   * `fail` (one pass, `sync --once`) fails at once until then with NETWORK, not retryable, never sent.
   */
  async ready(signal?: AbortSignal, mode: 'wait' | 'fail' = 'wait'): Promise<void> {
    const current = this.current;
    if (current.state !== 'unreachable') return;
    const wait = current.nextTryAt - this.clock.now();
    if (wait <= 0) return;
    if (mode === 'fail') throw new ApiError({ code: current.code, retryable: false, maybeApplied: false, message: current.detail });
    await this.clock.sleep(wait, signal);
  }

  /**
   * Lets the next request through now instead of at the scheduled try: the caller knows better (the
   * app's own probe saw the service answer, or the user asked to sync now). The state stays
   * unreachable until a request gets an answer.
   */
  retryNow(): void {
    if (this.current.state === 'unreachable') this.current = { ...this.current, nextTryAt: this.clock.now() };
  }

  /** An attempt got an HTTP answer. */
  reached(): void {
    this.failures = 0;
    if (this.current.state === 'reachable') return;
    this.change({ state: 'reachable', server: this.server });
  }

  /** An attempt failed; only a failure that never got to the service counts. */
  failed(error: ApiError): void {
    if (!isUnreachable(error)) return;
    const now = this.clock.now();
    // Requests that waited for the same try fail together: one step of the schedule per try.
    if (this.current.state === 'unreachable' && now < this.current.nextTryAt) return;
    const delay = this.schedule[Math.min(this.failures, this.schedule.length - 1)] ?? 30_000;
    this.failures++;
    const since = this.current.state === 'unreachable' ? this.current.since : now;
    const next: Connectivity = { state: 'unreachable', server: this.server, since, nextTryAt: now + delay, code: error.code, detail: error.message };
    if (this.current.state === 'unreachable') this.current = next;
    else this.change(next);
  }

  private change(next: Connectivity): void {
    this.current = next;
    for (const listener of this.listeners) listener(next);
  }
}
