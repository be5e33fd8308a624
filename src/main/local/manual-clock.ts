/**
 * The Clock twin: time stands still until `advance` moves it, firing due timers in order (by due time,
 * then by creation). Deterministic, so the simulation replays the same trace for the same seed.
 */
import type { CancelTimer, Clock } from './clock.js';

interface PendingTimer {
  due: number;
  seq: number;
  callback: () => void;
}

export class ManualClock implements Clock {
  private time: number;
  private seq = 0;
  private timers: PendingTimer[] = [];

  constructor(private readonly start = Date.UTC(2026, 0, 1)) {
    this.time = start;
  }

  /** Back to the start with no timer pending (the simulation reuses one clock across seeds). */
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

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      const aborted = (): Error => (signal?.reason instanceof Error ? signal.reason : new Error('aborted'));
      if (signal?.aborted === true) {
        reject(aborted());
        return;
      }
      const onAbort = (): void => {
        cancel();
        reject(aborted());
      };
      const cancel = this.setTimer(ms, () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      });
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** Moves time forward by `ms`, running every timer that falls due on the way (also ones they set). */
  advance(ms: number): void {
    const target = this.time + ms;
    for (;;) {
      const next = this.nextTimer();
      if (next === undefined || next.due > target) break;
      this.timers = this.timers.filter((pending) => pending !== next);
      this.time = next.due;
      next.callback();
    }
    this.time = target;
  }

  /** Moves time forward by `ms` in steps, letting promise callbacks run between timers. */
  async advanceAsync(ms: number, step = ms): Promise<void> {
    for (let moved = 0; moved < ms; moved += step) {
      this.advance(Math.min(step, ms - moved));
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  /** How many timers are waiting. */
  get pendingTimers(): number {
    return this.timers.length;
  }

  private nextTimer(): PendingTimer | undefined {
    let best: PendingTimer | undefined;
    for (const timer of this.timers) {
      if (best === undefined || timer.due < best.due || (timer.due === best.due && timer.seq < best.seq)) best = timer;
    }
    return best;
  }
}
