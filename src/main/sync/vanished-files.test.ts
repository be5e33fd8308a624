import { describe, expect, it } from 'vitest';
import { GoneWhenSeenWhole, vanishedFiles } from './vanished-files.js';
import type { LocalEntry, SyncedEntry } from './sync-types.js';

const entry = (relPath: string, ino: number): LocalEntry => ({ relPath, size: 10, mtimeMs: 1, ino, dev: 1, md5: 'm' });
const synced = (relPath: string, ino: number): SyncedEntry => ({ ...entry(relPath, ino), md5: 'm', assetId: `asset-${ino}` });
const byPath = <T extends { relPath: string }>(...entries: T[]): Map<string, T> => new Map(entries.map((one) => [one.relPath, one]));

describe('vanishedFiles', () => {
  it('names synced files gone from disk, sorted: a deletion, or a move whose new path no event announced (seeds 61067, 73549, 87457)', () => {
    const syncedFiles = byPath(synced('B/e.txt', 9), synced('B/c.txt', 7), synced('top.txt', 10), synced('B/d.txt', 8));
    expect(vanishedFiles({ local: byPath(entry('B/d.txt', 8)), unstable: new Set(), synced: syncedFiles })).toEqual(['B/c.txt', 'B/e.txt', 'top.txt']);
  });

  it('names nothing still being written, or seen at another path (a move the plan sees)', () => {
    const syncedFiles = byPath(synced('B/c.txt', 7), synced('B/d.txt', 8), synced('B/e.txt', 9));
    // B/c.txt's inode is at D/c.txt, B/d.txt is settling, B/e.txt is where it was.
    const local = byPath(entry('D/c.txt', 7), entry('B/e.txt', 9));
    expect(vanishedFiles({ local, unstable: new Set(['B/d.txt']), synced: syncedFiles })).toEqual([]);
  });
});

describe('GoneWhenSeenWhole', () => {
  const syncedFiles = byPath(synced('a.txt', 1), synced('b.txt', 2));

  it('asks for a whole-root look when a hinted look finds a synced file gone, once per file gone', () => {
    const gone = new GoneWhenSeenWhole();
    const hinted = { local: byPath(entry('b.txt', 2)), unstable: new Set<string>(), synced: syncedFiles };
    expect(gone.needsWholeLook(hinted, false)).toBe(true);
    gone.looked(hinted, true);
    // Seen gone by the whole look: its deletion (held, or waiting for a quiet disk) needs no second one.
    expect(gone.needsWholeLook(hinted, false)).toBe(false);
    expect(gone.needsWholeLook({ ...hinted, local: new Map() }, false)).toBe(true);
  });

  it('never asks after a whole-root look, and forgets a file that came back', () => {
    const gone = new GoneWhenSeenWhole();
    const hinted = { local: byPath(entry('b.txt', 2)), unstable: new Set<string>(), synced: syncedFiles };
    expect(gone.needsWholeLook(hinted, true)).toBe(false);
    gone.looked(hinted, true);
    expect(gone.needsWholeLook({ ...hinted, local: byPath(entry('a.txt', 1), entry('b.txt', 2)) }, false)).toBe(false);
    expect(gone.needsWholeLook(hinted, false)).toBe(true);
  });
});
