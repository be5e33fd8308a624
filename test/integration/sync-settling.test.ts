import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient, staticTokenProvider, type ApiClient } from '../../src/main/api/index.js';
import { NodeFileSystem, systemClock } from '../../src/main/local/index.js';
import { createEngine, type Engine } from '../../src/main/engine.js';
import { startTestService, type TestService } from '../support/test-service.js';

/** When files count as finished: by their age on disk, or by waiting for them to stop changing. */
describe('sync: settling', () => {
  let service: TestService;
  let api: ApiClient;
  let engine: Engine;
  const folder = mkdtempSync(join(tmpdir(), 'asset-sync-settling-'));
  const stateDir = mkdtempSync(join(tmpdir(), 'asset-sync-settling-state-'));

  beforeAll(async () => {
    service = await startTestService();
    api = createApiClient({ server: service.url, tokens: staticTokenProvider(await service.token()) });
    // The default wait, so a file written just now has to wait for it.
    engine = createEngine({ stateDir, server: service.url, stableMs: 1500 }, { api, fs: new NodeFileSystem(), clock: systemClock });
    await engine.addRoot({ path: folder, remotePath: '/Settling', publishLive: false });
  });
  afterAll(async () => {
    engine.close();
    api.close();
    await service.dispose();
    rmSync(folder, { recursive: true, force: true });
    rmSync(stateDir, { recursive: true, force: true });
  });

  it('uploads files last written long ago in the first pass, and waits for a file written just now', async () => {
    const hourAgo = new Date(Date.now() - 3_600_000);
    mkdirSync(join(folder, 'Archive'));
    for (const name of ['Archive/a.psd', 'Archive/b.psd', 'c.psd']) {
      writeFileSync(join(folder, name), `old ${name}`);
      utimesSync(join(folder, name), hourAgo, hourAgo);
    }
    writeFileSync(join(folder, 'fresh.psd'), 'written just now');

    const started = Date.now();
    const result = await engine.syncOnce();

    expect(result.converged).toBe(true);
    const [first, ...later] = result.reports;
    expect(first).toMatchObject({ uploaded: 3, settling: 1 });
    expect(later.reduce((sum, report) => sum + report.uploaded, 0)).toBe(1);
    // The fresh file went only once it had stayed unchanged for the wait.
    expect(Date.now() - started).toBeGreaterThanOrEqual(1500);
    const page = await api.searchAssets({
      criterion: { type: 'FIELD_EQUALS', field: { type: 'FIXED', fieldName: 'LIFECYCLE_STATE' }, value: 'STAGED' },
      sorts: [{ field: { type: 'FIXED', fieldName: 'FILENAME' }, order: 'ASC' }],
      from: 0,
      pageSize: 10,
    });
    expect(page.results.map((entry) => entry.result.currentAssetFile?.filename)).toEqual(['a.psd', 'b.psd', 'c.psd', 'fresh.psd']);
  });
});
