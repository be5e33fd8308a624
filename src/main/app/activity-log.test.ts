import { describe, expect, it } from 'vitest';
import type { ActivityEntry } from '../../shared/bridge/app-events.js';
import { ActivityLog } from './activity-log.js';

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
});
