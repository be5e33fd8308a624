import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSyncHarness, type SyncHarness } from '../support/sync-harness.js';
import { startTestService, type TestService } from '../support/test-service.js';

/** When files count as finished: by their age on disk, or by waiting for them to stop changing. */
describe('sync: settling', () => {
  let service: TestService;
  let sync: SyncHarness;

  beforeAll(async () => {
    service = await startTestService();
    // The default wait, so a file written just now has to wait for it.
    sync = await startSyncHarness(service, { remotePath: '/Settling', stableMs: 1500 });
  });
  afterAll(async () => {
    await sync.dispose();
    await service.dispose();
  });

  it('uploads files last written long ago in the first pass, and waits for a file written just now', async () => {
    const { folder } = sync;
    const hourAgo = new Date(Date.now() - 3_600_000);
    mkdirSync(join(folder, 'Archive'));
    for (const name of ['Archive/a.psd', 'Archive/b.psd', 'c.psd']) {
      writeFileSync(join(folder, name), `old ${name}`);
      utimesSync(join(folder, name), hourAgo, hourAgo);
    }
    writeFileSync(join(folder, 'fresh.psd'), 'written just now');

    const started = Date.now();
    const result = await sync.once();

    expect(result.converged).toBe(true);
    const [first, ...later] = result.reports;
    expect(first).toMatchObject({ uploaded: 3, settling: 1 });
    expect(later.reduce((sum, report) => sum + report.uploaded, 0)).toBe(1);
    // The fresh file went only once it had stayed unchanged for the wait.
    expect(Date.now() - started).toBeGreaterThanOrEqual(1500);
    expect((await sync.assets()).map((asset) => asset.path)).toEqual(['/Settling/Archive/a.psd', '/Settling/Archive/b.psd', '/Settling/c.psd', '/Settling/fresh.psd']);
  });
});
