import { describe, expect, it } from 'vitest';
import { conflictCopies, type ConflictCopiesInput, type ConflictRecord } from './plan-conflict-copies.js';
import type { LocalEntry, SyncedEntry } from './sync-types.js';

const file = (relPath: string, ino: number): LocalEntry => ({ relPath, size: 1, mtimeMs: 1, ino, dev: 1, md5: 'm' });
const row = (relPath: string, assetId: string, ino: number): SyncedEntry => ({ ...file(relPath, ino), md5: 'm', assetId });
const byPath = <T extends { relPath: string }>(...entries: T[]): Map<string, T> => new Map(entries.map((one) => [one.relPath, one]));
const conflict: ConflictRecord = { id: 1, relPath: 'A/x.txt', assetId: 'x', copyPath: 'A/x (conflict).txt', copyFile: { ino: 9, dev: 1 } };

const input = (over: Partial<ConflictCopiesInput>): ConflictCopiesInput => {
  const local = over.local ?? new Map<string, LocalEntry>();
  return { conflicts: [conflict], local, snapshot: local, unstable: new Set(), pending: new Map(), synced: byPath(row('A/x.txt', 'x', 1)), sawWholeRoot: true, ...over };
};

describe('conflictCopies', () => {
  it('leaves a copy at its path alone and changes nothing', () => {
    expect(conflictCopies(input({ local: byPath(file('A/x (conflict).txt', 9)) }))).toEqual({ copies: new Set(['A/x (conflict).txt']), changes: [] });
  });

  it('follows a copy the user moved without renaming it (its folder renamed): still waiting, at its new path', () => {
    const found = conflictCopies(input({ local: byPath(file('B/x (conflict).txt', 9)) }));
    expect([...found.copies]).toEqual(['B/x (conflict).txt']);
    expect(found.changes).toEqual([{ kind: 'COPY_MOVED', id: 1, to: 'B/x (conflict).txt' }]);
  });

  it('resolves the conflict of a copy gone, but only once the pass can tell', () => {
    expect(conflictCopies(input({})).changes).toEqual([{ kind: 'RESOLVED', id: 1 }]);
    // Only hinted paths were looked at: the copy may be in a folder whose event was lost.
    expect(conflictCopies(input({ sawWholeRoot: false })).changes).toEqual([]);
    // A file of its name the scan could not read may be the copy, moved with its folder.
    expect(conflictCopies(input({ unstable: new Set(['B/x (conflict).txt']) })).changes).toEqual([]);
  });

  it('names the path the original is synced at now, when its asset is synced at exactly one other path', () => {
    const found = conflictCopies(input({ local: byPath(file('A/x (conflict).txt', 9)), synced: byPath(row('C/x.txt', 'x', 1)) }));
    expect(found.changes).toEqual([{ kind: 'ORIGINAL_MOVED', assetId: 'x', from: 'A/x.txt', to: 'C/x.txt' }]);
    expect(conflictCopies(input({ local: byPath(file('A/x (conflict).txt', 9)), synced: byPath(row('C/x.txt', 'x', 1), row('D/x.txt', 'x', 2)) })).changes).toEqual([]);
  });
});
