import { describe, expect, it } from 'vitest';
import type { AssetApi } from '../api/index.js';
import type { FolderMapper } from '../remote/folder-mapper.js';
import { SyncError } from '../model/sync-error.js';
import type { SyncedEntry } from './sync-types.js';
import { UploadExecutor } from './upload-executor.js';
import { JOURNAL_ROOT, withJournalledFile } from '../../../test/support/upload-journal-fixture.js';


describe('a version upload resumed after a restart', () => {
  /**
   * `a.txt`, synced at `basis`, holds the user's `mine`; its version upload was created, and the
   * process died before a byte went. Meanwhile the asset's current file became `current`.
   */
  async function resumeOver(current: string, withUpload: boolean): Promise<{ error: unknown; sent: string[]; entryLeft: boolean }> {
    return withJournalledFile('a.txt', 'mine', 'mine', async ({ journal, disk, local }) => {
      journal.begin('r', 'VERSION', 'v', local, 'asset-1', 'now');
      if (withUpload) journal.uploadCreated('r', 'a.txt', 'asset-1', 'upload-1', 1024);
      const synced: SyncedEntry = { ...local, assetId: 'asset-1', md5: 'basis' };

      const sent: string[] = [];
      const upload = { id: 'u', uploadId: 'upload-1', assetId: 'asset-1', assetFileId: null, size: local.size, partSize: 1024, expiresAt: '', parts: [{ partNumber: 1, url: 'http://parts/1', byteRange: { start: 0, end: local.size } }] };
      const api = {
        getAsset: (id: string) => Promise.resolve({ id, currentAssetFile: { checksum: current }, lifecycleStatus: { state: 'LIVE' }, metadata: { values: {} } }),
        resumeUpload: () => Promise.resolve(upload),
        createUpload: () => Promise.resolve(upload),
        putPart: (part: { url: string }) => {
          sent.push(part.url);
          return Promise.reject(new Error('no part in this test'));
        },
      } as unknown as AssetApi;
      const folders = { optionFor: () => Promise.resolve(null) } as unknown as FolderMapper;
      const executor = new UploadExecutor({ api, fs: disk, journal, folders, nowIso: () => 'now', commit: () => Promise.resolve(), syncedAt: (_root, relPath) => (relPath === 'a.txt' ? synced : undefined) });

      const [outcome] = await executor.resume(JOURNAL_ROOT);
      return { error: outcome?.result.ok === false ? outcome.result.error : undefined, sent, entryLeft: journal.get('r', 'a.txt') !== undefined };
    });
  }

  it('sends nothing over a version another writer put on the asset meanwhile: the planner meets both changes (seed 97171)', async () => {
    // Sent on, the file's bytes went over the colleague's newer version, kept only in the history.
    for (const withUpload of [true, false]) {
      const { error, sent, entryLeft } = await resumeOver('theirs', withUpload);
      expect(sent).toEqual([]);
      expect(error).toBeInstanceOf(SyncError);
      expect((error as SyncError).code).toBe('LOCAL_FILE_CHANGED');
      expect(entryLeft).toBe(false);
    }
  });

  it('goes on when the asset still holds the version the upload was planned over', async () => {
    for (const withUpload of [true, false]) {
      const { sent, entryLeft } = await resumeOver('basis', withUpload);
      expect(sent).toEqual(['http://parts/1']);
      expect(entryLeft).toBe(true);
    }
  });
});

describe('the path a version goes up under', () => {
  /** The paths `uploadVersions` asks uploads for, for a file at `relPath`; the service names the asset `current`. */
  async function versionPaths(relPath: string, serviceName: string | undefined, current = 'from-the-service.png'): Promise<{ paths: string[]; asked: number }> {
    return withJournalledFile(relPath, 'mine', 'mine', async ({ journal, disk, local }) => {
      const paths: string[] = [];
      let asked = 0;
      const api = {
        getAsset: (id: string) => {
          asked++;
          return Promise.resolve({ id, currentAssetFile: { checksum: 'basis', filename: current }, lifecycleStatus: { state: 'LIVE' }, metadata: { values: {} } });
        },
        createUpload: (item: { path: string }) => {
          paths.push(item.path);
          return Promise.reject(new Error('no upload in this test'));
        },
      } as unknown as AssetApi;
      const folders = { optionFor: () => Promise.resolve(null) } as unknown as FolderMapper;
      const executor = new UploadExecutor({ api, fs: disk, journal, folders, nowIso: () => 'now', commit: () => Promise.resolve(), syncedAt: () => undefined });
      await executor.uploadVersions({ ...JOURNAL_ROOT, remotePath: '/Brand' }, [{ assetId: 'asset-1', local, serviceName }]);
      return { paths, asked };
    });
  }

  it("keeps the service's name for a file numbered apart from a namesake on this disk (seed 100767)", async () => {
    // Sent as `logo (2).png`, the version renamed the asset to a number only this disk needed.
    expect(await versionPaths('A/logo (2).png', 'logo.png')).toEqual({ paths: ['/Brand/A/logo.png'], asked: 0 });
    // A name this disk cannot hold, made safe here, stays the service's too.
    expect(await versionPaths('A/a_b.png', 'a:b.png')).toEqual({ paths: ['/Brand/A/a:b.png'], asked: 0 });
    expect(await versionPaths('logo (2).png', 'logo.png')).toEqual({ paths: ['/Brand/logo.png'], asked: 0 });
  });

  it("asks the service for the asset's name when the caller does not know it", async () => {
    expect(await versionPaths('A/logo (2).png', undefined, 'logo.png')).toEqual({ paths: ['/Brand/A/logo.png'], asked: 1 });
  });

  it('sends the file\'s own name when the service has none that could name a file', async () => {
    expect(await versionPaths('A/logo.png', 'a/b.png')).toEqual({ paths: ['/Brand/A/logo.png'], asked: 0 });
    expect(await versionPaths('A/logo.png', undefined, '')).toEqual({ paths: ['/Brand/A/logo.png'], asked: 1 });
  });
});
