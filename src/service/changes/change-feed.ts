/**
 * The account change feed [ours] (docs/api.md "Change feed"): cursors over the per-account sequence the
 * migration's triggers keep in `change_marks`, what changed since a cursor, and subscribers woken when
 * their account's sequence moves. A cursor is `<epoch>.<seq>`: the epoch is this installation's, kept
 * in the database, so a cursor survives a restart; one the service cannot vouch for (another
 * installation, a number ahead of the sequence after a restore from backup, garbage) is refused with
 * CHANGE_CURSOR_UNKNOWN, which tells the client to reconcile in full.
 *
 * Must never: say anything about another account (each account has its own sequence, so even the
 * numbers reveal nothing of others), or carry what changed beyond its kind.
 */
import { randomBytes } from 'node:crypto';
import type { Db } from '../db/open-database.js';
import { ServiceError } from '../errors/service-error.js';
import type { Settings } from '../settings/settings-repo.js';

export const CHANGE_KINDS = ['ASSET', 'ASSET_FILE', 'ASSET_DELETED', 'FOLDER'] as const;
export type ChangeKind = (typeof CHANGE_KINDS)[number];

export interface ChangesSince {
  /** The account's sequence number now. */
  seq: number;
  /** The kinds that changed after the asked-for number, in CHANGE_KINDS order. */
  kinds: ChangeKind[];
}

export interface ChangeFeedOptions {
  /** How often the sequence is looked at while someone listens (default 100 ms). */
  checkEveryMs?: number;
}

const isKind = (kind: string): kind is ChangeKind => (CHANGE_KINDS as readonly string[]).includes(kind);

export class ChangeFeed {
  readonly epoch: string;
  private readonly listeners = new Map<string, Set<() => void>>();
  private readonly seen = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  private readonly checkEveryMs: number;
  private readonly marks;
  private readonly latest;

  constructor(db: Db, settings: Settings, options: ChangeFeedOptions = {}) {
    this.epoch = settings.getOrCreate('change_feed_epoch', () => randomBytes(9).toString('base64url'));
    this.checkEveryMs = options.checkEveryMs ?? 100;
    this.marks = db.prepare<[string], { kind: string; seq: number }>('SELECT kind, seq FROM change_marks WHERE account_id = ?');
    this.latest = db.prepare<[string], { seq: number | null }>('SELECT max(seq) AS seq FROM change_marks WHERE account_id = ?');
  }

  /** The account's sequence number now. */
  current(accountId: string): number {
    return this.latest.get(accountId)?.seq ?? 0;
  }

  cursorOf(seq: number): string {
    return `${this.epoch}.${seq}`;
  }

  /** The sequence number a cursor stands for, or CHANGE_CURSOR_UNKNOWN. */
  parse(cursor: string, accountId: string): number {
    const match = /^([A-Za-z0-9_-]+)\.(0|[1-9][0-9]{0,15})$/.exec(cursor);
    const unknown = (why: string): ServiceError => new ServiceError('CHANGE_CURSOR_UNKNOWN', `The change cursor ${JSON.stringify(cursor.slice(0, 80))} ${why}; reconcile in full, then follow the feed from a fresh cursor.`);
    if (match === null) throw unknown('is not one this service hands out');
    if (match[1] !== this.epoch) throw unknown('was handed out by another installation of the service');
    const seq = Number(match[2]);
    if (seq > this.current(accountId)) throw unknown('is ahead of this account\'s changes (was the service restored from a backup?)');
    return seq;
  }

  since(accountId: string, seq: number): ChangesSince {
    let now = 0;
    const changed = new Set<ChangeKind>();
    for (const mark of this.marks.all(accountId)) {
      now = Math.max(now, mark.seq);
      if (mark.seq > seq && isKind(mark.kind)) changed.add(mark.kind);
    }
    return { seq: now, kinds: CHANGE_KINDS.filter((kind) => changed.has(kind)) };
  }

  /** Calls `listener` whenever the account's sequence moves (not for the moves before it subscribed). */
  subscribe(accountId: string, listener: () => void): () => void {
    let set = this.listeners.get(accountId);
    if (set === undefined) {
      set = new Set();
      this.listeners.set(accountId, set);
      this.seen.set(accountId, this.current(accountId));
    }
    set.add(listener);
    this.timer ??= setInterval(() => this.check(), this.checkEveryMs).unref();
    return () => {
      set.delete(listener);
      if (set.size === 0) {
        this.listeners.delete(accountId);
        this.seen.delete(accountId);
      }
      if (this.listeners.size === 0) this.stopTimer();
    };
  }

  /** Looks at the sequence of every account someone listens to; wakes those whose moved. */
  check(): void {
    for (const [accountId, set] of this.listeners) {
      const now = this.current(accountId);
      if (now === this.seen.get(accountId)) continue;
      this.seen.set(accountId, now);
      for (const listener of [...set]) listener();
    }
  }

  close(): void {
    this.stopTimer();
    this.listeners.clear();
    this.seen.clear();
  }

  private stopTimer(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }
}
