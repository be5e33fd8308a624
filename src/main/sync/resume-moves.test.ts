import { describe, expect, it } from 'vitest';
import type { MoveAhead } from '../db/move-journal.js';
import { resumeMoves } from './resume-moves.js';
import type { SyncedEntry } from './sync-types.js';

const ROOT = { id: 'r', path: '/sync', remotePath: '/', publishLive: false };
const file = { size: 5, mtimeMs: 1, ino: 3, dev: 1 };
const move = (from: string, assetId: string): MoveAhead => ({ from, assetId, local: { ...file, relPath: `E/${from}`, md5: 'mine' }, restore: true });
const row = (relPath: string, assetId: string): SyncedEntry => ({ ...file, relPath, assetId, md5: 'binned' });

describe('resumeMoves', () => {
  it('finishes each move whose synced row is still its asset\'s, and lets go of the others', async () => {
    const journal = [move('a.txt', 'asset-a'), move('b.txt', 'asset-b'), move('c.txt', 'asset-c'), move('d.txt', 'asset-d')];
    // b.txt's row was recorded at its new path after all; c.txt's path syncs another asset by now.
    const synced = new Map([row('a.txt', 'asset-a'), row('c.txt', 'asset-x'), row('d.txt', 'asset-d')].map((entry) => [entry.relPath, entry]));
    const dropped: string[] = [];
    const finished: [string, string][] = [];
    const moved = await resumeMoves(ROOT, {
      unfinished: () => journal,
      syncedAt: (_rootId, relPath) => synced.get(relPath),
      dropped: (_rootId, from) => void dropped.push(from),
      placements: {
        // d.txt's asset is binned again on the service: the executor lets it go.
        resumeMove: (_root, entry, previous) => {
          finished.push([entry.from, previous.md5]);
          return Promise.resolve(entry.assetId === 'asset-d' ? 'OFF' : 'MOVED');
        },
      },
    });
    expect(moved).toEqual(['asset-a']);
    expect(finished).toEqual([['a.txt', 'binned'], ['d.txt', 'binned']]);
    expect(dropped).toEqual(['b.txt', 'c.txt']);
  });

  it('rejects when the service cannot be reached, and lets go of nothing', async () => {
    const dropped: string[] = [];
    const resumed = resumeMoves(ROOT, {
      unfinished: () => [move('a.txt', 'asset-a')],
      syncedAt: () => row('a.txt', 'asset-a'),
      dropped: (_rootId, from) => void dropped.push(from),
      placements: { resumeMove: () => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:9')) },
    });
    await expect(resumed).rejects.toThrow('ECONNREFUSED');
    expect(dropped).toEqual([]);
  });
});
