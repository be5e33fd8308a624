import { describe, expect, it } from 'vitest';
import type { AssetApi } from '../api/index.js';
import { openStateDb } from '../db/open-state-db.js';
import { uploadJournal } from '../db/upload-journal.js';
import { MemoryFileSystem } from '../local/index.js';
import type { FolderMapper } from './folder-mapper.js';
import { UploadExecutor } from './upload-executor.js';

const ROOT = { id: 'r', path: '/sync', remotePath: '/', publishLive: false };

describe('a new file at a path whose journal holds a version upload', () => {
  it('goes up as its own asset, never as a version of the asset once synced there (seed 95042)', async () => {
    // `A/C/logo.png` (asset-moved) was being sent as a version when its folder was renamed `A2`; the
    // row followed the asset, and the user wrote a new `A/C/logo.png`. Sent to asset-moved, the new
    // file's bytes went on top of the moved file's and the asset synced at both paths.
    const db = openStateDb(':memory:');
    try {
      db.prepare("INSERT INTO roots (id, path, server, remote_path, date_created) VALUES ('r', '/sync', 'http://127.0.0.1:1', '/', 'now')").run();
      const journal = uploadJournal(db);
      const disk = new MemoryFileSystem();
      disk.writeFile('/sync/A/C/logo.png', 'a new file');
      const stat = await disk.lstat('/sync/A/C/logo.png');
      const local = { relPath: 'A/C/logo.png', size: stat.size, mtimeMs: stat.mtimeMs, ino: stat.ino, dev: stat.dev, md5: 'new' };
      // The version's upload was forgotten when its file changed, its asset kept (UploadExecutor.resume).
      journal.begin('r', 'VERSION', 'v', { ...local, ino: stat.ino + 1, md5: 'old' }, 'asset-moved', 'now');

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
      const executor = new UploadExecutor({ api, fs: disk, journal, folders, nowIso: () => 'now', commit: () => Promise.resolve() });

      const [outcome] = await executor.uploadNew(ROOT, [local]);
      expect(outcome?.result.ok).toBe(false);
      expect(sentTo).toEqual([]);
      expect(created).toEqual(['/A/C/logo.png']);
      expect(journal.get('r', 'A/C/logo.png')).toBeUndefined();
    } finally {
      db.close();
    }
  });
});
