import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import type { ActivityEntry } from '../../shared/bridge/app-events.js';
import { ManualClock } from '../local/index.js';
import type { PassReport } from '../sync/root-sync.js';
import { ActivityLog } from './activity-log.js';
import { TransferTracker, type TrackedSession } from './transfer-tracker.js';

const rootPath = '/home/dana/Asset Sync';

function report(overrides: Partial<PassReport> = {}): PassReport {
  return { rootId: 'root-1', scanned: true, uploaded: 0, versions: 0, moved: 0, removed: 0, failed: 0, bytesSent: 0, heldDeletes: 0, settling: 0, operations: 0, downloaded: 0, bytesReceived: 0, localMoved: 0, trashed: 0, conflicts: 0, ...overrides };
}

function tracker() {
  const clock = new ManualClock();
  const activity = new ActivityLog({ now: () => clock.now(), onChange: () => undefined });
  const session: TrackedSession = {
    currentRoot: undefined,
    uploading: new Map(),
    engine: { roots: () => [{ id: 'root-1', path: rootPath, server: 'http://127.0.0.1:7480', remote_path: '/', publish_live: 0, stopped: null, date_created: '' }] },
  };
  let changes = 0;
  const transfers = new TransferTracker({
    clock,
    activity,
    session: () => session,
    changed: () => {
      changes++;
    },
  });
  const entries = (): ActivityEntry[] => activity.list({ limit: 100 });
  return { clock, session, transfers, entries, changes: () => changes };
}

const planned = { kind: 'planned' as const, rootId: 'root-1', send: { files: 1, bytes: 10 }, receive: { files: 1, bytes: 20 }, waiting: { files: 0, bytes: 0 } };

describe('the transfer tracker', () => {
  it('makes every change the engine made on disk an entry', () => {
    const { transfers, entries } = tracker();
    transfers.onTransfer({ kind: 'local-change', rootId: 'root-1', relPath: 'old brief.txt', change: 'trashed' });
    transfers.onTransfer({ kind: 'local-change', rootId: 'root-1', relPath: 'Logos/logo.png', change: 'moved', from: 'Drafts/logo.png' });
    transfers.onTransfer({ kind: 'local-change', rootId: 'root-1', relPath: 'Shoots/2026', change: 'folder-moved', from: 'Shoots/2025' });
    transfers.onTransfer({ kind: 'local-change', rootId: 'root-1', relPath: 'notes (conflict 2026-12-07 111555).txt', change: 'conflict-copy', from: 'notes.txt' });
    expect(entries().map(({ relPath, kind, from, status }) => ({ relPath, kind, from, status }))).toEqual([
      { relPath: 'notes (conflict 2026-12-07 111555).txt', kind: 'conflict-copy', from: 'notes.txt', status: 'done' },
      { relPath: 'Shoots/2026', kind: 'folder-move', from: 'Shoots/2025', status: 'done' },
      { relPath: 'Logos/logo.png', kind: 'move', from: 'Drafts/logo.png', status: 'done' },
      { relPath: 'old brief.txt', kind: 'trash', from: null, status: 'done' },
    ]);
  });

  it('drops bytes before a pass planned, and tells an upload from a download by the part being sent', () => {
    const { session, transfers, entries } = tracker();
    transfers.onBytes('a.png', 5);
    expect(entries()).toEqual([]);
    transfers.onTransfer(planned);
    expect(session.currentRoot).toBe('root-1');
    session.uploading.set(join(rootPath, 'up.png'), 1);
    transfers.onBytes('up.png', 4);
    transfers.onBytes('down.png', 7);
    expect(entries().map((entry) => [entry.relPath, entry.kind, entry.status])).toEqual([
      ['down.png', 'download', 'running'],
      ['up.png', 'upload', 'running'],
    ]);
    expect(transfers.progressView('root-1')).toMatchObject({ send: { bytesDone: 4, bytesPlanned: 10 }, receive: { bytesDone: 7, bytesPlanned: 20 } });
  });

  it('finishes a running entry when its file is done, and fails those still running when the pass ends', () => {
    const { transfers, entries } = tracker();
    transfers.onTransfer(planned);
    transfers.onBytes('down.png', 7);
    transfers.onBytes('other.png', 1);
    transfers.onTransfer({ kind: 'file-done', rootId: 'root-1', relPath: 'down.png', direction: 'receive' });
    transfers.onTransfer({ kind: 'file-done', rootId: 'root-1', relPath: 'quiet.png', direction: 'send' });
    transfers.onReport(report({ operations: 2 }));
    const byPath = new Map(entries().map((entry) => [entry.relPath, entry]));
    expect(byPath.get('down.png')?.status).toBe('done');
    expect(byPath.get('quiet.png')).toMatchObject({ kind: 'upload', status: 'done' });
    expect(byPath.get('other.png')).toMatchObject({ status: 'failed', error: { code: 'TRANSFER_INTERRUPTED' } });
    expect(transfers.progressView('root-1')).toBeUndefined();
  });

  it('marks a folder synced after a clean pass, keeps the time through a failing one, and keeps it past the session', () => {
    const { clock, transfers } = tracker();
    expect(transfers.hasPassed('root-1')).toBe(false);
    transfers.onReport(report({ failed: 1 }));
    expect(transfers.hasPassed('root-1')).toBe(true);
    expect(transfers.lastSyncedAt('root-1')).toBeNull();
    transfers.onReport(report());
    const first = transfers.lastSyncedAt('root-1');
    expect(first).toBe(new Date(clock.now()).toISOString());
    clock.advance(60_000);
    // A clean pass with nothing to do keeps the time of the last one that moved something.
    transfers.onReport(report());
    expect(transfers.lastSyncedAt('root-1')).toBe(first);
    transfers.onReport(report({ operations: 1 }));
    expect(transfers.lastSyncedAt('root-1')).toBe(new Date(clock.now()).toISOString());
    transfers.sessionEnded();
    expect(transfers.hasPassed('root-1')).toBe(false);
    expect(transfers.lastSyncedAt('root-1')).not.toBeNull();
  });
});
