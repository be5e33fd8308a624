/**
 * The simulation's virtual clock, shared by the engine, the API client and the service: time moves
 * only when someone sleeps. A sleep first lets the service finish what it runs in the background (its
 * batch jobs), then jumps time forward and resolves, so a job poll sees the same state on every run of
 * a seed whatever the real machine's speed. Timers (setTimer) fire when time passes their due time.
 */
import type { CancelTimer, Clock } from '../src/main/local/clock.js';

interface PendingTimer {
  due: number;
  seq: number;
  callback: () => void;
}

export class SimClock implements Clock {
  private time: number;
  private seq = 0;
  private timers: PendingTimer[] = [];
  /** Awaited before time moves (the service's job runner going idle). */
  quiesce: () => Promise<void> = async () => undefined;

  constructor(private readonly start = Date.UTC(2026, 0, 1)) {
    this.time = start;
  }

  /** Back to the start with no timer pending: the next seed on a reused service starts where the last did. */
  reset(): void {
    this.time = this.start;
    this.seq = 0;
    this.timers = [];
  }

  now(): number {
    return this.time;
  }

  setTimer(ms: number, callback: () => void): CancelTimer {
    const timer: PendingTimer = { due: this.time + Math.max(0, ms), seq: this.seq++, callback };
    this.timers.push(timer);
    return () => {
      this.timers = this.timers.filter((pending) => pending !== timer);
    };
  }

  async sleep(ms: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted === true) throw signal.reason instanceof Error ? signal.reason : new Error('aborted');
    await this.quiesce();
    this.advance(Math.max(1, ms));
  }

  /** Moves time forward, firing due timers in order. */
  advance(ms: number): void {
    const target = this.time + ms;
    for (;;) {
      const due = this.timers.filter((timer) => timer.due <= target).sort((a, b) => a.due - b.due || a.seq - b.seq)[0];
      if (due === undefined) break;
      this.timers = this.timers.filter((timer) => timer !== due);
      this.time = Math.max(this.time, due.due);
      due.callback();
    }
    this.time = target;
  }
}
