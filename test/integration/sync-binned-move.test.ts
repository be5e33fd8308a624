/**
 * A synced file moved on two clients while a colleague binned its asset, against the real service on
 * loopback and real folders. A local move beats a deletion on the service: it used to win by uploading
 * the file as a new asset, so two clients that each moved it made two assets of one file (simulation
 * seeds 81430, 81450, 81507). The move now wins on the asset itself, brought back from the bin with its
 * history; the other client finds it live and moved, and follows. An asset binned with bytes the client
 * never had stays binned (bringing it back would resurrect them): the file goes up as a new asset.
 */
import { renameSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AssetApi } from '../../src/main/api/index.js';
import { startSyncHarness } from '../support/sync-harness.js';
import { startTestService, type TestService } from '../support/test-service.js';
import { assetAt, client, colleague, startTwoClients } from '../support/two-way.js';

/** The API, but an asset read by id answers its checksum in upper case (a service may; API.md does not say). */
function upperCaseChecksums(api: AssetApi): AssetApi {
  const wrapped: AssetApi = Object.create(api) as AssetApi;
  wrapped.getAsset = async (id) => {
    const asset = await api.getAsset(id);
    return asset.currentAssetFile === null ? asset : { ...asset, currentAssetFile: { ...asset.currentAssetFile, checksum: asset.currentAssetFile.checksum.toUpperCase() } };
  };
  return wrapped;
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
      await settle();
      const asset = await assetAt(a.h, '/BinnedMove/A/a.txt');

      renameSync(join(a.h.folder, 'A'), join(a.h.folder, 'E'));
      await colleague(service, a.h.api).bin([asset]);
      renameSync(join(b.h.folder, 'A'), join(b.h.folder, 'D'));
      await settle();

      expect((await a.h.assets()).map((entry) => entry.path).filter((path) => path.startsWith('/BinnedMove/'))).toEqual(['/BinnedMove/E/a.txt']);
      expect(await assetAt(a.h, '/BinnedMove/E/a.txt')).toBe(asset);
      expect(a.tree()).toEqual({ 'E/a.txt': 'first' });
      expect(b.tree()).toEqual(a.tree());
    } finally {
      await dispose();
    }
  });

  it('comes back whatever the case of the checksum the service answers', async () => {
    const h = await startSyncHarness(service, { remotePath: '/BinnedUpper', wrapApi: upperCaseChecksums });
    const me = client(h);
    try {
      me.write('A/a.txt', 'first');
      await me.once();
      const asset = await assetAt(h, '/BinnedUpper/A/a.txt');
      renameSync(join(h.folder, 'A'), join(h.folder, 'E'));
      await colleague(service, h.api).bin([asset]);
      expect((await me.once()).converged).toBe(true);
      expect(await assetAt(h, '/BinnedUpper/E/a.txt')).toBe(asset);
    } finally {
      await h.dispose();
    }
  });

  it('binned after a colleague\'s edit the client never had: it stays binned, the file goes up as new', async () => {
    const { a, settle, dispose } = await startTwoClients(service, '/BinnedEdited');
    try {
      a.write('A/a.txt', 'first');
      await settle();
      const asset = await assetAt(a.h, '/BinnedEdited/A/a.txt');

      renameSync(join(a.h.folder, 'A'), join(a.h.folder, 'E'));
      const web = colleague(service, a.h.api);
      await web.newVersion(asset, 'the colleague\'s edit');
      await web.bin([asset]);
      await settle();

      expect((await a.h.assets()).map((entry) => entry.path).filter((path) => path.startsWith('/BinnedEdited/'))).toEqual(['/BinnedEdited/E/a.txt']);
      expect(await assetAt(a.h, '/BinnedEdited/E/a.txt')).not.toBe(asset);
      expect((await a.h.api.getAsset(asset)).lifecycleStatus.state).toBe('BINNED');
      expect(a.tree()).toEqual({ 'E/a.txt': 'first' });
    } finally {
      await dispose();
    }
  });
});
