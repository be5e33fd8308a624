import { describe, expect, it } from 'vitest';
import { planOperations } from './plan-operations.js';
import { movedOwnUploads, withOwnUploads } from './plan-own-uploads.js';
import type { HashedEntry, LocalEntry, RemoteEntry, RemoteView, SyncedEntry } from './sync-types.js';

const file = (relPath: string, md5: string): HashedEntry => ({ relPath, md5, size: 10, mtimeMs: 1, ino: 7001, dev: 1 });
const remote = (relPath: string, assetId: string, md5: string): RemoteEntry => ({ relPath, assetId, filename: relPath.slice(relPath.lastIndexOf('/') + 1), md5, fileId: `${assetId}-${md5}`, size: 10, dateModified: '2026-01-01T00:00:00.000Z', dateAdded: '' });

describe('withOwnUploads', () => {
  // Seed 100391: file `A/C` (once a folder) went up, its answer lost in a crash; the service lists the
  // asset as `A/C (2)` (a folder `A/C` is there too) and the file could not be read to tell whether the
  // upload landed. Downloaded as a remote file, the asset had two synced rows, and a folder rename
  // then filed it in two folders.
  const local = new Map([['A/C', file('A/C', 'aa')]]);
  const view: RemoteView = { entries: new Map([['A/C (2)', remote('A/C (2)', 'own', 'aa')], ['b.txt', remote('b.txt', 'other', 'bb')]]) };
  const uploads = [{ kind: 'NEW' as const, relPath: 'A/C', assetId: 'own' }];

  it('leaves an unsettled upload of our own to the resume: the planner downloads only the other asset', () => {
    const operations = planOperations({ local, synced: new Map(), unstable: new Set(), busy: new Set(['A/C']), remote: withOwnUploads(view, uploads, local, new Map()) }).operations;
    expect(operations.map((op) => [op.kind, 'relPath' in op ? op.relPath : op.from])).toEqual([['DOWNLOAD', 'b.txt']]);
  });

  it('changes nothing once the upload is recorded, its file is gone, or the entry is a version', () => {
    const recorded = new Map<string, SyncedEntry>([['A/C', { ...file('A/C', 'aa'), assetId: 'own' }]]);
    expect(withOwnUploads(view, uploads, local, recorded)).toBe(view);
    expect(withOwnUploads(view, uploads, new Map(), new Map())).toBe(view);
    expect(withOwnUploads(view, [{ ...uploads[0]!, kind: 'VERSION' }], local, new Map())).toBe(view);
    expect(withOwnUploads(view, [{ ...uploads[0]!, assetId: null }], local, new Map())).toBe(view);
  });
});

describe('movedOwnUploads', () => {
  // Seed 142763: `A/b.txt`'s new-file upload landed unheard and the file could not be read to tell
  // (EACCES, the resume backing off); the user renamed `A` to `A2`. Planned as it stood, `A2/b.txt`
  // went up as a second new asset while the first came down at `A/b.txt`: two live assets of one file.
  const moved = { ...file('A2/b.txt', 'aa'), ino: 10 };
  const local = new Map<string, LocalEntry>([['A2/b.txt', { ...moved, md5: null }]]);
  const uploads = [{ kind: 'NEW' as const, relPath: 'A/b.txt', assetId: 'own', local: { ...moved, relPath: 'A/b.txt', md5: null } }];
  const view: RemoteView = { entries: new Map([['A/b.txt', remote('A/b.txt', 'own', 'aa')]]) };

  it('holds the moved file and leaves its asset to the upload being settled: nothing goes up or comes down', () => {
    const movedUploads = movedOwnUploads(uploads, local, new Set(), new Map());
    expect([...movedUploads]).toEqual([['A2/b.txt', 'A/b.txt']]);
    const operations = planOperations({
      local,
      synced: new Map(),
      unstable: new Set(),
      busy: new Set(movedUploads.keys()),
      remote: withOwnUploads(view, uploads, local, new Map(), new Set(movedUploads.values())),
    }).operations;
    expect(operations).toEqual([]);
  });

  it('finds nothing while the file is still at its path, is another file, or its new path is synced', () => {
    expect(movedOwnUploads(uploads, new Map([['A/b.txt', { ...moved, relPath: 'A/b.txt', md5: null }]]), new Set(), new Map()).size).toBe(0);
    expect(movedOwnUploads(uploads, local, new Set(['A/b.txt']), new Map()).size).toBe(0);
    expect(movedOwnUploads(uploads, new Map([['A2/b.txt', { ...moved, ino: 11, md5: null }]]), new Set(), new Map()).size).toBe(0);
    expect(movedOwnUploads(uploads, local, new Set(), new Map([['A2/b.txt', { ...moved, assetId: 'other' }]])).size).toBe(0);
    expect(movedOwnUploads([{ ...uploads[0]!, kind: 'VERSION' }], local, new Set(), new Map()).size).toBe(0);
  });
});
