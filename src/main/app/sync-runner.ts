/**
 * Runs one engine for as long as the app is signed in: `engine.watch` continuously, a full pass
 * (`syncOnce`) first whenever one was asked for (start, sync now, back online, a folder added), and the
 * pauses. A pause stops new transfers at once (the API calls that move bytes wait at a gate: a part
 * or download under way finishes, the next does not start) and no pass runs for a paused folder: it is
 * only looked at on disk, so edits made meanwhile count as waiting. A global pause also leaves the
 * service's change feed alone. Resuming opens the gates and restarts the watch with a full pass.
 * `stop` aborts, fails what waits at the gates, and resolves once the engine's pass (and with it every
 * journal write it started) has ended.
 */
import type { Engine } from '../engine/index.js';
import type { PassReport } from '../sync/root-sync.js';
import type { Clock } from '../local/index.js';
import { AppError } from './app-error.js';

export interface SyncRunnerOptions {
  engine: Engine;
  clock: Clock;
  onReport: (report: PassReport) => void;
  /** The loop failed (the watcher, the database): shown, then tried again after a while. */
  onError: (error: unknown) => void;
  /** A watch or a full pass started (the folders are being looked at). */
  onPassStart?: () => void;
}

interface Waiter {
  resolve: () => void;
  reject: (error: Error) => void;
}

export class SyncRunner {
  private abort: AbortController | undefined;
  private fullPassWanted = true;
  private stopped = false;
  private wake: (() => void) | undefined;
  private done: Promise<void> | undefined;
  private globalPause = false;
  private readonly pausedRoots = new Set<string>();
  private readonly waiters = new Set<Waiter>();
  /** Absolute paths of the roots, for the gates (a transfer's file path tells its root). */
  private rootPaths = new Map<string, string>();
  /** Work that must not overlap a pass (resolving a conflict), and the pass under way. */
  private holds = 0;
  private passing: Promise<void> | undefined;

  constructor(private readonly options: SyncRunnerOptions) {
    this.refreshRoots();
  }

  start(): void {
    this.done ??= this.loop();
  }

  /** Aborts the current watch and runs a full pass before the next one. */
  requestFullPass(): void {
    this.fullPassWanted = true;
    this.abort?.abort();
    this.wake?.();
  }

  /** The roots changed (added, removed): watchers must be set up again. */
  rootsChanged(): void {
    this.refreshRoots();
    this.requestFullPass();
  }

  isRootPaused(rootId: string): boolean {
    return this.globalPause || this.pausedRoots.has(rootId);
  }

  setPaused(rootId: string | undefined, paused: boolean): void {
    if (rootId === undefined) this.globalPause = paused;
    else if (paused) this.pausedRoots.add(rootId);
    else this.pausedRoots.delete(rootId);
    if (paused) {
      this.abort?.abort();
    } else {
      this.releaseGates();
      this.requestFullPass();
    }
  }

  /** Waits while the file at `absPath` belongs to a paused folder (the gate of every byte-moving call). */
  async gate(absPath: string): Promise<void> {
    while (!this.stopped && this.pausedFor(absPath)) {
      await new Promise<void>((resolve, reject) => {
        const waiter: Waiter = {
          resolve: () => {
            this.waiters.delete(waiter);
            resolve();
          },
          reject: (error) => {
            this.waiters.delete(waiter);
            reject(error);
          },
        };
        this.waiters.add(waiter);
      });
    }
    if (this.stopped) throw new AppError('CLOSED', 'The app is closing; this transfer resumes at the next start.');
  }

  /**
   * Runs `work` between passes: the current pass finishes first (unless a pause holds it at a gate,
   * where waiting would never end), no new one starts until `work` is done, and a full pass follows.
   * For changes to the state database and the disk that a pass in flight could trip over.
   */
  async exclusive<T>(work: () => Promise<T>): Promise<T> {
    this.holds++;
    this.abort?.abort();
    try {
      if (this.waiters.size === 0) await this.passing;
      return await work();
    } finally {
      this.holds--;
      if (this.holds === 0) this.requestFullPass();
    }
  }

  /** Stops the loop and resolves once the engine is at rest (no pass, no journal write in flight). */
  async stop(): Promise<void> {
    this.stopped = true;
    this.abort?.abort();
    this.wake?.();
    for (const waiter of [...this.waiters]) waiter.reject(new AppError('CLOSED', 'The app is closing; this transfer resumes at the next start.'));
    await this.done;
  }

  /** Read through a method: `stop` flips it while the loop awaits, which narrowing cannot see. */
  private isStopped(): boolean {
    return this.stopped;
  }

  private pausedFor(absPath: string): boolean {
    if (this.globalPause) return true;
    for (const rootId of this.pausedRoots) {
      const root = this.rootPaths.get(rootId);
      if (root !== undefined && (absPath === root || absPath.startsWith(`${root}/`) || absPath.startsWith(`${root}\\`))) return true;
    }
    return false;
  }

  private releaseGates(): void {
    for (const waiter of [...this.waiters]) waiter.resolve();
  }

  private refreshRoots(): void {
    this.rootPaths = new Map(this.options.engine.roots().map((row) => [row.id, row.path]));
  }

  private async loop(): Promise<void> {
    while (!this.stopped) {
      if (this.holds > 0 || this.options.engine.roots().length === 0) {
        await new Promise<void>((resolve) => (this.wake = resolve));
        this.wake = undefined;
        continue;
      }
      const abort = new AbortController();
      this.abort = abort;
      let passed: () => void = () => undefined;
      this.passing = new Promise<void>((resolve) => (passed = resolve));
      try {
        this.options.onPassStart?.();
        // Everything paused: the disk is watched and looked at, the service is not asked (nor followed).
        const everythingPaused = this.globalPause;
        if (this.fullPassWanted && !everythingPaused) {
          this.fullPassWanted = false;
          await this.options.engine.syncOnce({ maxPasses: 10, onReport: this.options.onReport });
        }
        if (!abort.signal.aborted && !this.isStopped() && this.holds === 0) await this.options.engine.watch(abort.signal, this.options.onReport, { followFeed: !everythingPaused });
        passed();
      } catch (error) {
        passed();
        if (this.isStopped()) break;
        this.options.onError(error);
        // Not a tight loop on a persistent failure: wait a little, or until asked.
        await new Promise<void>((resolve) => {
          const cancel = this.options.clock.setTimer(10_000, resolve);
          this.wake = () => {
            cancel();
            resolve();
          };
        });
        this.wake = undefined;
      }
    }
  }
}
