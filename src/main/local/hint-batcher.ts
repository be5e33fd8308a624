/**
 * Collects watcher hints into batches: waits until events pause for `debounceMs`, but never holds a
 * hint longer than `maxDelayMs` (a long copy emits events without pause). Duplicates and paths inside
 * another hinted directory are merged; past `maxPaths` distinct paths the batch becomes '' (rescan the
 * whole root), which bounds memory when a million events arrive. One timer, re-armed only on firing.
 */
import type { CancelTimer, Clock } from './clock.js';
import { outermostPaths } from './rel-path.js';

export interface HintBatchOptions {
  /** Quiet time that ends a batch (default 200 ms). */
  debounceMs?: number;
  /** Longest a hint waits (default 1000 ms). */
  maxDelayMs?: number;
  /** Distinct paths before the batch collapses to the whole root (default 10,000). */
  maxPaths?: number;
}

export class HintBatcher {
  private readonly debounceMs: number;
  private readonly maxDelayMs: number;
  private readonly maxPaths: number;
  private paths = new Set<string>();
  private firstAt = 0;
  private lastAt = 0;
  private cancelTimer: CancelTimer | undefined;
  private closed = false;
  /** When the last event arrived (clock ms), delivered or not; undefined before the first. */
  lastEventAt: number | undefined;

  constructor(
    private readonly clock: Clock,
    private readonly deliver: (relPaths: string[]) => void,
    options: HintBatchOptions = {},
  ) {
    this.debounceMs = options.debounceMs ?? 200;
    this.maxDelayMs = Math.max(options.maxDelayMs ?? 1000, this.debounceMs);
    this.maxPaths = options.maxPaths ?? 10_000;
  }

  add(relPath: string): void {
    if (this.closed) return;
    const now = this.clock.now();
    this.lastAt = now;
    this.lastEventAt = now;
    if (this.paths.size === 0) this.firstAt = now;
    if (!this.paths.has('')) {
      this.paths.add(relPath);
      if (this.paths.size > this.maxPaths) this.paths = new Set(['']);
    }
    this.cancelTimer ??= this.clock.setTimer(this.debounceMs, this.onTimer);
  }

  /** Delivers what is pending now. */
  flush(): void {
    this.cancelTimer?.();
    this.cancelTimer = undefined;
    if (this.paths.size === 0 || this.closed) return;
    const batch = outermostPaths(this.paths);
    this.paths = new Set();
    this.deliver(batch);
  }

  /** Drops what is pending; nothing is delivered after this. */
  close(): void {
    this.cancelTimer?.();
    this.cancelTimer = undefined;
    this.paths = new Set();
    this.closed = true;
  }

  private readonly onTimer = (): void => {
    this.cancelTimer = undefined;
    const now = this.clock.now();
    const due = Math.min(this.lastAt + this.debounceMs, this.firstAt + this.maxDelayMs);
    if (now >= due) this.flush();
    else this.cancelTimer = this.clock.setTimer(due - now, this.onTimer);
  };
}
