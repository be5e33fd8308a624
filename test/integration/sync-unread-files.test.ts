/**
 * New files, large and small, are uploaded without being read first (DESIGN.md §3): the scanner only
 * checks them, the upload sends them, and the completion's checksum becomes their MD5 in the local
 * snapshot. When a decision does need the content — a synced file vanished and this one may be it — the
 * file is read before the plan, so a copy-then-delete is still a move and not a second upload.
 */
import { copyFileSync, renameSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { snapshotsRepo } from '../../src/main/db/snapshots-repo.js';
import type { AssetApi } from '../../src/main/api/index.js';
import { startSyncHarness } from '../support/sync-harness.js';
import { startTestService, type TestService } from '../support/test-service.js';
import { client, colleague, total } from '../support/two-way.js';
import { MiB, randomFile } from '../support/upload-helpers.js';
import { md5Hex } from '../support/checksums.js';

describe('new files the engine uploads unread', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService();
  });
  afterAll(async () => {
    await service.dispose();
  });

  it('learn their MD5 from the upload, and are read when a vanished synced file may be them: a move, not a new upload', async () => {
    let partBytes = 0;
    /** The local snapshot's md5 of each file as its part is sent. */
    const md5AtPut = new Map<string, string | null | undefined>();
    let md5Of: ((filePath: string) => string | null | undefined) | undefined;
    const counting = (api: AssetApi): AssetApi => {
      const wrapped: AssetApi = Object.create(api) as AssetApi;
      wrapped.putPart = (request) => {
        partBytes += request.end - request.start;
        md5AtPut.set(request.filePath, md5Of?.(request.filePath));
        return api.putPart(request);
      };
      return wrapped;
    };
    const me = client(await startSyncHarness(service, { remotePath: '/Unread', wrapApi: counting }));
    try {
      const big = randomFile(3 * MiB);
      const note = 'small files are not read before their upload either';
      me.write('Footage/take.mov', big);
      me.write('notes.txt', note);
      me.write('empty.txt', '');
      const snapshots = snapshotsRepo(me.h.db);
      const rootId = me.h.engine.roots()[0]?.id ?? '';
      md5Of = (filePath) => snapshots.localEntry(rootId, relative(me.h.folder, filePath))?.md5;

      const first = await me.once();
      expect(first.converged).toBe(true);
      expect(total(first, 'uploaded')).toBe(3);
      expect(partBytes).toBe(big.length + note.length);
      // Each was sent as the scan left it: unread, whatever its size.
      expect([...md5AtPut.values()]).toEqual([null, null, null]);
      const assets = await me.h.assets();
      const take = assets.find((asset) => asset.path === '/Unread/Footage/take.mov');
      expect(take?.checksum).toBe(md5Hex(big));
      // The completion's checksum is now the file's MD5 on this side too.
      expect(snapshots.localEntry(rootId, 'Footage/take.mov')?.md5).toBe(md5Hex(big));
      expect(snapshots.localEntry(rootId, 'notes.txt')?.md5).toBe(md5Hex(Buffer.from(note)));
      expect(snapshots.localEntry(rootId, 'empty.txt')?.md5).toBe(md5Hex(Buffer.alloc(0)));

      // Copied, then the original deleted: a new inode with the same bytes. It must be read (a synced
      // file of its size vanished) and found to be the same file: a move, no bytes sent.
      copyFileSync(join(me.h.folder, 'Footage/take.mov'), join(me.h.folder, 'take copy.mov'));
      rmSync(join(me.h.folder, 'Footage/take.mov'));
      partBytes = 0;
      const moved = await me.once();
      expect(moved.converged).toBe(true);
      expect(total(moved, 'moved')).toBe(1);
      expect(partBytes).toBe(0);
      const after = await me.h.assets();
      expect(after.find((asset) => asset.path === '/Unread/take copy.mov')).toMatchObject({ id: take?.id, checksum: md5Hex(big) });
      expect(after.some((asset) => asset.path === '/Unread/Footage/take.mov')).toBe(false);

      // A plain rename of it keeps the inode: a move again.
      renameSync(join(me.h.folder, 'take copy.mov'), join(me.h.folder, 'Footage/final.mov'));
      const renamed = await me.once();
      expect(total(renamed, 'moved')).toBe(1);
      expect(partBytes).toBe(0);
      expect((await me.h.assets()).find((asset) => asset.path === '/Unread/Footage/final.mov')?.id).toBe(take?.id);
    } finally {
      await me.h.dispose();
    }
  });

  it('are read before the plan when the service has a file at their path: the same bytes are adopted, other bytes are a conflict', async () => {
    let partBytes = 0;
    const counting = (api: AssetApi): AssetApi => {
      const wrapped: AssetApi = Object.create(api) as AssetApi;
      wrapped.putPart = (request) => {
        partBytes += request.end - request.start;
        return api.putPart(request);
      };
      return wrapped;
    };
    const me = client(await startSyncHarness(service, { remotePath: '/Both', wrapApi: counting }));
    try {
      const them = colleague(service, me.h.api);
      const same = await them.upload('/Both/Docs/same.txt', 'the same bytes on both sides');
      await them.upload('/Both/Docs/other.txt', 'their bytes');
      me.write('Docs/same.txt', 'the same bytes on both sides');
      me.write('Docs/other.txt', 'my bytes');

      const result = await me.once();
      expect(total(result, 'conflicts')).toBe(1);
      expect(total(result, 'uploaded')).toBe(0);
      expect(partBytes).toBe(0);
      const files = me.tree();
      expect(files['Docs/same.txt']).toBe('the same bytes on both sides');
      expect(files['Docs/other.txt']).toBe('their bytes');
      expect(Object.entries(files).filter(([path]) => path.includes('(conflict'))).toEqual([[expect.stringMatching(/^Docs\/other \(conflict .*\)\.txt$/), 'my bytes']]);
      const assets = await me.h.assets();
      expect(assets.map((asset) => asset.path).filter((path) => path.startsWith('/Both/'))).toEqual(['/Both/Docs/other.txt', '/Both/Docs/same.txt']);
      const rootId = me.h.engine.roots()[0]?.id ?? '';
      expect(snapshotsRepo(me.h.db).syncedEntry(rootId, 'Docs/same.txt')).toMatchObject({ assetId: same, md5: md5Hex(Buffer.from('the same bytes on both sides')) });
    } finally {
      await me.h.dispose();
    }
  });
});
