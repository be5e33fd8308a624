/**
 * fsync of directories, with group commit per directory: while a sync of a directory is in flight,
 * every request for the same directory waits for the one sync that starts after it ends, so N adopts
 * landing in one directory at once cost about two syncs, not N.
 *
 * Must never: answer a request with a sync that may have started before the request did — that sync
 * may not cover the entry the caller has just made. Waiting for the next one is what makes sharing sound.
 *
 * `syncNow` is the blocking form, for start-up work that runs before anything else does (the blob
 * store's layout check): nothing to share there. It goes through this class too so that tests see
 * every directory sync in one place.
 */
import { closeSync, fsyncSync, openSync } from 'node:fs';
import { syncAll, withDescriptor } from '../io/descriptor-calls.js';
import { ioMeter } from '../io/io-meter.js';

export type SyncDirectory = (dir: string) => Promise<void>;
export type SyncDirectoryNow = (dir: string) => void;

interface Waiter {
  resolve(): void;
  reject(error: unknown): void;
}

export class DirectorySyncs {
  /** Directories with a sync in flight, with the requests that arrived since it started. */
  private readonly inFlight = new Map<string, Waiter[]>();

  constructor(
    private readonly syncDirectory: SyncDirectory = fsyncDirectory,
    private readonly syncDirectoryNow: SyncDirectoryNow = fsyncDirectorySync,
  ) {}

  /** Syncs `dir` before returning, blocking the event loop: only for start-up, before anything runs. */
  syncNow(dir: string): void {
    this.syncDirectoryNow(dir);
  }

  /** Resolves once a sync of `dir` that started after this call has completed. */
  sync(dir: string): Promise<void> {
    return new Promise((resolve, reject) => {
      const waiting = this.inFlight.get(dir);
      if (waiting === undefined) this.start(dir, [{ resolve, reject }]);
      else waiting.push({ resolve, reject });
    });
  }

  private start(dir: string, batch: Waiter[]): void {
    this.inFlight.set(dir, []);
    const settle = (outcome: (waiter: Waiter) => void): void => {
      for (const waiter of batch) outcome(waiter);
      const next = this.inFlight.get(dir) ?? [];
      if (next.length === 0) this.inFlight.delete(dir);
      else this.start(dir, next);
    };
    this.syncDirectory(dir).then(
      () => {
        settle((waiter) => {
          waiter.resolve();
        });
      },
      (error: unknown) => {
        settle((waiter) => {
          waiter.reject(error);
        });
      },
    );
  }
}

/** open + fsync + close of a directory, on the thread pool. */
export function fsyncDirectory(dir: string): Promise<void> {
  return withDescriptor(dir, 'r', syncAll);
}

/** open + fsync + close of a directory, blocking. */
export function fsyncDirectorySync(dir: string): void {
  ioMeter.syncs++;
  const fd = openSync(dir, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
