import { describe, expect, it } from 'vitest';
import { planOperations } from './plan-operations.js';
import { withOwnUploads } from './remote-side.js';
import type { HashedEntry, RemoteEntry, RemoteView, SyncedEntry } from './sync-types.js';

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
