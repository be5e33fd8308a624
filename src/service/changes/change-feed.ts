/**
 * The account change feed [ours] (docs/api.md "Change feed"): cursors over the per-account log the
 * migration's triggers write (`change_log`), what changed since a cursor, subscribers woken when their
 * account's log grows, and pruning. A cursor is `<epoch>.<seq>.<stamp>`: the epoch is this
 * installation's and the log is in the database, so a cursor survives a restart. One the service
 * cannot vouch for answers CHANGE_CURSOR_UNKNOWN, which tells the client to reconcile in full: another
 * installation's, one older than the entries kept, or one whose entry has another stamp or does not
 * exist (the database was restored from a backup and its history went another way).
 *
 * Must never: say anything about another account (each account has its own sequence, so even the
 * numbers reveal nothing of others), or carry what changed beyond its kind.
 */
import { randomBytes } from 'node:crypto';
import type { Db } from '../db/open-database.js';
import { ServiceError } from '../errors/service-error.js';
import type { Settings } from '../settings/settings-repo.js';
import { CHANGE_KINDS, type ChangeKind } from '../../shared/api/change-feed.js';

/** A point of an account's history: its sequence number and that entry's stamp ('0' before the first). */
export interface FeedPosition {
  seq: number;
  stamp: string;
}

export interface ChangesSince {
  /** The account's latest entry. */
  head: FeedPosition;
  /** The kinds that changed after the asked-for position, in CHANGE_KINDS order. */
  kinds: ChangeKind[];
}

export interface ChangeFeedOptions {
  /** Entries kept per account; an older cursor is too old (default 100,000). */
  keepPerAccount?: number;
}

const START: FeedPosition = { seq: 0, stamp: '0' };
/** The SQL function the feed's temporary trigger calls for each entry written to the change log. */
const LOGGED = 'asset_sync_change_logged';
const isKind = (kind: string): kind is ChangeKind => (CHANGE_KINDS as readonly string[]).includes(kind);

export class ChangeFeed {
  readonly epoch: string;
  private readonly listeners = new Map<string, Set<() => void>>();
  private readonly seen = new Map<string, number>();
  /** Accounts whose log grew in the statement or transaction running now: woken once it is over. */
  private readonly grown = new Set<string>();
  private readonly pruner: NodeJS.Timeout;
  private readonly keepPerAccount: number;
  private readonly statements;

  constructor(
    private readonly db: Db,
    settings: Settings,
    options: ChangeFeedOptions = {},
  ) {
    this.epoch = settings.getOrCreate('change_feed_epoch', () => randomBytes(9).toString('base64url'));
    this.keepPerAccount = options.keepPerAccount ?? 100_000;
    this.statements = {
      head: db.prepare<[string], FeedPosition>('SELECT seq, stamp FROM change_log WHERE account_id = ? ORDER BY seq DESC LIMIT 1'),
      oldest: db.prepare<[string], { seq: number }>('SELECT seq FROM change_log WHERE account_id = ? ORDER BY seq ASC LIMIT 1'),
      entry: db.prepare<[string, number], { stamp: string }>('SELECT stamp FROM change_log WHERE account_id = ? AND seq = ?'),
      kindsAfter: db.prepare<[string, number], { kind: string }>('SELECT DISTINCT kind FROM change_log WHERE account_id = ? AND seq > ?'),
      accounts: db.prepare<[], { id: string }>('SELECT id FROM accounts'),
      prune: db.prepare('DELETE FROM change_log WHERE account_id = ? AND seq <= ?'),
    };
    this.prune();
    this.hearCommits();
    this.pruner = setInterval(() => this.prune(), 3600_000).unref();
  }

  /** The account's latest entry. */
  head(accountId: string): FeedPosition {
    return this.statements.head.get(accountId) ?? START;
  }

  cursorOf(position: FeedPosition): string {
    return `${this.epoch}.${position.seq}.${position.stamp}`;
  }

