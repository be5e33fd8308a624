/**
 * An upload the service completed although its answer never came (a one-part PUT completes itself;
 * the process died before it heard back), then the file's folder renamed before the engine ran again
 * (simulation seed 1128). The restart records the completed upload where it was sent, so the rename
 * is a move of that asset: one asset, at the new path, and nothing downloaded back to the old one.
 */
import { renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AssetApi } from '../../src/main/api/index.js';
import { NodeFileSystem } from '../../src/main/local/index.js';
import { startSyncHarness } from '../support/sync-harness.js';
import { DenyingFileSystem } from '../support/denying-file-system.js';
import { startTestService, type TestService } from '../support/test-service.js';
import { client, colleague } from '../support/two-way.js';
import { md5Hex } from '../support/checksums.js';

/** An API whose first PUT lands (completing a one-part upload) while its answer never arrives; `puts` counts the PUTs. */
function losingFirstAnswer(): { wrap: (api: AssetApi) => AssetApi; puts: () => number } {
  let puts = 0;
  const wrap = (api: AssetApi): AssetApi => {
    const wrapped: AssetApi = Object.create(api) as AssetApi;
    wrapped.putPart = async (request) => {
      const answer = await api.putPart(request);
      if (puts++ === 0) throw new Error('the connection dropped before the answer came');
      return answer;
    };
    return wrapped;
  };
  return { wrap, puts: () => puts };
}

