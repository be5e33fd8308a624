import { describe, expect, it } from 'vitest';
import type { ActivityEntry } from '../../shared/bridge/app-events.js';
import { foldActivity } from './fold-activity.js';

const entry = (id: number, status: ActivityEntry['status'], bytesDone = 0): ActivityEntry => ({
  id, folderId: 'f', relPath: `${id}.txt`, kind: 'upload', status, from: null, bytesDone, bytesTotal: null, at: '', error: null,
});

describe('folding a frame of activity events into the list', () => {
  it('shows a new entry as its last event says: added, moved on and done in one frame reads done', () => {
    const folded = foldActivity([entry(1, 'done', 5)], () => undefined, [entry(9, 'running'), entry(9, 'running', 16), entry(9, 'done', 16), entry(10, 'running'), entry(10, 'done', 17)]);
    expect(folded?.map(({ id, status, bytesDone }) => [id, status, bytesDone])).toEqual([[10, 'done', 17], [9, 'done', 16], [1, 'done', 5]]);
  });

  it('replaces a known entry in place, and answers nothing new', () => {
    const entries = [entry(2, 'running'), entry(1, 'done')];
    expect(foldActivity(entries, (id) => (id === 2 ? 0 : id === 1 ? 1 : undefined), [entry(2, 'running', 3), entry(2, 'done', 8)])).toBeUndefined();
    expect(entries[0]).toMatchObject({ id: 2, status: 'done', bytesDone: 8 });
  });
});
