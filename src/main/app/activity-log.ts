/**
 * The app's recent activity, in memory: newest first for the window, capped (100,000 entries by
 * default) so a long session cannot grow without bound. Ids grow by one per entry, so an entry is found
 * by arithmetic and a page `before` an id is a slice. A running entry's byte progress is passed on to
 * listeners at most once per `progressMs` per entry (the last one always lands with done or failed).
 */
import type { ActivityEntry, ActivityKind } from '../../shared/bridge/app-events.js';
import type { BridgeErrorData } from '../../shared/bridge/app-state.js';

export const ACTIVITY_CAP = 100_000;
export const ACTIVITY_PAGE_MAX = 5_000;

export interface ActivityLogOptions {
  now: () => number;
  cap?: number;
  /** Least time between two progress notices of one running entry (default 250 ms). */
  progressMs?: number;
  onChange: (entry: ActivityEntry) => void;
}

export interface NewActivity {
  folderId: string;
  relPath: string;
  kind: ActivityKind;
  status: ActivityEntry['status'];
  bytesTotal?: number | null;
  bytesDone?: number;
  error?: BridgeErrorData | null;
}

export class ActivityLog {
  /** Oldest first; `entries[i].id === firstId + i`. */
  private entries: ActivityEntry[] = [];
  private firstId = 1;
  private nextId = 1;
  private readonly cap: number;
  private readonly progressMs: number;
  private readonly lastNotice = new Map<number, number>();

  constructor(private readonly options: ActivityLogOptions) {
    this.cap = options.cap ?? ACTIVITY_CAP;
    this.progressMs = options.progressMs ?? 250;
  }

  get size(): number {
    return this.entries.length;
  }

  add(input: NewActivity): ActivityEntry {
    const entry: ActivityEntry = {
      id: this.nextId++,
      folderId: input.folderId,
      relPath: input.relPath,
      kind: input.kind,
      status: input.status,
      bytesDone: input.bytesDone ?? 0,
      bytesTotal: input.bytesTotal ?? null,
      at: new Date(this.options.now()).toISOString(),
      error: input.error ?? null,
    };
    this.entries.push(entry);
    // Trim in chunks: one splice per thousand entries rather than one shift per entry.
    if (this.entries.length > this.cap + 1000 || (this.entries.length > this.cap && this.cap < 1000)) {
      const drop = this.entries.length - this.cap;
      for (const gone of this.entries.slice(0, drop)) this.lastNotice.delete(gone.id);
      this.entries.splice(0, drop);
      this.firstId += drop;
    }
    this.options.onChange(entry);
    return entry;
  }

  get(id: number): ActivityEntry | undefined {
    return id >= this.firstId ? this.entries[id - this.firstId] : undefined;
  }

  /** Adds bytes to a running entry; listeners hear of it at most every `progressMs`. */
  progress(id: number, bytes: number): void {
    const entry = this.get(id);
    if (entry?.status !== 'running') return;
    entry.bytesDone += bytes;
    if (entry.bytesTotal !== null && entry.bytesDone > entry.bytesTotal) entry.bytesTotal = entry.bytesDone;
    const now = this.options.now();
    entry.at = new Date(now).toISOString();
    const last = this.lastNotice.get(id) ?? -Infinity;
    if (now - last < this.progressMs) return;
    this.lastNotice.set(id, now);
    this.options.onChange({ ...entry });
  }

  /** Ends a running entry as done or failed. */
  finish(id: number, outcome: { status: 'done' } | { status: 'failed'; error: BridgeErrorData }): void {
    const entry = this.get(id);
    if (entry === undefined) return;
    entry.status = outcome.status;
    if (outcome.status === 'failed') entry.error = outcome.error;
    else if (entry.bytesTotal !== null) entry.bytesDone = entry.bytesTotal;
    entry.at = new Date(this.options.now()).toISOString();
    this.lastNotice.delete(id);
    this.options.onChange({ ...entry });
  }

  /** Newest first, strictly older than `before` when given, at most `limit` (≤ 5,000). */
  list(query: { before?: number; limit: number }): ActivityEntry[] {
    const limit = Math.max(0, Math.min(ACTIVITY_PAGE_MAX, Math.floor(query.limit)));
    const end = query.before === undefined ? this.entries.length : Math.max(0, Math.min(this.entries.length, query.before - this.firstId));
    const start = Math.max(0, end - limit);
    return this.entries.slice(start, end).reverse().map((entry) => ({ ...entry }));
  }
}
