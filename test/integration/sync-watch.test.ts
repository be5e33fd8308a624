import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient, staticTokenProvider, type ApiClient } from '../../src/main/api/index.js';
import { NativeWatcher, NodeFileSystem, systemClock } from '../../src/main/local/index.js';
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
