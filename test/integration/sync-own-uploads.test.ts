/**
 * The engine's own uploads are not remote news (DESIGN.md §3): the completion's answer is the asset as
 * the service holds it, so the remote snapshot takes it as it is, and the folders the upload created
 * join the stored tree from the folder mapper. Nothing is asked again: no search for the new assets by
 * id, no look at the new folders' parents, no walk of the tree. The state that results is the same a
 * full listing finds.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AssetApi } from '../../src/main/api/index.js';
import { remoteRepo } from '../../src/main/db/remote-repo.js';
import { startSyncHarness } from '../support/sync-harness.js';
import { startTestService, type TestService } from '../support/test-service.js';
import { client } from '../support/two-way.js';

describe("the engine's own uploads", () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService();
  });
  afterAll(async () => {
    await service.dispose();
  });

  it('reach the remote snapshot from the completion answers, new folders included, without reading them back', async () => {
    const calls = { searchesById: 0, optionLookups: 0, treeListings: 0, completions: 0 };
    let counting = false;
    const record = (api: AssetApi): AssetApi => {
      const wrapped: AssetApi = Object.create(api) as AssetApi;
      wrapped.searchAssets = (request) => {
        if (counting && JSON.stringify(request.criterion).includes('"ASSET_ID"')) calls.searchesById++;
        return api.searchAssets(request);
      };
      // Each file is one part, and its PUT completes it: no separate completion request.
      wrapped.completeUpload = (completion) => {
        calls.completions++;
        return api.completeUpload(completion);
      };
      wrapped.getFieldOption = (id) => {
        if (counting) calls.optionLookups++;
        return api.getFieldOption(id);
      };
      wrapped.listFieldOptionChildren = (fieldId, parentId) => {
        // The folder mapper looks children up before it creates a folder; only walks after the uploads count.
        if (counting) calls.treeListings++;
        return api.listFieldOptionChildren(fieldId, parentId);
      };
      return wrapped;
    };
    const me = client(await startSyncHarness(service, { remotePath: '/Own', wrapApi: record }));
    try {
      me.write('top.txt', 'top');
      me.write('Brand/logo.svg', '<svg/>');
      me.write('Brand/Print/poster.pdf', 'poster');
      const first = await me.h.engine.syncOnce({
        onReport: (report) => {
          // From the pass that uploaded on, nothing about our own assets may be asked again.
          if (report.uploaded > 0) counting = true;
        },
      });
      expect(first.converged).toBe(true);
      expect(first.reports.reduce((sum, report) => sum + report.uploaded, 0)).toBe(3);
      expect(calls).toEqual({ searchesById: 0, optionLookups: 0, treeListings: 0, completions: 0 });

      const repo = remoteRepo(me.h.db);
      const rootId = me.h.engine.roots()[0]?.id ?? '';
      const learned = {
        folders: repo.folders(rootId).map((row) => [row.relDir, row.value]),
        assets: repo.assets(rootId).map((row) => [row.filename, row.md5]).sort(),
      };
      expect(learned.folders).toEqual([
        ['Brand', 'Brand'],
        ['Brand/Print', 'Print'],
      ]);
      expect(learned.assets).toHaveLength(3);

      // A second client's full listing finds what the answers said: the same folders, parents and files.
      const before = repo.folders(rootId);
      const again = await startSyncHarness(service, { remotePath: '/Own' });
      try {
        expect((await again.once()).converged).toBe(true);
        const fresh = remoteRepo(again.db);
        const freshRoot = again.engine.roots()[0]?.id ?? '';
        expect(fresh.folders(freshRoot)).toEqual(before);
        expect(fresh.assets(freshRoot).map((row) => [row.filename, row.md5]).sort()).toEqual(learned.assets);
      } finally {
        await again.dispose();
      }
    } finally {
      await me.h.dispose();
    }
  });
});
