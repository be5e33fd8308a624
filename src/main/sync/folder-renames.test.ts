import { describe, expect, it } from 'vitest';
import { folderPair, folderRenames } from './folder-renames.js';
import type { HashedEntry, Operation } from './sync-types.js';

type MoveOp = Extract<Operation, { kind: 'MOVE' }>;

const local = (relPath: string): HashedEntry => ({ relPath, size: 1, mtimeMs: 1, ino: 1, dev: 1, md5: 'm' });
const move = (from: string, to: string): MoveOp => ({ kind: 'MOVE', from, to, assetId: from, local: local(to) });

describe('folderPair', () => {
  it('is the folder a file left and the one it entered, its path below them the same', () => {
    expect(folderPair('A/x.txt', 'a/x.txt')).toEqual({ from: 'A', to: 'a' });
    expect(folderPair('A/B/x.txt', 'a/B/x.txt')).toEqual({ from: 'A', to: 'a' });
    expect(folderPair('P/A/x.txt', 'Q/a/x.txt')).toEqual({ from: 'P/A', to: 'Q/a' });
  });

  it('is nothing for a file renamed, a move to or from the top, or into a folder of its own', () => {
    expect(folderPair('A/x.txt', 'A/y.txt')).toBeUndefined();
    expect(folderPair('A/x.txt', 'x.txt')).toBeUndefined();
    expect(folderPair('x.txt', 'A/x.txt')).toBeUndefined();
    expect(folderPair('A/x.txt', 'A/B/x.txt')).toBeUndefined();
  });
});

describe('folderRenames', () => {
  it('finds a folder whose every synced file moved to the same place under another', () => {
    const moves = [move('A/x.txt', 'a/x.txt'), move('A/B/y.txt', 'a/B/y.txt')];
    expect(folderRenames(moves, ['A/x.txt', 'A/B/y.txt', 'C/z.txt'])).toEqual([{ from: 'A', to: 'a', moves }]);
  });

  it('finds none when a synced file stays behind, is deleted, or goes elsewhere', () => {
    expect(folderRenames([move('A/x.txt', 'a/x.txt')], ['A/x.txt', 'A/y.txt'])).toEqual([]);
    expect(folderRenames([move('A/x.txt', 'a/x.txt'), move('A/y.txt', 'D/y.txt')], ['A/x.txt', 'A/y.txt'])).toEqual([]);
  });
});
