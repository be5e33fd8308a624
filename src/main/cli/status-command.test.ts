import { describe, expect, it } from 'vitest';
import { describeActivity } from './status-command.js';

const tally = (filesDone: number, filesPlanned: number) => ({ filesDone, filesPlanned, bytesDone: 0, bytesPlanned: 0 });

describe('describeActivity', () => {
  it('says "1 file" and "2 files", and the time left as a duration', () => {
    const syncing = (filesPlanned: number, etaSeconds: number | null) => describeActivity({ kind: 'syncing', progress: { send: tally(0, filesPlanned), receive: tally(0, 0), bytesPerSecond: null, etaSeconds } });
    expect(syncing(1, null)).toBe('syncing 0 of 1 file');
    expect(syncing(2, 125)).toBe('syncing 0 of 2 files, about 2m 05s left');
    expect(describeActivity({ kind: 'offline', waiting: 1, nextTryAt: null })).toBe('offline: 1 file waiting');
    expect(describeActivity({ kind: 'offline', waiting: 3, nextTryAt: null })).toBe('offline: 3 files waiting');
    expect(describeActivity({ kind: 'paused', until: null, waiting: 1 })).toBe('paused until resumed (1 file waiting)');
  });
});
