/**
 * The mass-delete guard in the download direction (DESIGN.md §3 safety, §4.6): a listing that suddenly
 * loses most assets — most of them binned at once, or a search that fails into an empty page (revoked
 * permission, another account's token) — leaves every local file in place until the user confirms with
 * `asset-sync confirm-deletes`; a listing that comes back whole clears the hold.
 */
import { readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient, AssetApi } from '../../src/main/api/index.js';
import type { Asset, SearchPage } from '../../src/shared/api/resources.js';
import { cli } from '../support/cli-runner.js';
import { startSyncHarness, type SyncHarness } from '../support/sync-harness.js';
import { startTestService, type TestService } from '../support/test-service.js';
import { client, colleague, total, type Client } from '../support/two-way.js';

/** A server whose scroll searches fail into an empty page. */
function emptyListings(api: ApiClient): AssetApi {
  const wrapped: AssetApi = Object.create(api) as AssetApi;
  // eslint-disable-next-line require-yield -- the point: a listing with nothing in it
  wrapped.scrollAssets = async function* (): AsyncGenerator<SearchPage<Asset>> {
    return;
  };
  return wrapped;
}

describe('mass-delete guard, service to disk', () => {
  let service: TestService;
  let scratch: SyncHarness;
  const ids: string[] = [];

  beforeAll(async () => {
    service = await startTestService();
    scratch = await startSyncHarness(service, { remotePath: '/Scratch' });
    const people = colleague(service, scratch.api);
    for (let index = 0; index < 24; index++) ids.push(await people.upload(`/Guard/file${String(index).padStart(2, '0')}.txt`, `file ${index}`));
  });
  afterAll(async () => {
    await scratch.dispose();
    await service.dispose();
  });

  const files = (me: Client): string[] => readdirSync(me.h.folder).filter((name) => name.endsWith('.txt'));

  it('holds the local deletions when a listing fails into an empty page, and lets go when it is whole again', async () => {
    let me = client(await startSyncHarness(service, { remotePath: '/Guard' }));
    try {
      expect((await me.once()).converged).toBe(true);
      expect(files(me)).toHaveLength(24);
      me.h.engine.close();
      me.h.api.close();
      me = client(await startSyncHarness(service, { remotePath: '/Guard', folder: me.h.folder, stateDir: me.h.stateDir, wrapApi: emptyListings }));
      const blind = await me.once();
      expect(blind.converged).toBe(false);
      expect(total(blind, 'trashed')).toBe(0);
      expect(files(me)).toHaveLength(24);
      const status = JSON.parse((await cli(['status', '--state', me.h.stateDir, '--json'])).out).roots[0];
      expect(status.heldDeletes).toMatchObject({ count: 24, local: 24, confirmed: false });
      expect((await cli(['status', '--state', me.h.stateDir])).out).toContain('24 deletions wait for `asset-sync confirm-deletes` (deleted in the service; confirming deletes them on this computer too, into the Trash):');
      me.h.engine.close();
      me.h.api.close();
      me = client(await startSyncHarness(service, { remotePath: '/Guard', folder: me.h.folder, stateDir: me.h.stateDir }));
      expect((await me.once()).converged).toBe(true);
      expect(JSON.parse((await cli(['status', '--state', me.h.stateDir, '--json'])).out).roots[0].heldDeletes.count).toBe(0);
      expect(files(me)).toHaveLength(24);
    } finally {
      await me.h.dispose();
    }
  });

  it('holds most assets binned at once until confirmed, then sends them to the trash', async () => {
    const me = client(await startSyncHarness(service, { remotePath: '/Guard' }));
    try {
      await me.once();
      await colleague(service, scratch.api).bin(ids.slice(0, 20));
      const held = await me.once();
      expect(held.converged).toBe(false);
      expect(files(me)).toHaveLength(24);
      expect((await cli(['confirm-deletes', '--state', me.h.stateDir])).out).toContain('20 deletions confirmed');
      const confirmed = await me.once();
      expect(total(confirmed, 'trashed')).toBe(20);
      expect(confirmed.converged).toBe(true);
      expect(files(me)).toHaveLength(4);
      expect(readdirSync(`${me.h.trashDir}/files`)).toHaveLength(20);
      // The service kept them in the bin: nothing was deleted there.
      expect((await scratch.api.getAsset(ids[0] ?? '')).lifecycleStatus.state).toBe('BINNED');
    } finally {
      await me.h.dispose();
    }
  });
});