describe('an upload completed on the service whose answer was lost', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService();
  });
  afterAll(async () => {
    await service.dispose();
  });

  it('is the asset its file keeps when the file moves before the restart', async () => {
    const losing = losingFirstAnswer();
    const first = await startSyncHarness(service, { remotePath: '/Lost', wrapApi: losing.wrap });
    let current = first;
    const me = client(first);
    try {
      me.write('B/a.txt', 'written once');
      await me.once();
      expect(losing.puts()).toBe(1);
      const sent = await first.assets();
      expect(sent.map(({ path, checksum }) => ({ path, sent: checksum !== undefined }))).toEqual([{ path: '/Lost/B/a.txt', sent: true }]);

      renameSync(join(first.folder, 'B'), join(first.folder, 'A2'));
      current = await first.restart();
      const again = client(current);
      const result = await again.once();
      expect(result.converged).toBe(true);
      expect(again.tree()).toEqual({ 'A2/a.txt': 'written once' });
      expect((await first.assets()).map(({ path, id }) => ({ path, id }))).toEqual([{ path: '/Lost/A2/a.txt', id: sent[0]?.id }]);
    } finally {
      await current.dispose();
    }
  });
  it('is recorded by the restart that finds it completed, not sent again as a second version', async () => {
    const losing = losingFirstAnswer();
    const first = await startSyncHarness(service, { remotePath: '/Resumed', wrapApi: losing.wrap });
    let current = first;
    try {
      client(first).write('a.txt', 'written once');
      await client(first).once();
      expect(losing.puts()).toBe(1);
      current = await first.restart();
      // The journal still holds the upload: the restart resumes it and the service says it is completed.
      expect((await client(current).once()).converged).toBe(true);
      const [asset, ...others] = (await current.assets()).filter(({ path }) => path.startsWith('/Resumed/'));
      expect(others).toEqual([]);
      expect((await service.api('GET', `/assets/${asset?.id ?? ''}/files`)).body.results).toHaveLength(1);
      expect(losing.puts()).toBe(1);
    } finally {
      await current.dispose();
    }
  });
  it('gives way to a version a colleague put on top before the restart, not sent again over it (simulation seed 1115)', async () => {
    const losing = losingFirstAnswer();
    const first = await startSyncHarness(service, { remotePath: '/Superseded', wrapApi: losing.wrap });
    let current = first;
    try {
      client(first).write('a.txt', 'written once');
      await client(first).once();
      expect(losing.puts()).toBe(1);
      const [sent] = (await first.assets()).filter(({ path }) => path.startsWith('/Superseded/'));
      await colleague(service, first.api).newVersion(sent?.id ?? '', "the colleague's version");

      current = await first.restart();
      const again = client(current);
      expect((await again.once()).converged).toBe(true);
      expect(again.tree()).toEqual({ 'a.txt': "the colleague's version" });
      // Ours, then the colleague's: ours was not sent again as a third.
      expect((await service.api('GET', `/assets/${sent?.id ?? ''}/files`)).body.results).toHaveLength(2);
      expect((await current.assets()).filter(({ path }) => path.startsWith('/Superseded/')).map(({ id, checksum }) => ({ id, checksum }))).toEqual([
        { id: sent?.id, checksum: md5Hex("the colleague's version") },
      ]);
    } finally {
      await current.dispose();
    }
  });
  it('is not sent over a colleague\'s version when the file cannot be read to tell whether it landed (simulation seed 84002)', async () => {
    const losing = losingFirstAnswer();
    const first = await startSyncHarness(service, { remotePath: '/Unreadable', wrapApi: losing.wrap });
    let current = first;
    try {
      client(first).write('a.txt', 'written once');
      await client(first).once();
      expect(losing.puts()).toBe(1);
      const [sent] = (await first.assets()).filter(({ path }) => path.startsWith('/Unreadable/'));
      await colleague(service, first.api).newVersion(sent?.id ?? '', "the colleague's version");
      const versions = async (): Promise<number> => ((await service.api('GET', `/assets/${sent?.id ?? ''}/files`)).body.results as unknown[]).length;

      // The restarted engine's first read of the file is refused (a permission, a lock), then allowed.
      first.engine.close();
      first.api.close();
      const denying = new DenyingFileSystem(new NodeFileSystem());
      const open = denying.openRead;
      denying.openRead = async (path) => {
        try {
          return await open(path);
        } finally {
          denying.allow(path);
        }
      };
      denying.deny(join(first.folder, 'a.txt'));
      current = await startSyncHarness(service, { remotePath: '/Unreadable', folder: first.folder, stateDir: first.stateDir, fs: denying });
      const refused = await client(current).once();
      expect(refused.converged).toBe(false);
      expect(current.engine.store.status().flatMap((root) => root.notSynced.map((issue) => issue.reason))).toEqual(['FILE_UNREADABLE']);
      // Not "it did not land, send it again": ours and the colleague's, no third.
      expect(await versions()).toBe(2);

      // The backoff over (the file readable again): the resume goes on where it stopped. Recorded at our
      // bytes, the colleague's version comes down; still two versions, and no conflict.
      current.db.prepare('UPDATE not_synced SET retry_at = 0').run();
      expect((await client(current).once()).converged).toBe(true);
      expect(client(current).tree()).toEqual({ 'a.txt': "the colleague's version" });
      expect(await versions()).toBe(2);
    } finally {
      await current.dispose();
    }
  });
  it('is recorded in the same pass when the retried PUT finds the upload completed, so a rename moves it (simulation seed 1312)', async () => {
    let lost = 0;
    const retrying = (api: AssetApi): AssetApi => {
      const wrapped: AssetApi = Object.create(api) as AssetApi;
      wrapped.putPart = async (request) => {
        // The first PUT lands (and completes the one-part upload); its answer is lost and the retry
        // is answered 409 UPLOAD_ALREADY_COMPLETED.
        if (lost++ === 0) await api.putPart(request);
        return api.putPart(request);
      };
      return wrapped;
    };
    const sync = await startSyncHarness(service, { remotePath: '/Retried', wrapApi: retrying });
    const me = client(sync);
    try {
      me.write('B/a.txt', 'written once');
      const first = await me.once();
      expect(lost).toBe(1);
      expect(first.converged, JSON.stringify(first.reports)).toBe(true);
      const retried = async (): Promise<{ path: string; id: string }[]> => (await sync.assets()).filter(({ path }) => path.startsWith('/Retried/')).map(({ path, id }) => ({ path, id }));
      const [sent] = await retried();
      expect(sent?.path).toBe('/Retried/B/a.txt');

      renameSync(join(sync.folder, 'B'), join(sync.folder, 'A2'));
      expect((await me.once()).converged).toBe(true);
      expect(me.tree()).toEqual({ 'A2/a.txt': 'written once' });
      expect(await retried()).toEqual([{ path: '/Retried/A2/a.txt', id: sent?.id }]);
    } finally {
      await sync.dispose();
    }
  });

  it('is recorded by the restart when the file changed since, its new bytes a version of that asset (simulation seeds 73425, 74372)', async () => {
    const losing = losingFirstAnswer();
    const first = await startSyncHarness(service, { remotePath: '/Rewritten', wrapApi: losing.wrap });
    let current = first;
    try {
      client(first).write('B/a.txt', 'written once');
      await client(first).once();
      expect(losing.puts()).toBe(1);
      const [sent] = (await first.assets()).filter(({ path }) => path.startsWith('/Rewritten/'));
      expect(sent?.checksum).toBe(md5Hex('written once'));

      // Rewritten before the restart: the resume finds another file than the one it was sending.
      client(first).write('B/a.txt', 'written twice, later');
      current = await first.restart();
      const again = client(current);
      expect((await again.once()).converged).toBe(true);
      expect((await again.once()).converged).toBe(true);
      expect(again.tree()).toEqual({ 'B/a.txt': 'written twice, later' });
      expect((await current.assets()).filter(({ path }) => path.startsWith('/Rewritten/')).map(({ path, id, checksum }) => ({ path, id, checksum }))).toEqual([
        { path: '/Rewritten/B/a.txt', id: sent?.id, checksum: md5Hex('written twice, later') },
      ]);
    } finally {
      await current.dispose();
    }
  });

  it('gives way to a colleague\'s version on top when the file changed before the restart: a conflict, not sent over it', async () => {
    const losing = losingFirstAnswer();
    const first = await startSyncHarness(service, { remotePath: '/Both', wrapApi: losing.wrap });
    let current = first;
    try {
      client(first).write('a.txt', 'written once');
      await client(first).once();
      expect(losing.puts()).toBe(1);
      const [sent] = (await first.assets()).filter(({ path }) => path.startsWith('/Both/'));
      await colleague(service, first.api).newVersion(sent?.id ?? '', "the colleague's version");
      client(first).write('a.txt', 'written twice, later');

      current = await first.restart();
      const again = client(current);
      // Synced at the bytes the lost upload sent, both sides changed since: the conflict rule keeps both.
      expect((await again.once()).reports.reduce((sum, report) => sum + report.conflicts, 0)).toBe(1);
      const tree = again.tree();
      expect(tree['a.txt']).toBe("the colleague's version");
      expect(Object.entries(tree).filter(([path]) => /^a \(conflict .+\)\.txt$/.test(path)).map(([, content]) => content)).toEqual(['written twice, later']);
      // Ours, then the colleague's: the rewritten file did not go up over it as a third.
      expect((await service.api('GET', `/assets/${sent?.id ?? ''}/files`)).body.results).toHaveLength(2);
    } finally {
      await current.dispose();
    }
  });

  it("keeps a colleague's version on top when the file was deleted before the restart: the edit wins over the deletion", async () => {
    const losing = losingFirstAnswer();
    const first = await startSyncHarness(service, { remotePath: '/Deleted', wrapApi: losing.wrap });
    let current = first;
    try {
      client(first).write('a.txt', 'written once');
      await client(first).once();
      expect(losing.puts()).toBe(1);
      const [sent] = (await first.assets()).filter(({ path }) => path.startsWith('/Deleted/'));
      await colleague(service, first.api).newVersion(sent?.id ?? '', "the colleague's version");
      rmSync(join(first.folder, 'a.txt'));

      current = await first.restart();
      const again = client(current);
      expect((await again.once()).converged).toBe(true);
      // Synced at the bytes the lost upload sent, the deletion meets the colleague's edit: the edit wins.
      // Synced at the colleague's bytes (the asset's current file), the deletion binned them.
      expect(again.tree()).toEqual({ 'a.txt': "the colleague's version" });
      expect((await current.assets()).filter(({ path }) => path.startsWith('/Deleted/')).map(({ id, checksum }) => ({ id, checksum }))).toEqual([
        { id: sent?.id, checksum: md5Hex("the colleague's version") },
      ]);
    } finally {
      await current.dispose();
    }
  });
});
