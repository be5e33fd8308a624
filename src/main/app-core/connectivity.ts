/**
 * Whether the service can be reached, for the one calm "Offline" line (not one error per file). The
 * engine keeps taking local files while offline; this only watches the service: after a pass that could
 * not reach it, a probe (any HTTP answer means reachable) confirms, then tries again with backoff
 * (1 s, 2 s, 4 s … 60 s) and at once when asked (sync now). Back online, `onOnline` lets the
 * controller catch up with a full pass.
 */
import type { Clock } from '../local/index.js';

export type Probe = () => Promise<boolean>;

export interface ConnectivityOptions {
  probe: Probe;
  clock: Clock;
  onChange: () => void;
  onOnline: () => void;
  minDelayMs?: number;
  maxDelayMs?: number;
}

export interface ConnectionStatus {
  online: boolean;
  since: string | null;
  nextTryAt: string | null;
  error: string | null;
}

/** A probe by plain HTTP: any answer (even 404 or 401) means the service is there. */
export function httpProbe(server: string, timeoutMs = 5000): Probe {
  return async () => {
    try {
      const response = await fetch(server, { method: 'HEAD', signal: AbortSignal.timeout(timeoutMs) });
      await response.body?.cancel();
      return true;
    } catch {
      return false;
    }
  };
}

export class Connectivity {
  private online = true;
  private since: number | null = null;
  private nextTryAt: number | null = null;
  private error: string | null = null;
  private delay: number;
  private cancelTimer: (() => void) | undefined;
  private probing: Promise<void> | undefined;
  private closed = false;

  constructor(private readonly options: ConnectivityOptions) {
    this.delay = options.minDelayMs ?? 1000;
  }

  status(): ConnectionStatus {
    const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());
    return { online: this.online, since: iso(this.since), nextTryAt: iso(this.nextTryAt), error: this.error };
  }

  /** A pass failed to reach the service (or a transfer failed): find out whether we are offline. */
  suspect(reason: string): void {
    if (!this.online) return;
    void this.check(reason);
  }

  /** Try again now (sync now, the network came back). */
  retryNow(): Promise<void> {
    if (this.online) return Promise.resolve();
    this.cancelTimer?.();
    this.cancelTimer = undefined;
    return this.check(this.error ?? 'unreachable');
  }

  close(): void {
    this.closed = true;
    this.cancelTimer?.();
  }

  private check(reason: string): Promise<void> {
    this.probing ??= this.options
      .probe()
      .then((reachable) => this.answer(reachable, reason))
      .finally(() => {
        this.probing = undefined;
      });
    return this.probing;
  }

  private answer(reachable: boolean, reason: string): void {
    if (this.closed) return;
    const now = this.options.clock.now();
    if (reachable) {
      const wasOffline = !this.online;
      this.online = true;
      this.since = null;
      this.nextTryAt = null;
      this.error = null;
      this.delay = this.options.minDelayMs ?? 1000;
      if (wasOffline) {
        this.options.onChange();
        this.options.onOnline();
      }
      return;
    }
    if (this.online) {
      this.online = false;
      this.since = now;
      this.error = reason;
    }
    const wait = this.delay;
    this.delay = Math.min(this.options.maxDelayMs ?? 60_000, this.delay * 2);
    this.nextTryAt = now + wait;
    this.cancelTimer?.();
    this.cancelTimer = this.options.clock.setTimer(wait, () => {
      this.cancelTimer = undefined;
      void this.check(reason);
    });
    this.options.onChange();
  }
}
