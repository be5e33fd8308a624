/**
 * Usage of an account from real counts, bucketed for billing: TIERED plans by calendar month, VALUE_BASED
 * plans by billing month (from the subscription's start day, clamped to short months). Per bucket: the
 * assets and their bytes at the bucket's end (from the asset rows there are now: deleted assets no
 * longer count), and the download events within it. Read-only.
 */
import type { Db } from '../db/open-database.js';

export type Plan = 'TIERED' | 'VALUE_BASED';

export interface UsageBucket {
  periodStart: string;
  periodEnd: string;
  assets: number;
  storageBytes: number;
  downloads: number;
}

function monthStart(year: number, month: number, day: number): Date {
  const last = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return new Date(Date.UTC(year, month, Math.min(day, last)));
}

/** The `count` periods up to and including the one holding `now`, oldest first. */
export function billingPeriods(plan: Plan, started: string, now: number, count: number): { start: Date; end: Date }[] {
  const day = plan === 'TIERED' ? 1 : new Date(started).getUTCDate();
  const today = new Date(now);
  const year = today.getUTCFullYear();
  let month = today.getUTCMonth();
  if (monthStart(year, month, day).getTime() > now) month -= 1;
  const periods: { start: Date; end: Date }[] = [];
  for (let back = count - 1; back >= 0; back--) {
    const m = month - back;
    periods.push({ start: monthStart(year, m, day), end: monthStart(year, m + 1, day) });
  }
  return periods;
}

export function usageOf(db: Db, accountId: string, periods: readonly { start: Date; end: Date }[]): UsageBucket[] {
  const assets = db.prepare<[string, string], { n: number }>('SELECT count(*) AS n FROM assets WHERE account_id = ? AND date_created < ?');
  const storage = db.prepare<[string, string], { bytes: number | null }>('SELECT sum(size) AS bytes FROM asset_files WHERE account_id = ? AND date_added < ?');
  const downloads = db.prepare<[string, string, string], { n: number }>('SELECT count(*) AS n FROM download_events WHERE account_id = ? AND date_downloaded >= ? AND date_downloaded < ?');
  return periods.map(({ start, end }) => {
    const [from, to] = [start.toISOString(), end.toISOString()];
    return {
      periodStart: from,
      periodEnd: to,
      assets: assets.get(accountId, to)?.n ?? 0,
      storageBytes: storage.get(accountId, to)?.bytes ?? 0,
      downloads: downloads.get(accountId, from, to)?.n ?? 0,
    };
  });
}
