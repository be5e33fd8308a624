import { describe, expect, it } from 'vitest';
import type { FolderActivity } from '../../shared/bridge/app-state.js';
import { appState, folderView } from '../../../test/support/app-state-builder.js';
import { attentionWords, describeFolder, describeOverall, folderCounts, pausedLabel } from './describe-state.js';

const now = Date.parse('2026-03-03T12:00:00Z');

describe('folderCounts', () => {
  it('counts the files in step, and says when a folder has none yet', () => {
    expect(folderCounts(3120, 3120)).toBe('3,120 of 3,120 files in step');
    expect(folderCounts(0, 1)).toBe('0 of 1 file in step');
    expect(folderCounts(0, 0)).toBe('No files yet');
  });
});

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
      { kind: 'waiting', waiting: 3 },
      { kind: 'attention' },
      { kind: 'scanning' },
      { kind: 'paused', until: null, waiting: 0 },
      { kind: 'signed-out' },
      { kind: 'stopped', reason: 'MISSING_FOLDER', message: 'The folder is gone.', fix: 'Reconnect the drive.' },
      { kind: 'error', error: { name: 'SyncError', code: 'X', message: 'Broken.' } },
    ];
    expect(all.map((activity) => describeFolder(activity, now).tone)).toEqual(['ok', 'busy', 'warn', 'busy', 'paused', 'warn', 'error', 'error']);
  });

  it('says when a pause ends in words that read: in minutes, or at a time', () => {
    const at = (ms: number): string => new Date(now + ms).toISOString();
    expect(pausedLabel(null, now)).toBe('Paused');
    expect(pausedLabel(at(60 * 60_000 - 1), now)).toBe('Paused — resumes in 60 min');
    expect(pausedLabel(at(3 * 3_600_000), now)).toMatch(/^Paused — resumes at \d\d:\d\d$/);
  });

  it('says what waits, paused or not, and never "Nothing waiting" when something does', () => {
    expect(describeFolder({ kind: 'paused', until: null, waiting: 4 }, now)).toMatchObject({ label: 'Paused', detail: '4 changes waiting' });
    expect(describeFolder({ kind: 'waiting', waiting: 500 }, now)).toMatchObject({ label: '500 files waiting', tone: 'busy' });
    expect(describeFolder({ kind: 'attention' }, now)).toMatchObject({ label: 'Needs your attention', tone: 'warn' });
  });

  it('lists only what waits', () => {
    expect(attentionWords({ conflicts: 1, notSynced: 0, heldDeletions: 12 })).toBe('1 conflict · 12 deletions held');
  });
});

describe('describeOverall', () => {
  it('says nothing is synced yet with no folders, and what waits when files wait', () => {
    expect(describeOverall(appState({ overall: 'no-folders', folders: [] }))).toMatchObject({ label: 'Nothing synced yet' });
    expect(describeOverall(appState({ overall: 'waiting', folders: [folderView({ activity: { kind: 'waiting', waiting: 500 } })] }))).toMatchObject({ label: '500 files waiting' });
    const paused = appState({ overall: 'paused', paused: { until: null }, folders: [folderView({ activity: { kind: 'paused', until: null, waiting: 4 } })] });
    expect(describeOverall(paused).detail).toBe('4 changes waiting; nothing moves until you resume.');
  });
});
