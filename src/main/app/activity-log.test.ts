import { describe, expect, it } from 'vitest';
import type { ActivityEntry } from '../../shared/bridge/app-events.js';
import { ActivityLog, type ActivityKeeper } from './activity-log.js';

function log(cap?: number) {
  let now = 1_000_000;
  const seen: ActivityEntry[] = [];
  const activity = new ActivityLog({ now: () => now, onChange: (entry) => seen.push(entry), ...(cap === undefined ? {} : { cap }) });
  return { activity, seen, tick: (ms: number) => (now += ms) };
}

describe('the activity log', () => {
  it('lists newest first and pages with before', () => {
    const { activity } = log();
    for (let i = 0; i < 10; i++) activity.add({ folderId: 'f', relPath: `${i}.png`, kind: 'upload', status: 'done' });
    const first = activity.list({ limit: 4 });
    expect(first.map((entry) => entry.relPath)).toEqual(['9.png', '8.png', '7.png', '6.png']);
    const next = activity.list({ before: first.at(-1)?.id ?? 0, limit: 4 });
    expect(next.map((entry) => entry.relPath)).toEqual(['5.png', '4.png', '3.png', '2.png']);
    expect(activity.list({ before: 1, limit: 10 })).toEqual([]);
  });

  it('keeps at most its cap, dropping the oldest', () => {
    const { activity } = log(100_000);
    for (let i = 0; i < 101_500; i++) activity.add({ folderId: 'f', relPath: `${i}`, kind: 'upload', status: 'done' });
    expect(activity.size).toBeLessThanOrEqual(101_000);
    expect(activity.size).toBeGreaterThanOrEqual(100_000);
    const all = activity.list({ limit: 5000 });
    expect(all[0]?.relPath).toBe('101499');
    expect(activity.get(1)).toBeUndefined();
    // Paging still finds the right neighbours after the trim.
    const oldest = activity.list({ before: (all.at(-1)?.id ?? 0), limit: 1 });
    expect(oldest[0]?.relPath).toBe(String(101_499 - 5000));
  });

  it('passes on byte progress of a running entry at most every 250 ms, and always its end', () => {
    const { activity, seen, tick } = log();
    const entry = activity.add({ folderId: 'f', relPath: 'big.psd', kind: 'upload', status: 'running', bytesTotal: 1000 });
    expect(seen).toHaveLength(1);
    activity.progress(entry.id, 100);
    expect(seen).toHaveLength(2);
    tick(10);
    activity.progress(entry.id, 100);
    activity.progress(entry.id, 100);
    expect(seen).toHaveLength(2);
    tick(300);
    activity.progress(entry.id, 100);
    expect(seen.at(-1)?.bytesDone).toBe(400);
    activity.finish(entry.id, { status: 'done' });
    expect(seen.at(-1)).toMatchObject({ status: 'done', bytesDone: 1000 });
    activity.progress(entry.id, 100);
    expect(seen.at(-1)).toMatchObject({ status: 'done', bytesDone: 1000 });
  });

  describe('kept in the state store of the session', () => {
    /** A keeper as the state store is: entries by id, newest first, capped; each call one batch. */
    function keeper(): ActivityKeeper & { rows: Map<number, ActivityEntry>; batches: number[]; failing: boolean } {
      const rows = new Map<number, ActivityEntry>();
      const batches: number[] = [];
      const kept = {
        rows,
        batches,
        failing: false,
        recentActivity: (limit: number) => [...rows.values()].sort((a, b) => b.id - a.id).slice(0, limit).map((entry) => ({ ...entry })),
        keepActivity(entries: readonly ActivityEntry[], cap: number) {
          if (kept.failing) throw new Error('disk full');
          batches.push(entries.length);
          for (const entry of entries) rows.set(entry.id, { ...entry });
          for (const id of [...rows.keys()].sort((a, b) => b - a).slice(cap)) rows.delete(id);
        },
      };
      return kept;
    }
    function keptLog(keepCap = 10_000) {
      const timers: (() => void)[] = [];
      const errors: unknown[] = [];
      const activity = new ActivityLog({
        now: () => 1_000_000,
        keepCap,
        setTimer: (_ms, callback) => {
          timers.push(callback);
          return () => timers.splice(timers.indexOf(callback), 1);
        },
        onKeepError: (error) => errors.push(error),
        onChange: () => undefined,
      });
      return { activity, timers, errors, fire: () => timers.splice(0).forEach((callback) => callback()) };
    }

    it('writes what changed a batch at a time, and a restart finds it', () => {
      const store = keeper();
      const { activity, timers, fire } = keptLog();
      activity.attach(store);
      const big = activity.add({ folderId: 'f', relPath: 'big.psd', kind: 'download', status: 'running', bytesTotal: 100 });
      for (let i = 0; i < 50; i++) activity.add({ folderId: 'f', relPath: `${i}.png`, kind: 'upload', status: 'done' });
      activity.progress(big.id, 60);
      activity.add({ folderId: 'f', relPath: 'old brief.txt', kind: 'trash', status: 'done' });
      // One timer for the lot, and nothing written until it fires: never a write per file.
      expect(timers).toHaveLength(1);
      expect(store.batches).toEqual([]);
      fire();
      expect(store.batches).toEqual([52]);
      activity.finish(big.id, { status: 'done' });
      activity.add({ folderId: 'f', relPath: 'Docs', kind: 'folder-move', status: 'done', from: 'Drafts' });
      activity.detach();
      expect(store.batches).toEqual([52, 2]);

      const restarted = keptLog().activity;
      restarted.attach(store);
      expect(restarted.list({ limit: 100 })).toEqual(activity.list({ limit: 100 }));
      expect(restarted.list({ limit: 1 })[0]).toMatchObject({ relPath: 'Docs', kind: 'folder-move', from: 'Drafts' });
      // New entries follow the kept ones.
      expect(restarted.add({ folderId: 'f', relPath: 'next.png', kind: 'upload', status: 'done' }).id).toBe(54);
    });

    it('shows an entry still running when the app stopped as failed', () => {
      const store = keeper();
      const first = keptLog();
      first.activity.attach(store);
      first.activity.add({ folderId: 'f', relPath: 'big.psd', kind: 'upload', status: 'running', bytesTotal: 100 });
      first.fire();
      const { activity } = keptLog();
      activity.attach(store);
      expect(activity.list({ limit: 1 })[0]).toMatchObject({ relPath: 'big.psd', status: 'failed', error: { code: 'TRANSFER_INTERRUPTED' } });
      activity.detach();
      expect(store.rows.get(1)?.status).toBe('failed');
    });

    it('keeps the newest entries only', () => {
      const store = keeper();
      const { activity } = keptLog(5);
      activity.attach(store);
      for (let i = 0; i < 12; i++) activity.add({ folderId: 'f', relPath: `${i}.png`, kind: 'upload', status: 'done' });
      activity.detach();
      const restarted = keptLog(5).activity;
      restarted.attach(store);
      expect(restarted.list({ limit: 100 }).map((entry) => entry.relPath)).toEqual(['11.png', '10.png', '9.png', '8.png', '7.png']);
    });

    it('tries a batch that could not be written again with the next, and never writes it to another session\'s store', () => {
      const store = keeper();
      const { activity, fire, errors } = keptLog();
      activity.attach(store);
      activity.add({ folderId: 'f', relPath: 'a.png', kind: 'upload', status: 'done' });
      store.failing = true;
      fire();
      expect(errors).toHaveLength(1);
      store.failing = false;
      activity.add({ folderId: 'f', relPath: 'b.png', kind: 'upload', status: 'done' });
      fire();
      expect(store.batches).toEqual([2]);

      activity.add({ folderId: 'f', relPath: 'c.png', kind: 'upload', status: 'done' });
      store.failing = true;
      const other = keeper();
      activity.attach(other);
      expect(other.rows.size).toBe(0);
      activity.detach();
      expect(other.batches).toEqual([]);
    });
  });
});
