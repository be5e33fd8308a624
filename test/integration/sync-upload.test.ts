import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/test-service.js';
import { startSyncHarness, type SyncHarness } from '../support/sync-harness.js';
import { md5Hex } from '../support/checksums.js';

describe('sync: local folder to the service', () => {
  let service: TestService;
  let sync: SyncHarness;
  const put = (relPath: string, content: string | Buffer): void => {
    mkdirSync(join(sync.folder, relPath, '..'), { recursive: true });
    writeFileSync(join(sync.folder, relPath), content);
  };
  const byPath = async () => new Map((await sync.assets()).map((asset) => [asset.path, asset]));

  beforeAll(async () => {
    service = await startTestService();
    sync = await startSyncHarness(service);
  });
  afterAll(async () => {
    await sync.dispose();
    await service.dispose();
  });

  it('uploads a nested tree with awkward names into matching folders', async () => {
    const big = Buffer.alloc(7 * 1024 * 1024, 7);
    const files: Record<string, string | Buffer> = {
      'top.txt': 'top',
      'Brand/Logos/logo final #1 100%.svg': '<svg/>',
      'Brand/Logos/empty.txt': '',
      'Brand/Café/nfc.txt': 'nfc',
      ['Brand/Cafe\u0301 NFD/nfd.txt'.normalize('NFD')]: 'nfd',
      'Emoji 🎨/palette 🎨.txt': 'emoji',
      'Video/big.bin': big,
    };
    for (const [relPath, content] of Object.entries(files)) put(relPath, content);

    const result = await sync.once();
    expect(result.converged, JSON.stringify(result.reports)).toBe(true);
    const remote = await byPath();
    expect([...remote.keys()]).toEqual(
      ['/Brand/Café NFD/nfd.txt', '/Brand/Café/nfc.txt', '/Brand/Logos/empty.txt', '/Brand/Logos/logo final #1 100%.svg', '/Emoji 🎨/palette 🎨.txt', '/Video/big.bin', '/top.txt']
        .map((path) => path.normalize('NFC'))
        .sort(),
    );
    expect(remote.get('/Video/big.bin')).toMatchObject({ checksum: md5Hex(big), size: big.length, state: 'STAGED' });
    expect(remote.get('/Brand/Logos/empty.txt')).toMatchObject({ checksum: md5Hex(''), size: 0 });
    // A second pass has nothing to do.
    const again = await sync.once();
    expect(again.reports.every((report) => report.operations === 0)).toBe(true);
  });

  it('keeps the asset id through an edit, a rename, a move and a safe-save, sending only what changed', async () => {
    const before = await byPath();
    const id = before.get('/top.txt')?.id;

    put('top.txt', 'top, edited');
    let result = await sync.once();
    let remote = await byPath();
    expect(remote.get('/top.txt')).toMatchObject({ id, checksum: md5Hex('top, edited') });
    expect(result.reports.reduce((sum, report) => sum + report.versions, 0)).toBe(1);

    renameSync(join(sync.folder, 'top.txt'), join(sync.folder, 'renamed.txt'));
    result = await sync.once();
    remote = await byPath();
    expect(remote.has('/top.txt')).toBe(false);
    expect(remote.get('/renamed.txt')).toMatchObject({ id, checksum: md5Hex('top, edited') });
    expect(result.reports.reduce((sum, report) => sum + report.bytesSent, 0)).toBe(0);

    renameSync(join(sync.folder, 'renamed.txt'), join(sync.folder, 'Brand/Logos/renamed.txt'));
    result = await sync.once();
    remote = await byPath();
    expect(remote.get('/Brand/Logos/renamed.txt')).toMatchObject({ id });
    expect(remote.has('/renamed.txt')).toBe(false);
    expect(result.reports.reduce((sum, report) => sum + report.moved, 0)).toBe(1);

    // Safe-save: the application writes a temp file and renames it over the original.
    writeFileSync(join(sync.folder, 'Brand/Logos/renamed.txt.tmp'), 'saved safely');
    renameSync(join(sync.folder, 'Brand/Logos/renamed.txt.tmp'), join(sync.folder, 'Brand/Logos/renamed.txt'));
    result = await sync.once();
    expect(result.reports.reduce((sum, report) => sum + report.versions + report.uploaded, 0)).toBe(1);
    remote = await byPath();
    expect(remote.get('/Brand/Logos/renamed.txt')).toMatchObject({ id, checksum: md5Hex('saved safely') });
    expect([...remote.keys()].some((path) => path.endsWith('.tmp'))).toBe(false);
    const files = await sync.api.listAssetFiles(id ?? '');
    expect(files.map((file) => file.checksum)).toEqual([md5Hex('saved safely'), md5Hex('top, edited'), md5Hex('top')]);
  });

  it('moves a deleted file to the bin when it was its last folder', async () => {
    const id = (await byPath()).get('/Brand/Café/nfc.txt')?.id ?? '';
    rmSync(join(sync.folder, 'Brand/Café/nfc.txt'));
    const result = await sync.once();
    expect(result.converged).toBe(true);
    const asset = await sync.api.getAsset(id);
    expect(asset.lifecycleStatus.state).toBe('BINNED');
    expect((await byPath()).has('/Brand/Café/nfc.txt')).toBe(false);
    expect(readFileSync(join(sync.folder, 'Brand/Logos/renamed.txt'), 'utf8')).toBe('saved safely');
  });
});
