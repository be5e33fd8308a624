/**
 * Watching: a watcher on every root feeding its hints to the root's pass, the service's change feed
 * telling every root when (and what) to fetch, and the loop `Engine.watch` runs on them — a pass, then
 * a wait until a hint arrives or something falls due. Part of the engine's wiring (create-engine.ts).
 * Must never: let a hint that arrives during a pass wait for the next timer, or hear the feed after
 * its session closed.
 */
import type { RootRow } from '../db/roots-repo.js';
import { loadIgnoreRules, type Watcher } from '../local/index.js';
import { ChangeListener } from '../remote/change-listener.js';
import { DEFAULT_POLL_MS, type RemoteFeed } from '../remote/remote-feed.js';
import type { PassReport, RootSync } from '../sync/root-sync.js';
import type { EngineConfig, EngineDeps, EngineEvent, WatchOptions, WatchSession } from './engine-types.js';

/** What the watch sessions need of the engine around them. */
export interface WatchContext {
  config: EngineConfig;
  deps: EngineDeps;
  log: (event: EngineEvent) => void;
  roots: () => RootRow[];
  /** The root's pass, built on first use. */
  syncFor: (row: RootRow) => RootSync;
  /** The passes built so far. */
  syncs: () => Iterable<RootSync>;
  /** One pass over every root (the paused ones only looked at). */
  passAll: (onReport?: (report: PassReport) => void) => Promise<PassReport[]>;
  /** Whether the change feed is followed right now (every root's feed, a new one too, waits for it then). */
  feedFollowed: (followed: boolean) => void;
  /** Each watched root's watcher, while a watch session runs. */
  watching: Map<string, Watcher>;
}

export class WatchSessions {
  /** The change feeds of the open watch sessions: `stopAll` stops them before the database goes. */
  private readonly feedStops = new Set<AbortController>();

  constructor(private readonly context: WatchContext) {}

  /**
   * One change feed for every root: it says when (and what) to fetch; without it the roots poll. Runs
   * until the signal aborts; what it hears after that (an answer already under way) is dropped.
   */
  private followFeed(signal: AbortSignal, nudge: () => void): Promise<void> {
    const { deps, roots, syncFor, log } = this.context;
    const feeds = (): RemoteFeed[] => (signal.aborted ? [] : roots().map((row) => syncFor(row).remoteFeed));
    return new ChangeListener({
      api: deps.api,
      clock: deps.clock,
      ...(deps.random === undefined ? {} : { random: deps.random }),
      following: (followed) => {
        this.context.feedFollowed(followed);
        for (const feed of feeds()) feed.follow(followed);
        nudge();
      },
      changed: (kinds) => {
        for (const feed of feeds()) feed.changed(kinds);
        nudge();
      },
      reset: () => {
        for (const feed of feeds()) feed.requestFull();
        nudge();
      },
      log: (level, message) => log({ level, message }),
    }).run(signal);
  }

  private unwatch(closing: readonly Watcher[]): void {
    for (const [rootId, watcher] of this.context.watching) if (closing.includes(watcher)) this.context.watching.delete(rootId);
  }

  async start(onHints: () => void, options: WatchOptions = {}): Promise<WatchSession> {
    const { config, deps, roots, syncFor, watching } = this.context;
    const watchers: Watcher[] = [];
    try {
      for (const row of roots()) {
        if (deps.createWatcher === undefined) break;
        const sync = syncFor(row);
        let rules = await loadIgnoreRules(deps.fs, row.path);
        const watcher = deps.createWatcher(row.path, () => rules);
        await watcher.start((hints) => {
          if (hints.includes('.assetsyncignore')) void loadIgnoreRules(deps.fs, row.path).then((fresh) => (rules = fresh), () => undefined);
          // The root's pass as it is now: a remap builds it again.
          syncFor(row).hint(hints);
          onHints();
        });
        watchers.push(watcher);
        watching.set(row.id, watcher);
        // What changed between an earlier pass's scan and this watcher's start was seen by neither:
        // look at the whole root once (a root's first pass scans it whole anyway).
        sync.hint(['']);
      }
    } catch (error) {
      this.unwatch(watchers);
      await Promise.all(watchers.map((watcher) => watcher.close()));
      throw error;
    }
    const feedStop = new AbortController();
    this.feedStops.add(feedStop);
    const listening = options.followFeed === true ? this.followFeed(feedStop.signal, onHints) : undefined;
    return {
      pass: (onReport) => this.context.passAll(onReport),
      nextWakeAt: () =>
        Math.min(
          ...[...this.context.syncs()].map((sync) => Math.min(sync.nextCheckAt() ?? Infinity, sync.remoteFeed.nextDueAt(), sync.nextFullScanAt() ?? Infinity)),
          // At least every poll interval even while the change feed makes polls unneeded: a resting
          // pass asks the service nothing, and it is how another process's writes to the state
          // database (`confirm-deletes`) are noticed.
          deps.clock.now() + Math.min(60_000, config.remote?.pollIntervalMs ?? DEFAULT_POLL_MS),
        ),
      close: async () => {
        feedStop.abort();
        this.feedStops.delete(feedStop);
        this.unwatch(watchers);
        await Promise.all([...watchers.map((watcher) => watcher.close()), listening]);
      },
    };
  }

  /** Stops the change feed of every open session (the engine closes). */
  stopAll(): void {
    for (const stop of this.feedStops) stop.abort();
  }

  /** Watches every root and syncs on changes until the signal aborts (`Engine.watch`). */
  async watch(signal: AbortSignal, onReport?: (report: PassReport) => void, options: WatchOptions = {}): Promise<void> {
    const { clock } = this.context.deps;
    let wake: (() => void) | undefined;
    // A hint that arrives while a pass runs must not wait for the next timer.
    let dirty = false;
    const nudge = (): void => {
      dirty = true;
      wake?.();
    };
    const takeDirty = (): boolean => {
      const was = dirty;
      dirty = false;
      return was;
    };
    const stopped = (): boolean => signal.aborted;
    const session = await this.start(nudge, { followFeed: options.followFeed !== false });
    try {
      signal.addEventListener('abort', nudge, { once: true });
      while (!stopped()) {
        takeDirty();
        await session.pass(onReport);
        if (stopped() || takeDirty()) continue;
        const next = session.nextWakeAt();
        await new Promise<void>((resolveWait) => {
          const cancel = clock.setTimer(Math.max(0, next - clock.now()), () => resolveWait());
          wake = () => {
            cancel();
            resolveWait();
          };
        });
        wake = undefined;
      }
    } finally {
      await session.close();
    }
  }
}
