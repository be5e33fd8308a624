/**
 * An asset filed in two folders appears once in each (DESIGN.md §3). When a colleague takes it out of
 * one while this user moves that folder's copy elsewhere, the move wins as it does over a removal of
 * the whole asset: the asset is filed where the copy went, and keeps its other folder. Read as a
 * listing that is behind (the asset live in the root), the move waited for a read-back that changed
 * nothing, on every pass (found reading simulation seed 95042's fix). Real service on loopback.
 */
import { mkdirSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSyncHarness } from '../support/sync-harness.js';
import { startTestService, type TestService } from '../support/test-service.js';
import { assetAt, client, colleague } from '../support/two-way.js';

describe('a copy of an asset filed in two folders, moved here while the service took it out of that folder', () => {
  let service: TestService;

  beforeAll(async () => {
    service = await startTestService();
  });
  afterAll(async () => {
    await service.dispose();
  });

  it('files the asset where the copy went and keeps its other folder', async () => {
    const h = await startSyncHarness(service, { remotePath: '/TwoFolders' });
    const me = client(h);
    try {
      me.write('A/x.txt', 'one asset, two folders');
      await me.once();
      const asset = await assetAt(h, '/TwoFolders/A/x.txt');
      const web = colleague(service, h.api);
      await web.addFolder(asset, '/TwoFolders/B');
      expect((await me.once()).converged).toBe(true);
      expect(me.tree()).toEqual({ 'A/x.txt': 'one asset, two folders', 'B/x.txt': 'one asset, two folders' });

      mkdirSync(join(h.folder, 'D'));
      renameSync(join(h.folder, 'B', 'x.txt'), join(h.folder, 'D', 'x.txt'));
      await h.api.editMetadata({ type: 'BY_IDS', assetIds: [asset] }, [{ fieldId: await h.api.foldersFieldId(), type: 'BY_IDS', values: [await web.folder('/TwoFolders/B')], operation: 'REMOVE' }]);

      // Waiting, every pass planned the move again and did nothing.
      const passes = (await me.once()).reports;
      expect(passes.reduce((sum, pass) => sum + pass.moved, 0)).toBe(1);
      expect((await h.assets()).filter(({ path }) => path.startsWith('/TwoFolders/')).map(({ path, id }) => ({ path, id }))).toEqual([
        { path: '/TwoFolders/A/x.txt', id: asset },
        { path: '/TwoFolders/D/x.txt', id: asset },
      ]);
      expect(me.tree()).toEqual({ 'A/x.txt': 'one asset, two folders', 'D/x.txt': 'one asset, two folders' });
    } finally {
      await h.dispose();
    }
  });
});
