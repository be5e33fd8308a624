/**
 * Whether the service can be reached, for the app's one calm "Offline" line (not one error per file).
 * The API client's ConnectivityMonitor (src/main/api/connectivity-monitor.ts) is the one mechanism, for
 * the CLI, the headless app and the desktop app alike: every request tells it whether it got through,
 * it holds the state and the schedule of tries (2, 5, 10, 20, then every 30 s), and it says when the
 * state changes. An app can sit idle for hours, though, with no request to notice that the service came
 * back; so while the service counts as unreachable, this makes one light request through the same
 * client at each scheduled try (and at once when the user asks: sync now, retry). The request's answer
 * goes to the monitor like any other; this only keeps asking and says the state in the bridge's words.
 */
import type { Connectivity } from '../../shared/sync/connectivity.js';
import type { Clock } from '../local/index.js';

export interface ConnectionStatus {
  online: boolean;
  since: string | null;
  nextTryAt: string | null;
  error: string | null;
}

export interface ServiceReachabilityOptions {
  /** The client's monitor state (ApiClient.connectivity). */
  state(): Connectivity;
  /** Lets the next request through now (ApiClient.retryNow). */
  retryNow(): void;
  /** One light request through the same client; whatever it answers, the monitor hears it. */
  tryOnce(): Promise<unknown>;
  clock: Clock;
}

/** Never two tries closer than this, even when a try left the schedule where it was (a failure that says nothing about reachability). */
const MIN_GAP_MS = 1000;

export class ServiceReachability {
  private cancelTimer: (() => void) | undefined;
  private trying: Promise<void> | undefined;
  private closed = false;

  constructor(private readonly options: ServiceReachabilityOptions) {}

  /** False once closed (the session ended). */
  get open(): boolean {
    return !this.closed;
  }

  status(): ConnectionStatus {
    const state = this.options.state();
    if (state.state === 'reachable') return { online: true, since: null, nextTryAt: null, error: null };
    const iso = (ms: number): string => new Date(ms).toISOString();
    return { online: false, since: iso(state.since), nextTryAt: iso(state.nextTryAt), error: state.detail };
  }

  /** The monitor's state changed (ApiClientOptions.onConnectivity): keep trying while unreachable. */
  changed(): void {
    this.schedule();
  }

  /** Try now instead of at the next scheduled try (sync now, retry); resolves once the try answered. */
  retryNow(): Promise<void> {
    if (this.closed || this.options.state().state === 'reachable') return Promise.resolve();
    this.cancelTimer?.();
    this.cancelTimer = undefined;
    this.options.retryNow();
    return this.tryNow();
  }

  close(): void {
    this.closed = true;
    this.cancelTimer?.();
    this.cancelTimer = undefined;
  }

  private schedule(): void {
    this.cancelTimer?.();
    this.cancelTimer = undefined;
    const state = this.options.state();
    if (this.closed || state.state === 'reachable') return;
    this.cancelTimer = this.options.clock.setTimer(Math.max(MIN_GAP_MS, state.nextTryAt - this.options.clock.now()), () => {
      this.cancelTimer = undefined;
      void this.tryNow();
    });
  }

  private tryNow(): Promise<void> {
    this.trying ??= this.options
      .tryOnce()
      .then(
        () => undefined,
        () => undefined,
      )
      .finally(() => {
        this.trying = undefined;
        // Still unreachable: the failure moved the monitor's next try; wait for that one.
        this.schedule();
      });
    return this.trying;
  }
}