  /** The position a cursor stands for, or CHANGE_CURSOR_UNKNOWN. */
  parse(cursor: string, accountId: string): FeedPosition {
    const unknown = (why: string): ServiceError =>
      new ServiceError('CHANGE_CURSOR_UNKNOWN', `The change cursor ${JSON.stringify(cursor.slice(0, 80))} ${why}; reconcile in full, then follow the feed from a fresh cursor.`);
    const match = /^([A-Za-z0-9_-]+)\.(0|[1-9][0-9]{0,15})\.([0-9a-f]{1,16})$/.exec(cursor);
    if (match === null) throw unknown('is not one this service hands out');
    if (match[1] !== this.epoch) throw unknown('was handed out by another installation of the service');
    const position = { seq: Number(match[2]), stamp: match[3] ?? '' };
    const oldest = this.statements.oldest.get(accountId)?.seq;
    if (position.seq === 0) {
      if (oldest !== undefined && oldest > 1) throw unknown('is older than the changes this service keeps');
      return START;
    }
    const entry = this.statements.entry.get(accountId, position.seq);
    if (entry === undefined && oldest !== undefined && position.seq < oldest) throw unknown('is older than the changes this service keeps');
    if (entry?.stamp !== position.stamp) throw unknown("names a change this account's history does not hold (was the service restored from a backup?)");
    return position;
  }

  since(accountId: string, seq: number): ChangesSince {
    const changed = new Set(this.statements.kindsAfter.all(accountId, seq).map((row) => row.kind));
    // A kind this version does not know (written by a newer one) would be news it cannot describe: say "deleted", the kind that asks for most.
    const unknownKind = [...changed].some((kind) => !isKind(kind));
    return { head: this.head(accountId), kinds: CHANGE_KINDS.filter((kind) => changed.has(kind) || (unknownKind && kind === 'ASSET_DELETED')) };
  }

  /** Calls `listener` whenever the account's log grows (not for entries before it subscribed). */
  subscribe(accountId: string, listener: () => void): () => void {
    let set = this.listeners.get(accountId);
    if (set === undefined) {
      set = new Set();
      this.listeners.set(accountId, set);
      this.seen.set(accountId, this.head(accountId).seq);
    }
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0) {
        this.listeners.delete(accountId);
        this.seen.delete(accountId);
      }
    };
  }

  /** Looks at the log of these accounts (default: every one someone listens to); wakes those whose log grew. */
  check(accountIds: Iterable<string> = this.listeners.keys()): void {
    for (const accountId of [...accountIds]) {
      const set = this.listeners.get(accountId);
      if (set === undefined) continue;
      const head = this.head(accountId).seq;
      if (head === this.seen.get(accountId)) continue;
      this.seen.set(accountId, head);
      for (const listener of [...set]) listener();
    }
  }

  /** Drops every account's entries beyond the newest `keepPerAccount`. */
  prune(): void {
    this.db.transaction(() => {
      for (const { id } of this.statements.accounts.all()) {
        const head = this.head(id).seq;
        if (head > this.keepPerAccount) this.statements.prune.run(id, head - this.keepPerAccount);
      }
    })();
  }

  close(): void {
    clearInterval(this.pruner);
    this.listeners.clear();
    this.seen.clear();
    this.grown.clear();
    if (this.db.open) this.db.exec('DROP TRIGGER IF EXISTS temp.change_feed_heard');
  }

  /**
   * The store tells the feed when an account's log grows, so a change is pushed the moment it is
   * committed instead of at the next look of a timer (which cost a client 50 ms on average and kept the
   * feed on real time, out of the simulation's reach). Every entry is written by the migration's
   * triggers, on this connection, whichever route, job or transaction wrote it: a temporary trigger on
   * the log (this connection's alone, nothing in the schema) calls back for each. The listeners run in
   * a microtask, after the synchronous statement or transaction that wrote it has committed (a
   * transaction rolled back leaves the head where it was, and `check` then wakes no one), and never
   * inside SQLite's callback, where the connection may not run another statement.
   */
  private hearCommits(): void {
    this.db.function(LOGGED, { deterministic: false }, (accountId: unknown) => {
      this.heard(accountId);
      return null;
    });
    this.db.exec(`CREATE TEMP TRIGGER IF NOT EXISTS change_feed_heard AFTER INSERT ON main.change_log BEGIN SELECT ${LOGGED}(NEW.account_id); END`);
  }

  private heard(accountId: unknown): void {
    if (typeof accountId !== 'string' || !this.listeners.has(accountId)) return;
    if (this.grown.size === 0) queueMicrotask(() => this.wake());
    this.grown.add(accountId);
  }

  private wake(): void {
    const accounts = [...this.grown];
    this.grown.clear();
    this.check(accounts);
  }
}
