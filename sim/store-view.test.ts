import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../test/support/test-service.js';
import { LOCAL_SUBDOMAIN } from '../src/service/bootstrap.js';
import { MemoryFileSystem } from '../src/main/local/index.js';
import { Faults, NO_FAULTS } from './faults.js';
import { Prng } from './prng.js';
import { SimClock } from './sim-clock.js';
import { simApi } from './sim-api.js';
import { RemoteView } from './remote-view.js';
import { storeView } from './store-view.js';
import { md5Hex } from '../test/support/checksums.js';

describe('storeView', () => {
  let service: TestService;

  beforeEach(async () => {
    service = await startTestService();
  });
  afterEach(() => service.dispose());

  it('reads what the colleague did through the API: placements, states, current files and every version', async () => {
    const clock = new SimClock();
    const scratch = new MemoryFileSystem({ clock });
    const random = new Prng(1);
    const api = simApi({ app: service.running.app, token: await service.token(), clock, random, faults: new Faults(random.fork(), NO_FAULTS, () => undefined), fs: scratch, disk: scratch });
    const view = storeView(service.running.ctx.db, LOCAL_SUBDOMAIN);
    const colleague = new RemoteView(api, scratch, view);

    await colleague.write('A/C/a.txt', 'one');
    await colleague.write('A/C/a.txt', 'two');
    await colleague.write('b.txt', 'bee');
    await colleague.write('gone.txt', 'gone');
    expect(await colleague.move('b.txt', 'A')).toBe(true);
    expect(await colleague.rename('A/C/a.txt', 'z.txt')).toBe(true);
    expect(await colleague.bin('gone.txt')).toBe(true);

    const byPath = (assets: ReturnType<typeof view.assets>) => assets.map(({ paths, state, checksum, versions }) => ({ paths, state, checksum, versions: [...versions].sort() })).sort((x, y) => ((x.paths[0] ?? '') < (y.paths[0] ?? '') ? -1 : 1));
    expect(byPath(view.assets())).toEqual([
      { paths: ['A/C/z.txt'], state: expect.any(String), checksum: md5Hex('two'), versions: [md5Hex('one'), md5Hex('two')].sort() },
      { paths: ['A/b.txt'], state: expect.any(String), checksum: md5Hex('bee'), versions: [md5Hex('bee')] },
      { paths: ['gone.txt'], state: 'BINNED', checksum: md5Hex('gone'), versions: [md5Hex('gone')] },
    ]);
    expect(view.assets({ versions: false }).every((asset) => asset.versions.length === 0)).toBe(true);
    expect(view.liveChecksums().sort()).toEqual([md5Hex('two'), md5Hex('bee')].sort());
    // The same assets as the API lists (binned ones too): the store view leaves none out and adds none.
    const listed = await api.searchAssets({ from: 0, pageSize: 100, criterion: { type: 'FIELD_IN', field: { type: 'FIXED', fieldName: 'LIFECYCLE_STATE' }, values: ['STAGED', 'PENDING_APPROVAL', 'LIVE', 'BINNED'] }, sorts: [] });
    expect(view.assets().map((asset) => asset.id).sort()).toEqual(listed.results.map((envelope) => envelope.result.id).sort());
  });
});
