import { describe, expect, it } from 'vitest';
import { vanishedFolders, vanishedRestores } from './vanished-restores.js';
import type { LocalEntry, RemoteEntry, RemoteView, SyncedEntry } from './sync-types.js';

const entry = (relPath: string, ino: number): LocalEntry => ({ relPath, size: 10, mtimeMs: 1, ino, dev: 1, md5: 'm' });
const synced = (relPath: string, ino: number): SyncedEntry => ({ ...entry(relPath, ino), md5: 'm', assetId: `asset-${ino}` });
const remote = (relPath: string, ino: number, md5 = 'm'): RemoteEntry => ({ relPath, assetId: `asset-${ino}`, md5, fileId: `file-${ino}-${md5}`, size: 10, dateModified: '2026-01-01T00:00:00.000Z', dateAdded: '' });
const byPath = <T extends { relPath: string }>(...entries: T[]): Map<string, T> => new Map(entries.map((one) => [one.relPath, one]));
const view = (...entries: RemoteEntry[]): RemoteView => ({ entries: byPath(...entries) });

describe('vanishedRestores', () => {
  it('names a synced file gone from disk whose asset the service moved or changed: the plan would bring it back (simulation seed 61067)', () => {
    const syncedFiles = byPath(synced('B/c.txt', 7), synced('B/d.txt', 8), synced('B/e.txt', 9));
    // B/c.txt renamed on the service, B/d.txt edited there, B/e.txt as it was.
    const service = view(remote('B/logo.png', 7), remote('B/d.txt', 8, 'new'), remote('B/e.txt', 9));
    expect(vanishedRestores({ local: new Map(), unstable: new Set(), synced: syncedFiles, remote: service })).toEqual(['B/c.txt', 'B/d.txt']);
  });

  it('names nothing for a plain deletion, a file still being written, or a file seen at another path', () => {
    const syncedFiles = byPath(synced('B/c.txt', 7), synced('B/d.txt', 8), synced('B/e.txt', 9));
    const service = view(remote('B/logo.png', 7), remote('B/d.txt', 8, 'new'), remote('B/e.txt', 9));
    // B/c.txt's inode is at D/c.txt (a move the plan sees), B/d.txt is settling, B/e.txt is deleted here only.
    const local = byPath(entry('D/c.txt', 7));
    expect(vanishedRestores({ local, unstable: new Set(['B/d.txt']), synced: syncedFiles, remote: service })).toEqual([]);
  });

  it('names the folders of synced files gone from disk, for the caller to ask whether one went as a whole (simulation seed 73549)', () => {
    const syncedFiles = byPath(synced('A/C/b.txt', 7), synced('A/C/c.txt', 8), synced('B/d.txt', 9), synced('top.txt', 10), synced('D/e.txt', 11), synced('E/f.txt', 12));
    // A/C and B lost files; the root's top is no folder to look for; D/e.txt is seen at F/e.txt (a
    // move the plan sees) and E/f.txt is still being written.
    const local = byPath(entry('F/e.txt', 11));
    expect(vanishedFolders({ local, unstable: new Set(['E/f.txt']), synced: syncedFiles })).toEqual(['A/C', 'B']);
    expect(vanishedFolders({ local: byPath(entry('A/C/b.txt', 7), entry('A/C/c.txt', 8), entry('B/d.txt', 9), entry('top.txt', 10), entry('F/e.txt', 11)), unstable: new Set(['E/f.txt']), synced: syncedFiles })).toEqual([]);
  });
});
