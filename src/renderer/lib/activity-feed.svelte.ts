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

  private async loadPage(): Promise<void> {
    this.loadingPage = true;
    const last = this.entries.at(-1);
    try {
      const page = await this.bridge.listActivity(last === undefined ? { limit: pageSize } : { before: last.id, limit: pageSize });
      if (this.stopped) return;
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
      this.error = toBridgeError(error);
      this.status = 'error';
    } finally {
      this.loadingPage = false;
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
    const fresh: ActivityEntry[] = [];
    for (const entry of this.pending) {
      const index = this.indexById.get(entry.id);
      if (index !== undefined) this.entries[index] = entry;
      else fresh.push(entry);
    }
    this.pending = [];
    if (fresh.length > 0) {
      fresh.sort((a, b) => b.id - a.id);
      const unique = fresh.filter((entry, index) => index === 0 || fresh[index - 1]?.id !== entry.id);
      this.entries = [...unique, ...this.entries];
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
