/**
 * The activity list's data: up to hundreds of thousands of entries, newest first, kept in a plain
 * array (not a deep $state proxy, which would cost per entry) with one reactive `version` that the
 * virtual list reads. Live `activity` events replace entries by id or add new ones on top; a burst of
 * events costs one re-render per frame. Older pages load as the user scrolls near the end.
 */
import type { AppBridge } from '../../shared/bridge/app-bridge.js';
import type { ActivityEntry } from '../../shared/bridge/app-events.js';
import { toBridgeError } from '../../shared/bridge/bridge-error.js';
import type { BridgeErrorData } from '../../shared/bridge/app-state.js';
import { foldActivity } from './fold-activity.js';

const pageSize = 2000;

export class ActivityFeed {
  /** Bumped (at most once a frame) whenever `entries` changed. */
  version = $state(0);
  status = $state<'idle' | 'loading' | 'ready' | 'error'>('idle');
  error = $state.raw<BridgeErrorData | null>(null);
  /** Whether older entries remain to be loaded. */
  more = $state(true);
  /** How many entries are loaded (reactive, unlike the array behind it). */
  length = $state(0);

  private entries: ActivityEntry[] = [];
  // Plain on purpose: 100,000 entries behind one `version` counter, not a reactive map per entry.
  // eslint-disable-next-line svelte/prefer-svelte-reactivity
  private readonly indexById = new Map<number, number>();
  private pending: ActivityEntry[] = [];
  private frame: number | null = null;
  private loadingPage = false;
  private stopped = false;
  /** Bumped by `reset`: a page asked for before it is dropped. */
  private generation = 0;

  constructor(private readonly bridge: AppBridge) {}

  at(index: number): ActivityEntry | undefined {
    return this.entries[index];
  }

  /** Loads the newest page once; later calls do nothing. */
  async open(): Promise<void> {
    if (this.status !== 'idle' && this.status !== 'error') return;
    this.status = 'loading';
    await this.loadPage();
  }

  /** Loads the next older page, if any and none is loading. */
  async loadMore(): Promise<void> {
    if (!this.more || this.loadingPage || this.status !== 'ready') return;
    await this.loadPage();
  }

  /**
   * The app lists another state's activity now (signed in to another server or account): the entries
   * here are dropped, and an opened list loads the newest page again.
   */
  reset(): void {
    const opened = this.status !== 'idle';
    this.generation += 1;
    this.entries = [];
    this.indexById.clear();
    this.pending = [];
    this.more = true;
    this.loadingPage = false;
    this.status = 'idle';
    this.length = 0;
    this.version += 1;
    if (opened) void this.open();
  }

  private async loadPage(): Promise<void> {
    this.loadingPage = true;
    const last = this.entries.at(-1);
    const generation = this.generation;
    try {
      const page = await this.bridge.listActivity(last === undefined ? { limit: pageSize } : { before: last.id, limit: pageSize });
      if (this.stopped || generation !== this.generation) return;
      for (const entry of page) {
        if (this.indexById.has(entry.id)) continue;
        this.indexById.set(entry.id, this.entries.length);
        this.entries.push(entry);
      }
      this.more = page.length === pageSize;
      this.status = 'ready';
      this.error = null;
      this.length = this.entries.length;
      this.version += 1;
    } catch (error) {
      if (generation !== this.generation) return;
      this.error = toBridgeError(error);
      this.status = 'error';
    } finally {
      if (generation === this.generation) this.loadingPage = false;
    }
  }

  /** A live entry: a new one goes on top, a known one is replaced in place. */
  accept(entry: ActivityEntry): void {
    this.pending.push(entry);
    this.frame ??= requestAnimationFrame(() => {
      this.frame = null;
      this.flush();
    });
  }

  private flush(): void {
    const folded = foldActivity(this.entries, (id) => this.indexById.get(id), this.pending);
    this.pending = [];
    if (folded !== undefined) {
      this.entries = folded;
      this.indexById.clear();
      this.entries.forEach((entry, index) => this.indexById.set(entry.id, index));
    }
    this.length = this.entries.length;
    this.version += 1;
  }

  stop(): void {
    this.stopped = true;
    if (this.frame !== null) cancelAnimationFrame(this.frame);
  }
}
