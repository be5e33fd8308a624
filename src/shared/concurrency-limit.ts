/**
 * A counting semaphore: at most `limit` tasks run at once, the rest wait in order. The engine uses one
 * for files in flight and one for upload jobs, so a thousand small files and one huge file share the
 * connection pool fairly; `asset-sync download` one for its fetches; the service one for all its sharp
 * renders (transform-cache.ts).
 */
export class ConcurrencyLimit {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`concurrency limit must be a positive integer, got ${limit}`);
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    // A finished task hands its slot to the next waiter (running unchanged), so a task arriving between
    // the wake-up and the waiter resuming cannot take the slot too and run one over the limit.
    if (this.running < this.limit) this.running++;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      if (next === undefined) this.running--;
      else next();
    }
  }
}
