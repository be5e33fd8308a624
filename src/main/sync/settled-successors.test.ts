import { describe, expect, it } from 'vitest';
import { settledSuccessors } from './settled-successors.js';
import type { SyncedEntry } from './sync-types.js';

const row: SyncedEntry = { relPath: 'synced.txt', assetId: 'a', md5: 'm', size: 1, mtimeMs: 1, ino: 1, dev: 1 };

describe('settledSuccessors', () => {
  it('lets go of a file once its path syncs an asset again or the file is gone, and keeps one still waiting to go up', () => {
    const settled = settledSuccessors({
      outlived: ['synced.txt', 'gone.txt', 'waiting.txt', 'settling.txt', 'unreadable.txt'],
      local: new Map([['synced.txt', {}], ['waiting.txt', {}]]),
      unstable: new Set(['unreadable.txt']),
      pending: new Map([['settling.txt', { size: 1, mtimeMs: 1, ino: 2, dev: 1 }]]),
      synced: new Map([['synced.txt', row]]),
    });
    expect(settled).toEqual(['synced.txt', 'gone.txt']);
  });
});
