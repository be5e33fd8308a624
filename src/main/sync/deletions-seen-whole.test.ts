import { describe, expect, it } from 'vitest';
import { deletionsSeenWhole } from './deletions-seen-whole.js';
import type { Operation } from './sync-types.js';

const local = { relPath: 'b.txt', size: 1, mtimeMs: 1, ino: 1, dev: 1, md5: 'm' };
const operations: Operation[] = [
  { kind: 'DELETE', relPath: 'a.txt', assetId: 'a' },
  { kind: 'UPLOAD_VERSION', relPath: 'b.txt', assetId: 'b', local },
  { kind: 'DELETE', relPath: 'c.txt', assetId: 'c' },
];

describe('deletionsSeenWhole', () => {
  it('keeps the plan as it is without a watcher, or when the disk held still since the look began', () => {
    expect(deletionsSeenWhole(operations, 100, undefined)).toEqual({ operations, waiting: 0 });
    expect(deletionsSeenWhole(operations, 100, 99)).toEqual({ operations, waiting: 0 });
  });

  it('holds the deletions on the service when the disk changed while the pass looked: a folder half emptied is seen whole next pass', () => {
    const seen = deletionsSeenWhole(operations, 100, 100);
    expect(seen.operations.map((op) => op.kind)).toEqual(['UPLOAD_VERSION']);
    expect(seen.waiting).toBe(2);
  });
});
