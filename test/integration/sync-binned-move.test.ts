/**
 * A synced file moved on two clients while a colleague binned its asset, against the real service on
 * loopback and real folders. A local move beats a deletion on the service: it used to win by uploading
 * the file as a new asset, so two clients that each moved it made two assets of one file (simulation
 * seeds 81430, 81450, 81507). The move now wins on the asset itself, brought back from the bin with its
 * history; the other client finds it live and moved, and follows. An asset binned after a colleague's
 * edit the clients never had comes back too, the file's bytes going up on top of the edit (seed
 * 73408); a process that dies between the two sends the file after its restart, and never brings the
 * colleague's bytes down over it. A service that refuses the transition gets the file as a new asset.
 * A folder renamed with the file in it moves no file of its own: there the removal wins (seed 108329).
 * Each file moved here leaves `A/b.txt` in `A`, so the move is the file's.
 */
import { mkdirSync, renameSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, type AssetApi } from '../../src/main/api/index.js';
import { syncedPairDyingAfter, type PlacementCall } from '../support/dying-api.js';
import { startSyncHarness } from '../support/sync-harness.js';
import { startTestService, type TestService } from '../support/test-service.js';
import { assetAt, client, colleague, startTwoClients } from '../support/two-way.js';
import { md5Hex } from '../support/checksums.js';

/** The API, but an asset read by id answers its checksum in upper case (a service may; API.md does not say). */
function upperCaseChecksums(api: AssetApi): AssetApi {
  const wrapped: AssetApi = Object.create(api) as AssetApi;
  wrapped.getAsset = async (id) => {
    const asset = await api.getAsset(id);
    return asset.currentAssetFile === null ? asset : { ...asset, currentAssetFile: { ...asset.currentAssetFile, checksum: asset.currentAssetFile.checksum.toUpperCase() } };
  };
  return wrapped;
}

/** The API, but the service refuses to bring an asset back from the bin (a 4xx, as the hosted one may: `targetState` is ours, API.md). */
function refusingRestore(api: AssetApi): AssetApi {
  const wrapped: AssetApi = Object.create(api) as AssetApi;
  wrapped.transitionLifecycle = async (selector, target) => {
    if (target === 'BINNED') return api.transitionLifecycle(selector, target);
    throw new ApiError({ code: 'INVALID_BODY', status: 400, method: 'POST', path: '/asset-lifecycle-transition-batch-jobs', message: 'targetState: only BINNED is accepted.' });
  };
  return wrapped;
}

/** Moves a file within a synced folder, making its new directory. */
function moveFile(folder: string, from: string, to: string): void {
  mkdirSync(dirname(join(folder, to)), { recursive: true });
  renameSync(join(folder, from), join(folder, to));
}

