import { describe, expect, it } from 'vitest';
import { LocalError, MemoryFileSystem, memoryLocalDisk } from '../local/index.js';
import type { Landing } from '../db/landing-journal.js';
import { LocalChangeExecutor, type LocalChangeDeps } from './local-change-executor.js';
import { landedRecord, recoverLandings } from './recover-landings.js';
import type { Operation } from './sync-types.js';

const ROOT = { id: 'r', path: '/sync', remotePath: '/', publishLive: false };

/** The executor's dependencies over `disk`, each doing nothing unless `overrides` says otherwise. */
function depsOver(disk: MemoryFileSystem, overrides: Partial<LocalChangeDeps>): LocalChangeDeps {
  return {
    fs: disk,
    disk: memoryLocalDisk(disk),
    trash: async () => {},
    nowIso: () => 'now',
    moved: () => {},
    removed: () => {},
    addConflict: () => 0,
    dropConflict: () => {},
    copied: () => {},
    putSynced: () => {},
    deleteSynced: () => {},
    outlives: () => {},
    atomically: (work) => work(),
    landed: () => {},
    landings: { landing: () => {}, finish: () => {} },
    ...overrides,
  };
}

/** An executor over a memory disk holding `a.txt`, and the service's move of it to `to`. */
async function moving(to: string, prepare: (disk: MemoryFileSystem) => void) {
  const disk = new MemoryFileSystem();
  disk.writeFile('/sync/a.txt', 'the file');
  prepare(disk);
  const stat = await disk.lstat('/sync/a.txt');
  const moved: string[] = [];
  const executor = new LocalChangeExecutor(depsOver(disk, { moved: (_rootId, from, local) => moved.push(`${from} -> ${local.relPath}`) }));
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

/** An executor over `disk` that writes its moves' landings to `journal`, recording a move by `moved`. */
function journaled(disk: MemoryFileSystem, journal: Map<string, Landing>, moved: () => void): LocalChangeExecutor {
  return new LocalChangeExecutor(
    depsOver(disk, {
      moved,
      landings: { landing: (_rootId, landing) => void journal.set(landing.local.relPath, landing), finish: (_rootId, relPath) => void journal.delete(relPath) },
    }),
  );
}

describe('the service\'s move of a file, and a crash before its record', () => {
  it('is written ahead of its rename, so the restart records the file where it went (seeds 100767, 101094)', async () => {
    // The service named the asset café.txt beside a namesake: `A/c.txt` → `A/café (2).txt` here. The
    // process died after the rename, before the record; then the user edited the moved file and wrote
    // a new `A/c.txt`. With the synced row still at `A/c.txt`, the new file read as the asset's edit
    // and the moved one as a new file, uploaded as a second asset named `café (2).txt`.
    const disk = new MemoryFileSystem();
    disk.writeFile('/sync/A/c.txt', 'the file');
    const stat = await disk.lstat('/sync/A/c.txt');
    const journal = new Map<string, Landing>();
    const executor = journaled(disk, journal, () => {
      throw new Error('crashed before the commit');
    });
    // Edited here since it synced (`md5` the synced bytes', `local.md5` the file's).
    const local = { relPath: 'A/c.txt', size: stat.size, mtimeMs: stat.mtimeMs, ino: stat.ino, dev: stat.dev, md5: 'file' };
    const op: Extract<Operation, { kind: 'LOCAL_MOVE' }> = { kind: 'LOCAL_MOVE', from: 'A/c.txt', to: 'A/café (2).txt', syncedPath: 'A/c.txt', assetId: 'asset-x', local, md5: 'synced' };
    await expect(executor.move(ROOT, op)).rejects.toThrow('crashed before the commit');
    expect([...journal.keys()]).toEqual(['A/café (2).txt']);

    // Before the restart: the moved file edited, a new one at the old name.
    disk.writeFile('/sync/A/café (2).txt', 'the file, edited');
    disk.writeFile('/sync/A/c.txt', 'a new file');
    const scan = new Map(await Promise.all(['A/c.txt', 'A/café (2).txt'].map(async (relPath) => {
      const now = await disk.lstat(`/sync/${relPath}`);
      return [relPath, { relPath, size: now.size, mtimeMs: now.mtimeMs, ino: now.ino, dev: now.dev, md5: null }] as const;
    })));
    const recorded: Landing[] = [];
    const settled = await recoverLandings('r', () => ({ local: scan, pending: new Map(), unstable: new Set() }), {
      fs: disk,
      unrecorded: () => [...journal.values()],
      dropped: (_rootId, relPath) => void journal.delete(relPath),
      recorded: (_rootId, landed) => void recorded.push(...landed),
    });
    expect(settled).toBe(1);
    // Recorded as the lost record would have: the synced row leaves `A/c.txt` for where the file went,
    // with the synced bytes (the edit is the planner's to see); the new `A/c.txt` is a new file.
    expect(recorded.map((landing) => [landing.moved?.from, landedRecord(landing)])).toEqual([['A/c.txt', { ...local, relPath: 'A/café (2).txt', md5: 'synced', assetId: 'asset-x' }]]);
  });

  it('is finished with its record, or when its rename fails', async () => {
    // A disk whose renames of `b.txt` fail.
    const disk = new (class extends MemoryFileSystem {
      override rename(from: string, to: string): Promise<void> {
        return from.endsWith('/b.txt') ? Promise.reject(new Error('EIO: rename failed')) : super.rename(from, to);
      }
    })();
    disk.writeFile('/sync/a.txt', 'the file');
    disk.writeFile('/sync/b.txt', 'another');
    const journal = new Map<string, Landing>();
    const moves: string[] = [];
    const executor = journaled(disk, journal, () => {
      moves.push(`recorded with ${[...journal.keys()].join()}`);
      journal.clear();
    });
    const op = async (from: string, to: string): Promise<Extract<Operation, { kind: 'LOCAL_MOVE' }>> => {
      const stat = await disk.lstat(`/sync/${from}`);
      return { kind: 'LOCAL_MOVE', from, to, syncedPath: from, assetId: 'asset-a', local: { relPath: from, size: stat.size, mtimeMs: stat.mtimeMs, ino: stat.ino, dev: stat.dev, md5: 'm' }, md5: 'm' };
    };
    await executor.move(ROOT, await op('a.txt', 'A/a.txt'));
    expect(moves).toEqual(['recorded with A/a.txt']);
    await expect(executor.move(ROOT, await op('b.txt', 'B/b.txt'))).rejects.toThrow('rename failed');
    expect(moves).toEqual(['recorded with A/a.txt']);
    expect(journal.size).toBe(0);
  });
});

describe('letting go of synced rows', () => {
  it('records a file that outlives its binned asset in the transaction that forgets its row (seed 102721)', () => {
    const calls: string[] = [];
    let inTransaction = false;
    const executor = new LocalChangeExecutor(
      depsOver(new MemoryFileSystem(), {
        atomically: (work) => {
          inTransaction = true;
          work();
          inTransaction = false;
        },
        deleteSynced: (_rootId, relPath) => calls.push(`forget ${relPath} ${String(inTransaction)}`),
        outlives: (_rootId, relPath, assetId) => calls.push(`outlives ${relPath} ${assetId} ${String(inTransaction)}`),
      }),
    );
    executor.rebind(ROOT, [
      { kind: 'FORGET', relPath: 'a (2).txt', assetId: 'binned', outlived: true },
      { kind: 'FORGET', relPath: 'gone.txt', assetId: 'asset-g' },
    ]);
    expect(calls).toEqual(['forget a (2).txt true', 'outlives a (2).txt binned true', 'forget gone.txt true']);
  });
});
