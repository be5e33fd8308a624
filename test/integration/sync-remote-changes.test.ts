/**
 * What a colleague does in the web app reaches the disk (DESIGN.md §3 "remote" rows): a new asset, a
 * new version, a rename (PATCH filename), a move (metadata edit), the bin (lifecycle job), and folders
 * created, renamed, moved and removed. A selective sync (`--remote /Path`) lists and downloads only
 * its subtree and never walks the whole account. In watch mode the incremental poll brings a change
 * within one poll interval, even when the service set the change's date into the past.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AssetApi, Criterion } from '../../src/main/api/index.js';
import { startTestService, type TestService } from '../support/test-service.js';
import type { PassReport } from '../../src/main/sync/root-sync.js';
import { startSyncHarness } from '../support/sync-harness.js';
import { assetAt, client, colleague, dirsOf, total } from '../support/two-way.js';
import { until } from '../support/until.js';

describe('changes made on the service reach the disk', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService();
  });
  afterAll(async () => {
    await service.dispose();
  });

  it('a new asset, a new version, a rename, a move and the bin', async () => {
    const me = client(await startSyncHarness(service, { remotePath: '/Team' }));
    try {
      const people = colleague(service, me.h.api);
      const id = await people.upload('/Team/Brief/brief.txt', 'v1');
      await me.once();
      expect(me.read('Brief/brief.txt')).toBe('v1');

      await people.newVersion(id, 'v2, uploaded in the web app');
      expect(total(await me.once(), 'downloaded')).toBe(1);
      expect(me.read('Brief/brief.txt')).toBe('v2, uploaded in the web app');

      await people.rename(id, 'brief final.txt');
      let result = await me.once();
      expect([total(result, 'localMoved'), total(result, 'downloaded')]).toEqual([1, 0]);
      expect(me.exists('Brief/brief.txt')).toBe(false);
      expect(me.read('Brief/brief final.txt')).toBe('v2, uploaded in the web app');

      await people.move(id, '/Team/Archive/2026');
      result = await me.once();
      expect([total(result, 'localMoved'), total(result, 'downloaded')]).toEqual([1, 0]);
      expect(me.read('Archive/2026/brief final.txt')).toBe('v2, uploaded in the web app');

      await people.bin([id]);
      result = await me.once();
      expect(result.converged).toBe(true);
      expect(total(result, 'trashed')).toBe(1);
      expect(me.exists('Archive/2026/brief final.txt')).toBe(false);
      expect(readFileSync(join(me.h.trashDir, 'files/brief final.txt'), 'utf8')).toBe('v2, uploaded in the web app');
      // Nothing of ours changed on the service: no upload went back.
      expect(total(result, 'uploaded') + total(result, 'versions')).toBe(0);
    } finally {
      await me.h.dispose();
    }
  });

  it('folders created, renamed, moved and removed on the service change the same way on disk', async () => {
    const me = client(await startSyncHarness(service, { remotePath: '/Folders' }));
    try {
      const people = colleague(service, me.h.api);
      await people.upload('/Folders/Old/a.txt', 'a');
      await people.upload('/Folders/Old/Sub/b.txt', 'b');
      await people.folder('/Folders/Empty');
      await me.once();
      expect(dirsOf(me.h.folder)).toEqual(['Empty', 'Old', 'Old/Sub']);

      await people.renameFolder('/Folders/Old', 'New');
      let result = await me.once();
      expect(result.converged).toBe(true);
      // One rename of the folder: no file moved on its own, none downloaded again.
      expect([total(result, 'downloaded'), total(result, 'localMoved')]).toEqual([0, 0]);
      expect(dirsOf(me.h.folder)).toEqual(['Empty', 'New', 'New/Sub']);
      expect(me.tree()).toEqual({ 'New/a.txt': 'a', 'New/Sub/b.txt': 'b' });

      await people.moveFolder('/Folders/New/Sub', '/Folders/Empty');
      result = await me.once();
      expect([total(result, 'downloaded'), total(result, 'localMoved')]).toEqual([0, 0]);
      expect(me.tree()).toEqual({ 'New/a.txt': 'a', 'Empty/Sub/b.txt': 'b' });

      await people.folder('/Folders/Gone');
      await me.once();
      expect(existsSync(join(me.h.folder, 'Gone'))).toBe(true);
      await people.deleteFolder('/Folders/Gone');
      await me.once();
      expect(dirsOf(me.h.folder)).toEqual(['Empty', 'Empty/Sub', 'New']);
      // A local file in a renamed folder still uploads to the right folder.
      me.write('New/c.txt', 'c');
      await me.once();
      expect((await me.h.assets()).map((asset) => asset.path).filter((path) => path.startsWith('/Folders/'))).toEqual(['/Folders/Empty/Sub/b.txt', '/Folders/New/a.txt', '/Folders/New/c.txt']);
    } finally {
      await me.h.dispose();
    }
  });

  it('a selective sync lists and downloads only its subtree', async () => {
    const scratch = await startSyncHarness(service, { remotePath: '/Scratch' });
    const people = colleague(service, scratch.api);
    await people.upload('/Elsewhere/outside.txt', 'not mine');
    await people.upload('/Part/Outside sibling.txt', 'not mine either');
    await people.upload('/Part/Mine/inside.txt', 'mine');
    await people.upload('/Part/Mine/Deep/deeper.txt', 'mine too');
    const listedParents: (string | null)[] = [];
    const criteria: Criterion[] = [];
    const record = (api: AssetApi): AssetApi => {
      const wrapped: AssetApi = Object.create(api) as AssetApi;
      wrapped.listFieldOptionChildren = (fieldId, parentId) => {
        listedParents.push(parentId);
        return api.listFieldOptionChildren(fieldId, parentId);
      };
      wrapped.scrollAssets = (request, signal) => {
        criteria.push(request.criterion);
        return api.scrollAssets(request, signal);
      };
      wrapped.searchAssets = (request) => {
        criteria.push(request.criterion);
        return api.searchAssets(request);
      };
      return wrapped;
    };
    const me = client(await startSyncHarness(service, { remotePath: '/Part/Mine', wrapApi: record }));
    try {
      expect((await me.once()).converged).toBe(true);
      expect(me.tree()).toEqual({ 'inside.txt': 'mine', 'Deep/deeper.txt': 'mine too' });
      const part = await people.folder('/Part');
      const mine = await people.folder('/Part/Mine');
      // The top level and /Part are read once each to find /Part/Mine; the walk starts there, and does
      // not search Deep, which the service says is a leaf (its files are listed all the same).
      expect(new Set(listedParents)).toEqual(new Set([null, part, mine]));
      expect(listedParents.filter((parent) => parent === null)).toHaveLength(1);
      // Every listing is confined to the root's folders.
      for (const criterion of criteria) expect(JSON.stringify(criterion)).toMatch(new RegExp(`${mine}|ASSET_ID`));
    } finally {
      await me.h.dispose();
      await scratch.dispose();
    }
  });

  it('in watch mode a change arrives within a poll, even one whose date the service set into the past', async () => {
    const me = client(await startSyncHarness(service, { remotePath: '/Watched', remote: { pollIntervalMs: 200, overlapMs: 1000 } }));
    const controller = new AbortController();
    const reports: PassReport[] = [];
    const watching = me.h.engine.watch(controller.signal, (report) => reports.push(report));
    try {
      const people = colleague(service, me.h.api);
      const id = await people.upload('/Watched/live.txt', 'first');
      await until('live.txt to arrive', () => me.exists('live.txt'), { timeoutMs: 10_000, intervalMs: 50 });
      expect(me.read('live.txt')).toBe('first');
      // Quiet polls after that: the root rests (no plan) instead of planning every 200 ms...
      await until('three resting passes', () => reports.filter((report) => report.rested === true).length >= 3, { timeoutMs: 10_000, intervalMs: 50 });
      // ...and wakes for the next change all the same.
      await people.newVersion(id, 'second');
      // The hosted service may set the modification date into the past on a file replacement.
      service.running.ctx.db.prepare('UPDATE assets SET date_last_modified = ? WHERE id = ?').run('2020-01-01T00:00:00.000Z', id);
      await until('the second version', () => me.read('live.txt') === 'second', { timeoutMs: 10_000, intervalMs: 50 });
      expect(await assetAt(me.h, '/Watched/live.txt')).toBe(id);
    } finally {
      controller.abort();
      await watching;
      await me.h.dispose();
    }
  });
});
