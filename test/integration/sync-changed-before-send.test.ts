/**
 * A file that changes between the plan and its part PUT is never sent as the file the upload began
 * with: the PUT checks what it opened (size, mtime, inode on the descriptor; a final symlink is not
 * followed), fails with LOCAL_FILE_CHANGED before a byte leaves, and the engine drops the upload but
 * keeps the asset, so the next pass sends the new content to that same asset (no duplicate).
 */
import { rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AssetApi } from '../../src/main/api/index.js';
import { startSyncHarness } from '../support/sync-harness.js';
import { startTestService, type TestService } from '../support/test-service.js';
import { client, total } from '../support/two-way.js';
import { md5Hex } from '../support/checksums.js';

describe('a file that changes just before its upload sends it', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService();
  });
  afterAll(async () => {
    await service.dispose();
  });

  it('is not sent; its upload is dropped, its asset kept, and the next pass sends the new content to it', async () => {
    let partBytes = 0;
    const changeFirst = new Map<string, (filePath: string) => void>([
      ['brief.txt', (filePath) => writeFileSync(filePath, 'the second draft, a little longer')],
      // Swapped for a symlink to an identical file elsewhere: the link must not be followed.
      [
        'logo.svg',
        (filePath) => {
          const elsewhere = `${filePath}.elsewhere`;
          writeFileSync(elsewhere, '<svg/>');
          rmSync(filePath);
          symlinkSync(elsewhere, filePath);
        },
      ],
    ]);
    const changing = (api: AssetApi): AssetApi => {
      const wrapped: AssetApi = Object.create(api) as AssetApi;
      wrapped.putPart = (request) => {
        const name = [...changeFirst.keys()].find((key) => request.filePath.endsWith(key));
        const change = name === undefined ? undefined : changeFirst.get(name);
        if (name !== undefined && change !== undefined) {
          changeFirst.delete(name);
          change(request.filePath);
        }
        return api.putPart(request).then((answer) => {
          partBytes += request.end - request.start;
          return answer;
        });
      };
      return wrapped;
    };
    const me = client(await startSyncHarness(service, { remotePath: '/Changed', wrapApi: changing }));
    try {
      me.write('brief.txt', 'the first draft');
      me.write('logo.svg', '<svg/>');
      me.write('untouched.txt', 'sent as it is');

      const first = await me.once();
      expect(first.converged).toBe(false);
      expect(total(first, 'uploaded')).toBe(1);
      // Tried again in the same run (a LOCAL_FILE_CHANGED is retried at once), still against the
      // identity the scan recorded: the path is only rescanned by the next run.
      expect(total(first, 'failed')).toBeGreaterThanOrEqual(2);
      expect(partBytes).toBe('sent as it is'.length);
      const issues = me.h.db.prepare('SELECT rel_path, reason FROM not_synced ORDER BY rel_path').all();
      expect(issues).toEqual([
        { rel_path: 'brief.txt', reason: 'LOCAL_FILE_CHANGED' },
        { rel_path: 'logo.svg', reason: 'LOCAL_FILE_CHANGED' },
      ]);
      // The journal keeps the changed file's asset and forgets the upload that was for other bytes. The
      // symlink is no file to send: its upload ends, and the empty asset made for it goes to the bin.
      expect(me.h.db.prepare('SELECT rel_path, asset_id IS NOT NULL AS asset, upload_id, parts FROM uploads ORDER BY rel_path').all()).toEqual([
        { rel_path: 'brief.txt', asset: 1, upload_id: null, parts: '{}' },
      ]);
      expect((await me.h.assets()).filter((asset) => asset.path === '/Changed/logo.svg')).toEqual([]);
      const briefAsset = me.h.db.prepare<[], { asset_id: string }>("SELECT asset_id FROM uploads WHERE rel_path = 'brief.txt'").get()?.asset_id;
      expect((await me.h.api.getAsset(briefAsset ?? '')).currentAssetFile ?? undefined).toBeUndefined();

      const second = await me.once();
      const after = await me.h.assets();
      // The new content went to the asset made for the first; the symlink is reported, never followed.
      expect(after.find((asset) => asset.path === '/Changed/brief.txt')).toMatchObject({ id: briefAsset, checksum: md5Hex(Buffer.from('the second draft, a little longer')) });
      expect(after.filter((asset) => asset.path === '/Changed/brief.txt')).toHaveLength(1);
      expect(total(second, 'uploaded')).toBeGreaterThanOrEqual(1);
      expect(me.h.db.prepare("SELECT reason FROM not_synced WHERE rel_path = 'logo.svg'").all()).toEqual([{ reason: 'SYMLINK' }]);
    } finally {
      await me.h.dispose();
    }
  });
});
