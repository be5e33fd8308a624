/**
 * Group commit for the engine's hot per-file writes (an upload recorded as synced, a download's landing
 * written ahead of its rename): the writes asked for in one turn of the event loop run in one SQLite
 * transaction, and each caller's promise settles once its write committed. A commit of the state database costs about 60 µs here (the log frames of the
 * pages every commit changes, the locks), the largest single share of the engine's database time when
 * thousands of small files finish side by side (bench/sync-engine.ts).
 *
 * Must never: settle a write before it committed, or let one write's failure undo another's. Should the
 * shared transaction fail, every write of the batch is tried again in a transaction of its own, so a
 * write that cannot succeed fails alone. A write runs inside the transaction: it must not await.
 */
import type { StateDb } from './open-state-db.js';

interface Pending<T> {
  item: T;
  resolve(): void;
  reject(error: unknown): void;
}

export class CommitBatches<T> {
  private pending: Pending<T>[] = [];
  private readonly writeAll: (items: readonly T[]) => void;
  private readonly writeOne: (item: T) => void;

  constructor(db: StateDb, write: (item: T) => void) {
    this.writeOne = db.transaction(write);
    this.writeAll = db.transaction((items: readonly T[]) => {
      for (const item of items) write(item);
    });
  }

  /** Writes `item` in a transaction shared with the other writes asked for in this turn of the event loop. */
  commit(item: T): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.pending.push({ item, resolve, reject });
      // After the callbacks of this turn's I/O: the uploads that finished with them join in.
      if (this.pending.length === 1) setImmediate(() => this.flush());
    });
  }

  private flush(): void {
    const batch = this.pending;
    this.pending = [];
    try {
      this.writeAll(batch.map(({ item }) => item));
    } catch {
      for (const waiter of batch) {
        try {
          this.writeOne(waiter.item);
          waiter.resolve();
        } catch (error) {
          waiter.reject(error);
        }
      }
      return;
    }
    for (const waiter of batch) waiter.resolve();
  }
}
