/**
 * The engine's event path in the simulation. A client in event mode gets a watcher on its
 * MemoryFileSystem whose OS events pass a fault layer first (drawn from the seed): dropped,
 * duplicated (once more, in a later batch), reordered (held back until after the next batch) and
 * coalesced (reported as the parent folder, as FSEvents does). Its syncs are the passes of the
 * engine's own watch session (`Engine.startWatching`): only hinted paths, the ones the stability gate
 * wants to see again and, when due, the periodic whole-root scan are looked at, never a forced full
 * scan, so an event the fault layer ate is found by the engine's own backstop or not at all.
 * Faults stop with the scenario; what they lost before is the backstop's to find in the settle phase.
 */
import { dirname } from 'node:path';
import type { Engine, WatchSession } from '../src/main/engine/index.js';
import { HintBatcher } from '../src/main/local/hint-batcher.js';
import type { MemoryFileSystem } from '../src/main/local/memory-file-system.js';
import { hintFor, type Watcher, type WatcherOptions } from '../src/main/local/watcher.js';
import type { IgnoreRules } from '../src/main/local/index.js';
import type { PassReport } from '../src/main/sync/root-sync.js';
import type { Prng } from './prng.js';
import type { SimClock } from './sim-clock.js';

export type WatchFault = 'drop' | 'duplicate' | 'reorder' | 'coalesce';
const WATCH_FAULTS: readonly WatchFault[] = ['drop', 'duplicate', 'reorder', 'coalesce'];

/** Chance that an OS event meets a fault while faults are on. */
export const WATCH_FAULT_RATE = 0.2;
/** Long enough for the watcher's batches (200 ms debounce, 1 s at most) to reach the engine. */
const HINT_WAIT_MS = 1_500;

/** A Watcher over a MemoryFileSystem's change notifications, with the fault layer before its batching. */
export class FaultyWatcher implements Watcher {
  private batcher: HintBatcher | undefined;
  private unsubscribe: (() => void) | undefined;
  /** Events held back (reordered, or the second copy of a duplicate): they join the batch after the next. */
  private held: string[] = [];

  constructor(
    private readonly disk: MemoryFileSystem,
    private readonly options: WatcherOptions,
    private readonly faults: WatchFaults,
  ) {}

  async start(onHints: (relPaths: string[]) => void): Promise<void> {
    this.batcher = new HintBatcher(this.options.clock, (batch) => {
      onHints(batch);
      const late = this.held;
      this.held = [];
      for (const path of late) this.forward(path);
    });
    this.unsubscribe = this.disk.onChange((path) => this.event(path));
  }

  lastEventAt(): number | undefined {
    return this.batcher?.lastEventAt;
  }

  async close(): Promise<void> {
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    this.batcher?.close();
  }

  private event(absolutePath: string): void {
    if (toRel(this.options.root, absolutePath) === undefined) return;
    switch (this.faults.draw(absolutePath, this.options.root)) {
      case undefined:
        this.forward(absolutePath);
        return;
      case 'drop':
        return;
      case 'duplicate':
        this.forward(absolutePath);
        this.held.push(absolutePath);
        return;
      case 'reorder':
        this.held.push(absolutePath);
        return;
      case 'coalesce':
        this.forward(dirname(absolutePath));
        return;
    }
  }

  private forward(absolutePath: string): void {
    const relPath = hintFor(this.options.root, absolutePath, false, this.options.rules());
    if (relPath !== undefined) this.batcher?.add(relPath);
  }
}

function toRel(root: string, absolutePath: string): string | undefined {
  if (absolutePath === root) return '';
  return absolutePath.startsWith(`${root}/`) ? absolutePath.slice(root.length + 1) : undefined;
}

/** The seed's draws for one client's watcher events, written to the trace. */
export class WatchFaults {
  /** On through the scenario, off for the settle phase. */
  active = true;

  constructor(
    private readonly random: Prng,
    private readonly trace: (line: string) => void,
  ) {}

  draw(absolutePath: string, root: string): WatchFault | undefined {
    if (!this.active || !this.random.chance(WATCH_FAULT_RATE)) return undefined;
    const fault = this.random.pick(WATCH_FAULTS);
    // The engine's own temp files are noise in a trace; their names hold ids the service drew, too.
    if (!absolutePath.includes('/.asset-sync/')) this.trace(`event ${fault}: ${toRel(root, absolutePath) ?? absolutePath}`);
    return fault;
  }
}

/**
 * One client in event mode: the watcher factory its engines are built with, and its syncs as passes
 * of the engine's watch session (opened on the engine's first sync, again after a restart).
 */
export class EventDriven {
  readonly faults: WatchFaults;
  /** Its watch sessions follow the service's change feed too (feed-follow.ts). */
  followFeed = false;
  private session: { engine: Engine; watching: WatchSession } | undefined;

  constructor(
    private readonly disk: MemoryFileSystem,
    private readonly clock: SimClock,
    random: Prng,
    trace: (line: string) => void,
  ) {
    this.faults = new WatchFaults(random, trace);
  }

  readonly createWatcher = (root: string, rules: () => IgnoreRules): Watcher => new FaultyWatcher(this.disk, { root, rules, clock: this.clock }, this.faults);

  /**
   * What `watch` does between two waits, up to `maxPasses` times: let the watcher's batches arrive,
   * pass, and again while the pass did something or files are settling (like `syncOnce`, but without
   * its forced whole scans and listings).
   */
  async sync(engine: Engine, maxPasses: number): Promise<PassReport[]> {
    if (this.session?.engine !== engine) {
      await this.close();
      this.session = { engine, watching: await engine.startWatching(() => undefined, { followFeed: this.followFeed }) };
    }
    const { watching } = this.session;
    const reports: PassReport[] = [];
    for (let pass = 0; pass < maxPasses; pass++) {
      await this.clock.sleep(HINT_WAIT_MS);
      const round = await watching.pass();
      reports.push(...round);
      if (round.some((report) => report.stopped !== undefined)) break;
      const settling = round.some((report) => report.settling > 0);
      const busy = round.some((report) => report.operations > 0 && report.failed < report.operations);
      if (!settling && !busy) break;
      if (settling && !busy) await this.clock.sleep(Math.max(0, watching.nextWakeAt() - this.clock.now()));
    }
    return reports;
  }

  /** Stops the watcher of the engine last synced (it died, or the seed is over). */
  async close(): Promise<void> {
    const open = this.session;
    this.session = undefined;
    await open?.watching.close();
  }
}
