import { describe, expect, it } from 'vitest';
import type { AssetApi } from '../api/index.js';
import type { FolderMapper } from './folder-mapper.js';
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
