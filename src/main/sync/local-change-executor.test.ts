import { describe, expect, it } from 'vitest';
import { LocalError, MemoryFileSystem, memoryLocalDisk } from '../local/index.js';
import { LocalChangeExecutor } from './local-change-executor.js';
import type { Operation } from './sync-types.js';

const ROOT = { id: 'r', path: '/sync', remotePath: '/', publishLive: false };

/** An executor over a memory disk holding `a.txt`, and the service's move of it to `to`. */
async function moving(to: string, prepare: (disk: MemoryFileSystem) => void) {
  const disk = new MemoryFileSystem();
  disk.writeFile('/sync/a.txt', 'the file');
  prepare(disk);
  const stat = await disk.lstat('/sync/a.txt');
  const moved: string[] = [];
  const executor = new LocalChangeExecutor({
    fs: disk,
    disk: memoryLocalDisk(disk),
    trash: async () => {},
    nowIso: () => 'now',
    moved: (_rootId, from, local) => moved.push(`${from} -> ${local.relPath}`),
    removed: () => {},
    addConflict: () => 0,
    dropConflict: () => {},
    copied: () => {},
    putSynced: () => {},
    deleteSynced: () => {},
    atomically: (work) => work(),
    landed: () => {},
  });
  const local = { relPath: 'a.txt', size: stat.size, mtimeMs: stat.mtimeMs, ino: stat.ino, dev: stat.dev, md5: 'm' };
  const op: Extract<Operation, { kind: 'LOCAL_MOVE' }> = { kind: 'LOCAL_MOVE', from: 'a.txt', to, syncedPath: 'a.txt', assetId: 'asset-a', local, md5: 'm' };
  return { disk, moved, run: () => executor.move(ROOT, op) };
}

describe('the service\'s move of a file onto a folder on disk', () => {
  it('takes the place of a folder holding only empty folders', async () => {
    const { disk, moved, run } = await moving('A2/C', (memory) => memory.mkdirpSync('/sync/A2/C/empty'));
    await run();
    expect(disk.readText('/sync/A2/C')).toBe('the file');
    expect(moved).toEqual(['a.txt -> A2/C']);
  });

  it('waits, reported blocked, beside a folder with files in it: never removed, never retried as news (seed 87154)', async () => {
    // Read as "appeared on disk since the plan", the move was planned and refused again on every pass.
    const { disk, moved, run } = await moving('A2/C', (memory) => memory.writeFile('/sync/A2/C/c (conflict 2026-01-01 001047).txt', 'mine'));
    const refused = await run().then(() => undefined, (error: unknown) => error);
    expect(refused).toBeInstanceOf(LocalError);
    expect(refused).toMatchObject({ code: 'PATH_BLOCKED', message: expect.stringContaining('A2/C is a folder with files in it') as unknown });
    expect(disk.readText('/sync/A2/C/c (conflict 2026-01-01 001047).txt')).toBe('mine');
    expect(disk.readText('/sync/a.txt')).toBe('the file');
    expect(moved).toEqual([]);
  });
});
