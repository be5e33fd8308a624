/**
 * Group commit for the hot write paths (recording a part, completing an upload): the writes asked for in
 * one turn of the event loop run in one SQLite transaction, each in its own savepoint, and each caller's
 * promise settles once that transaction has committed. In WAL mode a commit appends every page it
 * changed to the log; writes that land side by side share the pages they have in common (the last page
 * of a table, the tail of an index sorted by date, the database header), so two completions committed
 * together write about a third fewer pages than two commits, and there is one commit's fixed cost
 * (locks, log header, page-cache upkeep) instead of two.
 *
 * Must never: settle a write before its transaction committed, or let one write's failure undo
 * another's (a write that throws rolls back its own savepoint and rejects alone; a failed commit
 * rejects them all). A write must not await: it runs inside the transaction, synchronously.
 */
import type { Db } from './open-database.js';

interface Pending {
  write: () => unknown;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

export class WriteBatches {
  private pending: Pending[] = [];

  constructor(private readonly db: Db) {}

  /** Runs `write` in a transaction shared with the other writes asked for in this turn of the event loop. */
  run<T>(write: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.pending.push({ write, resolve, reject });
      // After the callbacks of this turn's I/O: the writes that became ready with them join in.
      if (this.pending.length === 1) setImmediate(() => this.flush());
    });
  }

  private flush(): void {
    const batch = this.pending;
    this.pending = [];
    const outcomes: Outcome[] = [];
    try {
      this.db.transaction(() => {
        // One write alone needs no savepoint: if it throws, the whole transaction is its own.
        if (batch.length === 1) {
          outcomes.push({ ok: true, value: batch[0]?.write() });
          return;
        }
        for (const { write } of batch) {
          try {
            outcomes.push({ ok: true, value: this.db.transaction(write)() });
          } catch (error) {
            outcomes.push({ ok: false, error });
          }
        }
      })();
    } catch (error) {
      for (const waiter of batch) waiter.reject(error);
      return;
    }
    batch.forEach((waiter, index) => {
      const outcome = outcomes[index];
      if (outcome?.ok === true) waiter.resolve(outcome.value);
      else waiter.reject(outcome?.error);
    });
  }
}