describe('a synced file moved here while its asset was binned there', () => {
  let service: TestService;

  beforeAll(async () => {
    service = await startTestService();
  });
  afterAll(async () => {
    await service.dispose();
  });

  it('moved on both clients: the binned asset comes back and moves, one asset for the file', async () => {
    const { a, b, settle, dispose } = await startTwoClients(service, '/BinnedMove');
    try {
      a.write('A/a.txt', 'first');
      a.write('A/b.txt', 'stays');
      await settle();
      const asset = await assetAt(a.h, '/BinnedMove/A/a.txt');

      moveFile(a.h.folder, 'A/a.txt', 'E/a.txt');
      await colleague(service, a.h.api).bin([asset]);
      moveFile(b.h.folder, 'A/a.txt', 'D/a.txt');
      await settle();

      expect((await a.h.assets()).map((entry) => entry.path).filter((path) => path.startsWith('/BinnedMove/')).sort()).toEqual(['/BinnedMove/A/b.txt', '/BinnedMove/E/a.txt']);
      expect(await assetAt(a.h, '/BinnedMove/E/a.txt')).toBe(asset);
      expect(a.tree()).toEqual({ 'A/b.txt': 'stays', 'E/a.txt': 'first' });
      expect(b.tree()).toEqual(a.tree());
    } finally {
      await dispose();
    }
  });

  it('its folder renamed on both clients: the removal wins, the files go to the trash and the asset stays binned (seed 108329)', async () => {
    // One option change renames a folder and leaves its assets as they are: no user moved this file.
    const { a, b, settle, dispose } = await startTwoClients(service, '/BinnedFolder');
    try {
      a.write('A/a.txt', 'first');
      a.write('A/b.txt', 'stays');
      await settle();
      const asset = await assetAt(a.h, '/BinnedFolder/A/a.txt');

      renameSync(join(a.h.folder, 'A'), join(a.h.folder, 'E'));
      await colleague(service, a.h.api).bin([asset]);
      renameSync(join(b.h.folder, 'A'), join(b.h.folder, 'D'));
      await settle();

      expect((await a.h.api.getAsset(asset)).lifecycleStatus.state).toBe('BINNED');
      const live = (await a.h.assets()).filter(({ path }) => path.startsWith('/BinnedFolder/'));
      expect(live.map(({ path }) => path)).toEqual(['/BinnedFolder/E/b.txt']);
      expect(a.tree()).toEqual({ 'E/b.txt': 'stays' });
      expect(b.tree()).toEqual(a.tree());
    } finally {
      await dispose();
    }
  });

  it('its folder renamed and the file edited: the edit wins, as a new asset under the file\'s name', async () => {
    const h = await startSyncHarness(service, { remotePath: '/BinnedFolderEdited' });
    const me = client(h);
    try {
      me.write('A/a.txt', 'first');
      await me.once();
      const asset = await assetAt(h, '/BinnedFolderEdited/A/a.txt');
      renameSync(join(h.folder, 'A'), join(h.folder, 'E'));
      me.write('E/a.txt', 'edited here');
      await colleague(service, h.api).bin([asset]);
      await me.once();
      expect((await me.once()).converged).toBe(true);

      expect((await h.api.getAsset(asset)).lifecycleStatus.state).toBe('BINNED');
      const live = (await h.assets()).filter(({ path }) => path.startsWith('/BinnedFolderEdited/'));
      expect(live.map(({ path, checksum }) => ({ path, checksum }))).toEqual([{ path: '/BinnedFolderEdited/E/a.txt', checksum: md5Hex('edited here') }]);
      expect(me.tree()).toEqual({ 'E/a.txt': 'edited here' });
    } finally {
      await h.dispose();
    }
  });

  it('comes back whatever the case of the checksum the service answers', async () => {
    const h = await startSyncHarness(service, { remotePath: '/BinnedUpper', wrapApi: upperCaseChecksums });
    const me = client(h);
    try {
      me.write('A/a.txt', 'first');
      me.write('A/b.txt', 'stays');
      await me.once();
      const asset = await assetAt(h, '/BinnedUpper/A/a.txt');
      moveFile(h.folder, 'A/a.txt', 'E/a.txt');
      await colleague(service, h.api).bin([asset]);
      expect((await me.once()).converged).toBe(true);
      expect(await assetAt(h, '/BinnedUpper/E/a.txt')).toBe(asset);
    } finally {
      await h.dispose();
    }
  });

  it('binned after a colleague\'s edit the clients never had: it comes back with the file\'s bytes on top, the edit in its history', async () => {
    const { a, b, settle, dispose } = await startTwoClients(service, '/BinnedEdited');
    try {
      a.write('A/a.txt', 'first');
      a.write('A/b.txt', 'stays');
      await settle();
      const asset = await assetAt(a.h, '/BinnedEdited/A/a.txt');

      moveFile(a.h.folder, 'A/a.txt', 'E/a.txt');
      const web = colleague(service, a.h.api);
      await web.newVersion(asset, 'the colleague\'s edit');
      await web.bin([asset]);
      moveFile(b.h.folder, 'A/a.txt', 'D/a.txt');
      await settle();

      expect((await a.h.assets()).filter(({ id }) => id === asset).map(({ path, checksum }) => ({ path, checksum }))).toEqual([{ path: '/BinnedEdited/E/a.txt', checksum: md5Hex('first') }]);
      expect((await a.h.assets()).filter(({ path }) => path.startsWith('/BinnedEdited/'))).toHaveLength(2);
      expect((await a.h.api.listAssetFiles(asset)).map((file) => file.checksum).sort()).toEqual([md5Hex('first'), md5Hex('first'), md5Hex('the colleague\'s edit')].sort());
      expect(a.tree()).toEqual({ 'A/b.txt': 'stays', 'E/a.txt': 'first' });
      expect(b.tree()).toEqual(a.tree());
    } finally {
      await dispose();
    }
  });

  // The restart's pass finishes the move (move-journal.ts) and sends the file as a version. A file
  // renamed as well as moved matches its synced row neither by bytes (the row holds the colleague's by
  // then) nor by name: before the move was written ahead, a death after the Folders edit or the rename
  // left a deletion and a new file, and the colleague's binned bytes stayed live (seeds 113812, 123157).
  const deaths: { step: PlacementCall; to: string }[] = [
    { step: 'transitionLifecycle', to: 'E/a.txt' },
    { step: 'transitionLifecycle', to: 'E/logo.txt' },
    { step: 'editMetadata', to: 'E/logo.txt' },
    { step: 'changeAsset', to: 'E/logo.txt' },
  ];
  it.each(deaths)('dies after $step of the move to $to: the restart finishes the move and sends the file, and never brings the edit down over it', async ({ step, to }) => {
    const remotePath = `/BinnedCrash-${step}-${to.replace(/\W/g, '')}`;
    const { harness: first, asset, dying } = await syncedPairDyingAfter(service, remotePath, step);
    let current = first;
    try {
      moveFile(first.folder, 'A/a.txt', to);
      const web = colleague(service, first.api);
      await web.newVersion(asset, 'the colleague\'s edit');
      await web.bin([asset]);

      // The pass hangs for good once the step landed: the asset is live again, holding the colleague's bytes.
      expect(await dying.dies(first.engine)).toBe(true);
      expect((await first.api.getAsset(asset)).lifecycleStatus.state).not.toBe('BINNED');
      current = await first.restart();
      const again = client(current);
      expect((await again.once()).converged).toBe(true);

      expect(again.tree()).toEqual({ [to]: 'first', 'A/b.txt': 'stays' });
      const live = (await current.assets()).filter(({ path }) => path.startsWith(`${remotePath}/`));
      expect(live.map(({ id, path, checksum }) => ({ id, path, checksum })).sort((x, y) => x.path.localeCompare(y.path))).toEqual([
        { id: expect.any(String) as string, path: `${remotePath}/A/b.txt`, checksum: md5Hex('stays') },
        { id: asset, path: `${remotePath}/${to}`, checksum: md5Hex('first') },
      ]);
      expect((await current.api.listAssetFiles(asset)).map((file) => file.checksum)).toContain(md5Hex('the colleague\'s edit'));
    } finally {
      await current.dispose();
    }
  });

  it('a service that refuses the transition (4xx): the file goes up as a new asset, nothing lost', async () => {
    for (const edited of [false, true]) {
      const remotePath = edited ? '/RefusedEdited' : '/Refused';
      const h = await startSyncHarness(service, { remotePath, wrapApi: refusingRestore });
      const me = client(h);
      try {
        me.write('A/a.txt', 'first');
        me.write('A/b.txt', 'stays');
        await me.once();
        const asset = await assetAt(h, `${remotePath}/A/a.txt`);
        moveFile(h.folder, 'A/a.txt', 'E/a.txt');
        const web = colleague(service, h.api);
        if (edited) await web.newVersion(asset, 'the colleague\'s edit');
        await web.bin([asset]);
        expect((await me.once()).converged, remotePath).toBe(true);

        const live = (await h.assets()).filter(({ path }) => path.startsWith(`${remotePath}/E/`));
        expect(live.map(({ path, checksum }) => ({ path, checksum })), remotePath).toEqual([{ path: `${remotePath}/E/a.txt`, checksum: md5Hex('first') }]);
        expect(live[0]?.id, remotePath).not.toBe(asset);
        expect((await h.api.getAsset(asset)).lifecycleStatus.state, remotePath).toBe('BINNED');
        expect(me.tree(), remotePath).toEqual({ 'A/b.txt': 'stays', 'E/a.txt': 'first' });
      } finally {
        await h.dispose();
      }
    }
  });
});
