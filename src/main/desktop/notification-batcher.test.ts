import { describe, expect, it } from 'vitest';
import type { ConflictView, NotSyncedView } from '../../shared/bridge/app-state.js';
import { appState } from '../../../test/support/app-state-builder.js';
import { NotificationBatcher, type Notice } from './notification-batcher.js';

function conflict(id: number, relPath: string): ConflictView {
  const side = { size: 1, modifiedAt: null, modifiedBy: null, previewUrl: null };
  return { id, folderId: 'root-1', relPath, copyPath: `${relPath} (conflict)`, detectedAt: '', mine: side, theirs: side };
}

function notSynced(relPath: string, reason = 'The file is open in another app.'): NotSyncedView {
  return { folderId: 'root-1', relPath, kind: 'file', code: 'UNREADABLE', reason, fix: 'Close it.', detail: 'cannot read the file: EBUSY', attempts: 1, retryAt: null };
}

function setUp(enabled = true) {
  const shown: Notice[] = [];
  const timers: { run: () => void; ms: number; cancelled: boolean }[] = [];
  const batcher = new NotificationBatcher({
    show: (notice) => shown.push(notice),
    enabled: () => enabled,
    schedule: (run, ms) => {
      const timer = { run, ms, cancelled: false };
      timers.push(timer);
      return () => (timer.cancelled = true);
    },
  });
  const fire = (): void => {
    for (const timer of timers.splice(0)) if (!timer.cancelled) timer.run();
  };
  return { batcher, shown, timers, fire };
}

describe('notification batching', () => {
  it('collects for 2 s from the first event and shows one notification per kind, never one per file', () => {
    const { batcher, shown, timers, fire } = setUp();
    batcher.push({ type: 'conflicts', conflicts: [conflict(1, 'Brand/a.psd'), conflict(2, 'b.psd')] });
    batcher.push({ type: 'not-synced', items: Array.from({ length: 500 }, (_, i) => notSynced(`f${i}.png`)), total: 500 });
    batcher.push({ type: 'conflicts', conflicts: [conflict(3, 'c.psd')] });
    batcher.push({ type: 'not-synced', items: [notSynced('g.png', 'The name is not allowed.')], total: 1 });
    expect(timers.map((timer) => timer.ms)).toEqual([2000]);
    expect(shown).toEqual([]);
    fire();
    expect(shown).toEqual([
      { kind: 'conflicts', title: '3 files changed on both sides', body: 'Both versions are kept. Choose which one to keep.', route: '#/conflicts' },
      { kind: 'not-synced', title: '501 files could not sync', body: 'See why, and what to try, in Asset Sync.', route: '#/not-synced' },
    ]);
  });

  it('names a single conflict and a single reason', () => {
    const { batcher, shown, fire } = setUp();
    batcher.push({ type: 'conflicts', conflicts: [conflict(1, 'Brand/logo.ai')] });
    batcher.push({ type: 'not-synced', items: [notSynced('a.png'), notSynced('b.png')], total: 2 });
    fire();
    expect(shown.map((notice) => notice.title)).toEqual(['“logo.ai” changed on both sides', '2 files could not sync']);
    expect(shown[1]?.body).toBe('The file is open in another app.');
  });

  it('puts sign-in first and sums held deletions over folders', () => {
    const { batcher, shown, fire } = setUp();
    batcher.push({ type: 'held-deletions', held: { folderId: 'a', deletedOnComputer: 0, deletedInService: 60, count: 60, sample: [] } });
    batcher.push({ type: 'held-deletions', held: { folderId: 'b', deletedOnComputer: 1200, deletedInService: 0, count: 1200, sample: [] } });
    batcher.push({ type: 'sign-in-needed', server: 'https://acme.example.com', reason: null });
    fire();
    expect(shown.map((notice) => [notice.kind, notice.title, notice.route])).toEqual([
      ['sign-in-needed', 'Sign in to keep syncing', '#/settings'],
      ['held-deletions', '1,260 deletions held back', '#/held-deletions'],
    ]);
    expect(shown[1]?.body).toBe('1,200 were deleted on this computer and 60 in the service, in 2 folders. Check them before each is deleted on the other side too.');
  });

  it('says on which side held deletions happened', () => {
    const here = setUp();
    here.batcher.push({ type: 'held-deletions', held: { folderId: 'a', deletedOnComputer: 60, deletedInService: 0, count: 60, sample: [] } });
    here.fire();
    expect(here.shown[0]?.body).toBe('They were deleted on this computer. Check them before they are deleted in the service too.');
    const there = setUp();
    there.batcher.push({ type: 'held-deletions', held: { folderId: 'a', deletedOnComputer: 0, deletedInService: 1, count: 1, sample: [] } });
    there.fire();
    expect(there.shown[0]?.body).toBe('It was deleted in the service. Check it before it is deleted on this computer too.');
  });

  it('starts a new batch after a flush, and ignores state and activity', () => {
    const { batcher, shown, timers, fire } = setUp();
    batcher.push({ type: 'state', state: appState() });
    batcher.push({ type: 'conflicts', conflicts: [] });
    expect(timers).toEqual([]);
    batcher.push({ type: 'conflicts', conflicts: [conflict(1, 'a.psd')] });
    fire();
    batcher.push({ type: 'conflicts', conflicts: [conflict(2, 'b.psd')] });
    expect(timers).toHaveLength(1);
    fire();
    expect(shown.map((notice) => notice.title)).toEqual(['“a.psd” changed on both sides', '“b.psd” changed on both sides']);
  });

  it('shows nothing when the user turned notifications off, and nothing after close', () => {
    const off = setUp(false);
    off.batcher.push({ type: 'conflicts', conflicts: [conflict(1, 'a.psd')] });
    off.fire();
    expect(off.shown).toEqual([]);
    const closed = setUp();
    closed.batcher.push({ type: 'conflicts', conflicts: [conflict(1, 'a.psd')] });
    closed.batcher.close();
    closed.fire();
    expect(closed.shown).toEqual([]);
  });
});
