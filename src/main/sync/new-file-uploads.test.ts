import { describe, expect, it } from 'vitest';
import { ApiError } from '../api/api-error.js';
import type { AssetApi } from '../api/index.js';
import type { FolderMapper } from '../remote/folder-mapper.js';
import { UploadExecutor } from './upload-executor.js';
import { JOURNAL_ROOT, withJournalledFile } from '../../../test/support/upload-journal-fixture.js';


describe('a new file at a path whose journal holds a version upload', () => {
  it('goes up as its own asset, never as a version of the asset once synced there (seed 95042)', async () => {
    // `A/C/logo.png` (asset-moved) was being sent as a version when its folder was renamed `A2`; the
    // row followed the asset, and the user wrote a new `A/C/logo.png`. Sent to asset-moved, the new
    // file's bytes went on top of the moved file's and the asset synced at both paths.
    await withJournalledFile('A/C/logo.png', 'a new file', 'new', async ({ journal, disk, local }) => {
      // The version's upload was forgotten when its file changed, its asset kept (UploadExecutor.resume).
      journal.begin('r', 'VERSION', 'v', { ...local, ino: local.ino + 1, md5: 'old' }, 'asset-moved', 'now');

      const sentTo: string[] = [];
      const created: string[] = [];
      const api = {
        createUpload: (item: { assetId: string }) => {
          sentTo.push(item.assetId);
          return Promise.reject(new Error('no upload in this test'));
        },
        createAssetsWithUploads: (items: { path: string }[]) => {
          created.push(...items.map((item) => item.path));
          return Promise.resolve({ successes: {}, failures: { f0: new Error('no asset in this test') } });
        },
      } as unknown as AssetApi;
      const folders = { optionFor: () => Promise.resolve('option-C') } as unknown as FolderMapper;
      const executor = new UploadExecutor({ api, fs: disk, journal, folders, nowIso: () => 'now', commit: () => Promise.resolve(), syncedAt: () => undefined });

      const [outcome] = await executor.uploadNew(JOURNAL_ROOT, [local]);
      expect(outcome?.result.ok).toBe(false);
      expect(sentTo).toEqual([]);
      expect(created).toEqual(['/A/C/logo.png']);
      expect(journal.get('r', 'A/C/logo.png')).toBeUndefined();
    });
  });
});

describe('the path a new file goes up under', () => {
  /**
   * The paths the batch job is asked to make assets at for a new file at `relPath` that outlives the
   * binned asset `outlived` (none: undefined), which the service names `binnedName` (deleted for good: undefined).
   */
  async function newPaths(relPath: string, outlived: string | undefined, binnedName: string | undefined): Promise<{ paths: string[]; asked: number }> {
    return withJournalledFile(relPath, 'mine', 'mine', async ({ journal, disk, local }) => {
      const paths: string[] = [];
      let asked = 0;
      const api = {
        getAsset: (id: string) => {
          asked++;
          if (binnedName === undefined) return Promise.reject(new ApiError({ code: 'NOT_FOUND', message: 'deleted for good' }));
          return Promise.resolve({ id, currentAssetFile: { checksum: 'binned', filename: binnedName }, lifecycleStatus: { state: 'BINNED' }, metadata: { values: {} } });
        },
        createAssetsWithUploads: (items: readonly { path: string }[]) => {
          paths.push(...items.map((item) => item.path));
          return Promise.reject(new ApiError({ code: 'VALIDATION', message: 'no job in this test' }));
        },
      } as unknown as AssetApi;
      const folders = { optionFor: () => Promise.resolve(null) } as unknown as FolderMapper;
      const executor = new UploadExecutor({ api, fs: disk, journal, folders, nowIso: () => 'now', commit: () => Promise.resolve(), syncedAt: () => undefined, outlived: () => new Map(outlived === undefined ? [] : [[relPath, outlived]]) });
      await executor.uploadNew({ ...JOURNAL_ROOT, remotePath: '/Brand' }, [local]);
      return { paths, asked };
    });
  }

  it("takes the name of the binned asset the file outlives, where the file's is this disk's spelling of it (seed 102721)", async () => {
    // Sent as `logo (2).png`, the new asset took a number only this disk needed.
    expect(await newPaths('A/logo (2).png', 'binned', 'logo.png')).toEqual({ paths: ['/Brand/A/logo.png'], asked: 1 });
    expect(await newPaths('logo (3).png', 'binned', 'logo.png')).toEqual({ paths: ['/Brand/logo.png'], asked: 1 });
  });

  it('keeps its own name otherwise', async () => {
    expect(await newPaths('A/logo (2).png', undefined, 'logo.png')).toEqual({ paths: ['/Brand/A/logo (2).png'], asked: 0 });
    // Not a spelling of the binned asset's name: the user's own.
    expect(await newPaths('A/brand.png', 'binned', 'logo.png')).toEqual({ paths: ['/Brand/A/brand.png'], asked: 1 });
    expect(await newPaths('A/logo (2).png', 'binned', undefined)).toEqual({ paths: ['/Brand/A/logo (2).png'], asked: 1 });
  });
});
