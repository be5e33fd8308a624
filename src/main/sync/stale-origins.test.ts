import { describe, expect, it } from 'vitest';
import { staleOrigins } from './stale-origins.js';
import type { LocalEntry, SyncedEntry } from './sync-types.js';

const entry = (relPath: string, ino: number): LocalEntry => ({ relPath, size: 10, mtimeMs: 1, ino, dev: 1, md5: 'm' });
const synced = (relPath: string, ino: number): SyncedEntry => ({ ...entry(relPath, ino), md5: 'm', assetId: `asset-${relPath}` });
const byPath = <T extends { relPath: string }>(...entries: T[]): Map<string, T> => new Map(entries.map((one) => [one.relPath, one]));

describe('staleOrigins', () => {
  it('names a synced path still recorded whose file turned up at a new path (simulation seed 61193)', () => {
    const local = byPath(entry('B/café.txt', 7), entry('D/café.txt', 7), entry('B/other.txt', 8));
    expect(staleOrigins(local, byPath(synced('B/café.txt', 7), synced('B/other.txt', 8)))).toEqual(['B/café.txt']);
  });

  it('names nothing when no new path holds a synced file', () => {
    const local = byPath(entry('B/café.txt', 7), entry('D/new.txt', 9));
    expect(staleOrigins(local, byPath(synced('B/café.txt', 7)))).toEqual([]);
    // Its old path already gone from the snapshot: the plan sees the move itself.
    expect(staleOrigins(byPath(entry('D/café.txt', 7)), byPath(synced('B/café.txt', 7)))).toEqual([]);
  });
});
