import { describe, expect, it } from 'vitest';
import type { FolderActivity } from '../../shared/bridge/app-state.js';
import { attentionWords, describeFolder } from './describe-state.js';

const now = Date.parse('2026-03-03T12:00:00Z');

describe('describeFolder', () => {
  it('says offline with the waiting count, the way the issue words it', () => {
    const described = describeFolder({ kind: 'offline', waiting: 2431, nextTryAt: '2026-03-03T12:00:30Z' }, now);
    expect(described).toEqual({ label: 'Offline — 2,431 files waiting', tone: 'warn', detail: 'Your files are kept on this computer. Trying again in 30 s.' });
  });

  it('sums both directions of a sync into one progress line', () => {
    const activity: FolderActivity = {
      kind: 'syncing',
      progress: {
        send: { filesDone: 10, filesPlanned: 30, bytesDone: 100_000_000, bytesPlanned: 1_000_000_000 },
        receive: { filesDone: 2, filesPlanned: 10, bytesDone: 20_000_000, bytesPlanned: 200_000_000 },
        bytesPerSecond: 12_000_000,
        etaSeconds: 130,
      },
    };
    expect(describeFolder(activity, now).detail).toBe('12 of 40 files · 120 MB of 1.2 GB · 12 MB/s · about 2 min left');
  });

  it('gives every state a label and a tone', () => {
    const all: FolderActivity[] = [
      { kind: 'up-to-date', lastSyncedAt: null },
      { kind: 'scanning' },
      { kind: 'paused', until: null, waiting: 0 },
      { kind: 'signed-out' },
      { kind: 'stopped', reason: 'MISSING_FOLDER', message: 'The folder is gone.', fix: 'Reconnect the drive.' },
      { kind: 'error', error: { name: 'SyncError', code: 'X', message: 'Broken.' } },
    ];
    expect(all.map((activity) => describeFolder(activity, now).tone)).toEqual(['ok', 'busy', 'paused', 'warn', 'error', 'error']);
  });

  it('lists only what waits', () => {
    expect(attentionWords({ conflicts: 1, notSynced: 0, heldDeletions: 12 })).toBe('1 conflict · 12 deletions held');
  });
});
