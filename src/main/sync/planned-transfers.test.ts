import { describe, expect, it } from 'vitest';
import type { RemoteChangeOp } from './execute-remote-changes.js';
import { plannedTransfers } from './planned-transfers.js';
import type { HashedEntry, RemoteEntry } from './sync-types.js';

const local = (relPath: string, size: number): HashedEntry => ({ relPath, size, mtimeMs: 1, ino: 1, dev: 1, md5: `md5-${relPath}` });
const remote = (relPath: string, fileId: string, size: number): RemoteEntry => ({ relPath, assetId: `a-${fileId}`, filename: relPath.slice(relPath.lastIndexOf('/') + 1), fileId, md5: `md5-${fileId}`, size, dateModified: '', dateAdded: '' });

describe('plannedTransfers', () => {
  it('counts uploads whole, and each downloaded file version once however many paths want it', () => {
    const ops: RemoteChangeOp[] = [
      { kind: 'DOWNLOAD', relPath: 'a/logo.png', remote: remote('a/logo.png', 'f1', 1000) },
      { kind: 'DOWNLOAD', relPath: 'b/logo.png', remote: remote('b/logo.png', 'f1', 1000) },
      { kind: 'CONFLICT', relPath: 'poster.psd', copyPath: 'poster (conflict).psd', local: local('poster.psd', 5), remote: remote('poster.psd', 'f2', 7000), assetId: 'a-f2' },
      { kind: 'LOCAL_DELETE', relPath: 'old.txt', assetId: 'a-old', local: local('old.txt', 99) },
      { kind: 'ADOPT', relPath: 'same.txt', assetId: 'a-same', local: local('same.txt', 50), md5: 'md5-same.txt' },
    ];
    expect(plannedTransfers([local('new.psd', 300), local('edited.ai', 200)], ops)).toEqual({
      send: { files: 2, bytes: 500 },
      receive: { files: 3, bytes: 8000 },
      waiting: { files: 0, bytes: 0 },
    });
  });

  it('counts the files still being written as waiting, apart from what this pass moves', () => {
    const settling = new Map([
      ['film.mov', { size: 2_000_000_000, mtimeMs: 1, ino: 7, dev: 1 }],
      ['note.txt', { size: 10, mtimeMs: 1, ino: 8, dev: 1 }],
    ]);
    expect(plannedTransfers([local('small.txt', 30)], [], settling.values())).toEqual({
      send: { files: 1, bytes: 30 },
      receive: { files: 0, bytes: 0 },
      waiting: { files: 2, bytes: 2_000_000_010 },
    });
  });

  it('is empty for a plan that moves no bytes', () => {
    expect(plannedTransfers([], [{ kind: 'FORGET', relPath: 'gone.txt', assetId: 'a1' }])).toEqual({ send: { files: 0, bytes: 0 }, receive: { files: 0, bytes: 0 }, waiting: { files: 0, bytes: 0 } });
  });
});
