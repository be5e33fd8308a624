import { describe, expect, it } from 'vitest';
import { ApiError, type AssetApi } from '../api/index.js';
import type { FolderMapper } from '../remote/folder-mapper.js';
import { PlacementExecutor } from './placement-executor.js';
import type { HashedEntry, SyncedEntry } from './sync-types.js';

const ROOT = { id: 'r', path: '/sync', remotePath: '/', publishLive: false };

describe('a move within a folder', () => {
  /** The names `move` sends for a file moved from `from` to `to`, the service naming its asset `serviceName`. */
  async function renamesTo(from: string, to: string, serviceName: string | undefined, onService = serviceName ?? 'logo.png'): Promise<string[]> {
    const sent: string[] = [];
    const api = {
      changeAsset: (_id: string, change: { filename: string }) => {
        sent.push(change.filename);
        return Promise.resolve({});
      },
      getAsset: (id: string) => {
        sent.push('(asked)');
        return Promise.resolve({ id, currentAssetFile: { filename: onService } });
      },
    } as unknown as AssetApi;
    const moved: SyncedEntry[] = [];
    const executor = new PlacementExecutor({
      api,
      folders: {} as unknown as FolderMapper,
      otherPlacements: () => 0,
      optionsAt: () => [],
      moved: (_root, _from, entry) => moved.push(entry),
      movingAhead: () => undefined,
      moveOff: () => undefined,
      removed: () => undefined,
    });
    const local: HashedEntry = { relPath: to, md5: 'm', size: 1, mtimeMs: 1, ino: 1, dev: 1 };
    expect(await executor.move(ROOT, { kind: 'MOVE', from, to, assetId: 'asset-1', local }, { ...local, relPath: from, assetId: 'asset-1' }, undefined, serviceName)).toBe(true);
    expect(moved.map((entry) => entry.relPath)).toEqual([to]);
    return sent;
  }

  it('renames the asset to the name the user gave', async () => {
    expect(await renamesTo('A/logo.png', 'A/brand.png', 'logo.png')).toEqual(['brand.png']);
    // A number taken off a name the service really has is the user's too.
    expect(await renamesTo('A/logo (2).png', 'A/logo.png', 'logo (2).png')).toEqual(['logo.png']);
    // The service's name not known: the name on disk, as ever, unless it is numbered (below).
    expect(await renamesTo('A/logo.png', 'A/brand.png', undefined)).toEqual(['brand.png']);
    expect(await renamesTo('A/logo.png', 'A/logo (2).png', undefined, 'logo (3).png')).toEqual(['(asked)', 'logo (2).png']);
  });

  it("never sends a name that is only this disk's spelling of the service's (seed 101150)", async () => {
    // The engine numbered the file apart from a namesake, and a crash lost the record: read next as a
    // move, the number became the asset's name for everyone.
    expect(await renamesTo('A/logo.png', 'A/logo (2).png', 'logo.png')).toEqual([]);
    // The listing behind on the asset: the service is asked (seed 102656).
    expect(await renamesTo('A', 'A (2)', undefined, 'A')).toEqual(['(asked)']);
  });
});

describe('a restoring move finished after a crash (resumeMove)', () => {
  const FIELD = 'folders';
  /** An executor over an asset the service holds as `asset`, options named for their directories; what it sends, and the rows it records. */
  function resuming(asset: { state: string; filed: string[]; filename: string } | undefined) {
    const sent: string[] = [];
    const recorded: SyncedEntry[] = [];
    const letGo: string[] = [];
    const api = {
      getAsset: (id: string) =>
        asset === undefined
          ? Promise.reject(new ApiError({ code: 'NOT_FOUND', status: 404, method: 'GET', path: `/assets/${id}`, message: 'No such asset.' }))
          : Promise.resolve({ id, lifecycleStatus: { state: asset.state }, metadata: { values: { [FIELD]: asset.filed } }, currentAssetFile: { filename: asset.filename } }),
      editMetadata: (_selector: unknown, updates: { operation: string; values: string[] }[]) => {
        sent.push(...updates.map((update) => `${update.operation} ${update.values.join(',')}`));
        return Promise.resolve({ failures: {} });
      },
      changeAsset: (_id: string, change: { filename: string }) => {
        sent.push(`rename ${change.filename}`);
        return Promise.resolve({});
      },
    } as unknown as AssetApi;
    const folders = {
      fieldId: () => Promise.resolve(FIELD),
      optionFor: (_root: unknown, relDir: string) => Promise.resolve(`option-${relDir}`),
      inRoot: (_root: unknown, option: string) => Promise.resolve(option.startsWith('option-')),
    } as unknown as FolderMapper;
    const executor = new PlacementExecutor({
      api,
      folders,
      otherPlacements: () => 0,
      optionsAt: () => [],
      moved: (_root, _from, entry) => void recorded.push(entry),
      movingAhead: () => undefined,
      moveOff: (_root, from) => void letGo.push(from),
      removed: () => undefined,
    });
    const local: HashedEntry = { relPath: 'A/C/logo.png', md5: 'mine', size: 4, mtimeMs: 2, ino: 5, dev: 1 };
    const previous: SyncedEntry = { relPath: 'A/b.txt', md5: 'binned', size: 6, mtimeMs: 1, ino: 5, dev: 1, assetId: 'asset-1' };
    const resume = () => executor.resumeMove(ROOT, { from: 'A/b.txt', assetId: 'asset-1', local, restore: true }, previous);
    return { resume, sent, recorded, letGo };
  }

  it('files the asset where the file went, renames it, and records the row there at the asset\'s bytes', async () => {
    // Died after the transition: live, still filed in A under its old name.
    const { resume, sent, recorded, letGo } = resuming({ state: 'LIVE', filed: ['option-A'], filename: 'b.txt' });
    expect(await resume()).toBe('MOVED');
    expect(sent).toEqual(['REMOVE option-A', 'ADD option-A/C', 'rename logo.png']);
    expect(recorded).toEqual([{ relPath: 'A/C/logo.png', md5: 'binned', size: 4, mtimeMs: 2, ino: 5, dev: 1, assetId: 'asset-1' }]);
    expect(letGo).toEqual([]);
  });

  it('sends no rename the service made already (died after it)', async () => {
    const { resume, sent } = resuming({ state: 'LIVE', filed: ['option-A/C'], filename: 'logo.png' });
    expect(await resume()).toBe('MOVED');
    expect(sent).toEqual(['REMOVE option-A', 'ADD option-A/C']);
  });

  it('lets go, sending nothing, of an asset that never came back, went again, or is filed outside the root', async () => {
    for (const asset of [{ state: 'BINNED', filed: ['option-A'], filename: 'b.txt' }, undefined, { state: 'LIVE', filed: ['elsewhere'], filename: 'b.txt' }]) {
      const { resume, sent, recorded, letGo } = resuming(asset);
      expect(await resume()).toBe('OFF');
      expect({ sent, recorded, letGo }).toEqual({ sent: [], recorded: [], letGo: ['A/b.txt'] });
    }
  });
});
