import { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient, staticTokenProvider, type ApiClient } from '../../src/main/api/index.js';
import { ManualClock, NodeFileSystem, type Watcher } from '../../src/main/local/index.js';
import { createEngine } from '../../src/main/engine.js';
import { startTestService, type TestService } from '../support/test-service.js';

describe('sync: watching, a folder renamed whose new name no event announced', () => {
  let service: TestService;
  let api: ApiClient;
  const folder = mkdtempSync(join(tmpdir(), 'asset-sync-lost-move-'));
  const stateDir = mkdtempSync(join(tmpdir(), 'asset-sync-lost-move-state-'));

  beforeAll(async () => {
    service = await startTestService();
    api = createApiClient({ server: service.url, tokens: staticTokenProvider(await service.token()) });
  });
  afterAll(async () => {
    api.close();
    await service.dispose();
    rmSync(folder, { recursive: true, force: true });
    rmSync(stateDir, { recursive: true, force: true });
  });

  it('follows the colleague\'s rename of a file whose folder moved unseen, instead of bringing it back beside itself (simulation seed 61067)', async () => {
    const clock = new ManualClock(Date.now());
    // A watcher played by the test: its events are hints given by hand.
    let hints: (relPaths: string[]) => void = () => undefined;
    const scripted: Watcher = {
      start: async (onHints) => {
        hints = onHints;
      },
      close: async () => undefined,
      lastEventAt: () => undefined,
    };
    const engine = createEngine({ stateDir, server: service.url, stableMs: 50, rescanIntervalMs: 60 * 60_000 }, { api, fs: new NodeFileSystem(), clock, createWatcher: () => scripted });
    try {
      await engine.addRoot({ path: folder, remotePath: '/LostMove', publishLive: false });
      mkdirSync(join(folder, 'B'));
      const file = join(folder, 'B', 'c.txt');
      writeFileSync(file, 'one file, one asset');
      const settled = (clock.now() - 10_000) / 1000;
      utimesSync(file, settled, settled);
      const session = await engine.startWatching(() => undefined);
      expect((await session.pass()).map((report) => report.uploaded)).toEqual([1]);
      const [asset] = await staged(api);
      expect(asset?.filename).toBe('c.txt');

      // `B` renamed `D`: the event for `B` arrives, the one for `D` is lost. The colleague renames the file.
      renameSync(join(folder, 'B'), join(folder, 'D'));
      hints(['B']);
      await api.changeAsset(asset?.id ?? '', { filename: 'logo.png' });
      clock.advance(60_000);
      await session.pass();
      // The file moved to the service's name; it was not downloaded again beside `D/c.txt`.
      expect(existsSync(join(folder, 'D', 'c.txt'))).toBe(false);
      expect(readdirSync(join(folder, 'B'))).toEqual(['logo.png']);

      // The periodic whole-root scan finds nothing new to upload.
      clock.advance(60 * 60_000);
      await session.pass();
      expect((await staged(api)).map((entry) => entry.filename)).toEqual(['logo.png']);
      await session.close();
    } finally {
      engine.close();
    }
  });
});

async function staged(api: ApiClient): Promise<{ id: string; filename: string }[]> {
  const criterion = { type: 'FIELD_EQUALS', field: { type: 'FIXED', fieldName: 'LIFECYCLE_STATE' }, value: 'STAGED' } as const;
  const page = await api.searchAssets({ criterion, sorts: [{ field: { type: 'FIXED', fieldName: 'FILENAME' }, order: 'ASC' }], from: 0, pageSize: 10 });
  return page.results.map((entry) => ({ id: entry.result.id, filename: entry.result.currentAssetFile?.filename ?? '' }));
}
