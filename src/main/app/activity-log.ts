/**
 * The app's recent activity: newest first for the window, capped (100,000 entries by default) so a
 * long session cannot grow without bound. Kept across restarts in the state database of the session
 * now (`attach`): the newest `keepCap` (10,000) entries, written a batch at a time at most every
 * `keepMs` and when the session ends (never a commit per file); a running entry is written when it
 * starts and when it ends, not for each step of its progress. A crash loses at most the last `keepMs`. An entry still running when the app
 * stopped comes back as failed: it did not finish. Ids grow by one per entry, so an entry is found
 * by arithmetic and a page `before` an id is a slice. A running entry's byte progress is passed on to
 * listeners at most once per `progressMs` per entry (the last one always lands with done or failed).
 */
import type { ActivityEntry, ActivityKind } from '../../shared/bridge/app-events.js';
import type { BridgeErrorData } from '../../shared/bridge/app-state.js';
import type { CancelTimer } from '../local/index.js';
import type { EngineStore } from '../store/state-store.js';

/** Where the log keeps its entries across restarts: the state store of the session now. */
export type ActivityKeeper = Pick<EngineStore, 'recentActivity' | 'keepActivity'>;

export const ACTIVITY_CAP = 100_000;
export const ACTIVITY_PAGE_MAX = 5_000;
export const ACTIVITY_KEEP_CAP = 10_000;

export interface ActivityLogOptions {
  now: () => number;
  cap?: number;
  /** Least time between two progress notices of one running entry (default 250 ms). */
  progressMs?: number;
  /** How many entries the state database keeps (default 10,000). */
  keepCap?: number;
  /** Most time a changed entry waits before it is written to the state database (default 1 s). */
  keepMs?: number;
  /** Runs `callback` once after `ms` (the app's clock). */
  setTimer?: (ms: number, callback: () => void) => CancelTimer;
  /** Writing to the state database failed: the entries stay in memory and are tried again with the next batch. */
  onKeepError?: (error: unknown) => void;
  onChange: (entry: ActivityEntry) => void;
}

export interface NewActivity {
  folderId: string;
  relPath: string;
  kind: ActivityKind;
  status: ActivityEntry['status'];
  /** Where the file was before (a move, a conflict copy's original name). */
  from?: string;
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
  private keeper: ActivityKeeper | undefined;
  /** Entries new or changed since the last write to the keeper, by id (latest wins). */
  private unkept = new Map<number, ActivityEntry>();
  private keepTimer: CancelTimer | undefined;

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
      from: input.from ?? null,
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
    this.toKeep(entry);
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
    this.toKeep(entry);
    this.options.onChange({ ...entry });
  }

  /**
   * Keeps the log in this state store from now on, and shows what it kept: the entries before are
   * replaced by the store's (those of another session were written to its own store on `detach`).
   */
  attach(keeper: ActivityKeeper): void {
    this.detach();
    this.keeper = keeper;
    const kept = keeper.recentActivity(this.options.keepCap ?? ACTIVITY_KEEP_CAP);
    // Ids are consecutive: the newest run without a gap (a lost batch leaves one) is what is listed.
    let run = 0;
    while (run < kept.length && (run === 0 || kept[run]?.id === (kept[run - 1]?.id ?? 0) - 1)) run++;
    const entries = kept.slice(0, run).reverse();
    for (const entry of entries) {
      if (entry.status !== 'running') continue;
      entry.status = 'failed';
      entry.error = { name: 'SyncError', code: 'TRANSFER_INTERRUPTED', message: 'The app stopped before this finished; it is tried again.' };
      this.toKeep(entry);
    }
    this.lastNotice.clear();
    this.entries = entries;
    const first = entries[0];
    if (first !== undefined) {
      this.firstId = first.id;
      this.nextId = first.id + entries.length;
    } else this.firstId = this.nextId;
  }

  /** Writes what changed to the state store and stops keeping there (the session ends). */
  detach(): void {
    this.flush();
    this.keeper = undefined;
    // What could not be written belongs to that store: it never goes into the next session's.
    this.unkept = new Map();
  }

  /** Writes the entries new or changed since the last write, in one transaction. */
  flush(): void {
    this.keepTimer?.();
    this.keepTimer = undefined;
    const keeper = this.keeper;
    if (keeper === undefined || this.unkept.size === 0) return;
    const batch = this.unkept;
    this.unkept = new Map();
    try {
      keeper.keepActivity([...batch.values()], this.options.keepCap ?? ACTIVITY_KEEP_CAP);
    } catch (error) {
      // Tried again with the next batch; an entry changed since keeps its newer state.
      for (const [id, entry] of batch) if (!this.unkept.has(id)) this.unkept.set(id, entry);
      this.options.onKeepError?.(error);
    }
  }

  private toKeep(entry: ActivityEntry): void {
    if (this.keeper === undefined) return;
    this.unkept.set(entry.id, { ...entry });
    const setTimer = this.options.setTimer;
    if (setTimer === undefined || this.keepTimer !== undefined) return;
    this.keepTimer = setTimer(this.options.keepMs ?? 1000, () => {
      this.keepTimer = undefined;
      this.flush();
    });
  }

  /** Newest first, strictly older than `before` when given, at most `limit` (≤ 5,000). */
  list(query: { before?: number; limit: number }): ActivityEntry[] {
    const limit = Math.max(0, Math.min(ACTIVITY_PAGE_MAX, Math.floor(query.limit)));
    const end = query.before === undefined ? this.entries.length : Math.max(0, Math.min(this.entries.length, query.before - this.firstId));
    const start = Math.max(0, end - limit);
    return this.entries.slice(start, end).reverse().map((entry) => ({ ...entry }));
  }
}
