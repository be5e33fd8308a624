import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient, staticTokenProvider, type ApiClient } from '../../src/main/api/index.js';
import { ManualClock, NativeWatcher, NodeFileSystem, systemClock, type Watcher } from '../../src/main/local/index.js';
import { createEngine, type Engine } from '../../src/main/engine.js';
import { startTestService, type TestService } from '../support/test-service.js';

describe('sync: watching', () => {
  let service: TestService;
  let api: ApiClient;
  let engine: Engine;
  const folder = mkdtempSync(join(tmpdir(), 'asset-sync-watch-'));
  const stateDir = mkdtempSync(join(tmpdir(), 'asset-sync-watch-state-'));

  beforeAll(async () => {
    service = await startTestService();
    api = createApiClient({ server: service.url, tokens: staticTokenProvider(await service.token()) });
    engine = createEngine(
      { stateDir, server: service.url, stableMs: 50 },
      { api, fs: new NodeFileSystem(), clock: systemClock, createWatcher: (root, rules) => new NativeWatcher({ root, rules, clock: systemClock, batch: { debounceMs: 20 } }) },
    );
    await engine.addRoot({ path: folder, remotePath: '/Watched', publishLive: false });
  });
  afterAll(async () => {
    engine.close();
    api.close();
    await service.dispose();
    rmSync(folder, { recursive: true, force: true });
    rmSync(stateDir, { recursive: true, force: true });
  });

  it('uploads a file dropped into a watched folder without another command', async () => {
    const controller = new AbortController();
    const watching = engine.watch(controller.signal);
    try {
      await new Promise((resolve) => setTimeout(resolve, 200));
      writeFileSync(join(folder, 'dropped.txt'), 'dropped in');
      const staged = { type: 'FIELD_EQUALS', field: { type: 'FIXED', fieldName: 'LIFECYCLE_STATE' }, value: 'STAGED' };
      let names: string[] = [];
      for (let attempt = 0; attempt < 100 && !names.includes('dropped.txt'); attempt++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        const page = await api.searchAssets({ criterion: staged, sorts: [{ field: { type: 'FIXED', fieldName: 'FILENAME' }, order: 'ASC' }], from: 0, pageSize: 10 });
        names = page.results.map((entry) => entry.result.currentAssetFile?.filename ?? '');
      }
      expect(names).toEqual(['dropped.txt']);
    } finally {
      controller.abort();
      await watching;
    }
  });
});

describe('sync: watching, when events are lost', () => {
  let service: TestService;
  let api: ApiClient;
  const folder = mkdtempSync(join(tmpdir(), 'asset-sync-rescan-'));
  const stateDir = mkdtempSync(join(tmpdir(), 'asset-sync-rescan-state-'));

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

  it('finds a file no event announced at the periodic whole-root scan (simulation seed 25)', async () => {
    const clock = new ManualClock(Date.now());
    // A watcher whose every event is lost (an overflowed queue, a share that sends none).
    const deaf: Watcher = { start: async () => undefined, close: async () => undefined };
    const engine = createEngine({ stateDir, server: service.url, stableMs: 50, rescanIntervalMs: 60 * 60_000 }, { api, fs: new NodeFileSystem(), clock, createWatcher: () => deaf });
    try {
      await engine.addRoot({ path: folder, remotePath: '/Rescanned', publishLive: false });
      const session = await engine.startWatching(() => undefined);
      expect((await session.pass()).map((report) => report.scanned)).toEqual([true]);
      const file = join(folder, 'unannounced.txt');
      writeFileSync(file, 'no event said so');
      const settled = (clock.now() - 10_000) / 1000;
      utimesSync(file, settled, settled);
      clock.advance(60_000);
      expect((await session.pass()).map((report) => report.uploaded)).toEqual([0]);
      clock.advance(60 * 60_000);
      const reports = await session.pass();
      expect(reports.map((report) => [report.scanned, report.uploaded])).toEqual([[true, 1]]);
      await session.close();
    } finally {
      engine.close();
    }
  });
});
