import { rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient, staticTokenProvider, type ApiClient } from '../../src/main/api/index.js';
import { ManualClock, NativeWatcher, NodeFileSystem, systemClock, type Watcher } from '../../src/main/local/index.js';
import { createEngine, type Engine } from '../../src/main/engine/index.js';
import { startTestService, type TestService } from '../support/test-service.js';
import { tempDir } from '../support/temp-dir.js';

describe('sync: watching', () => {
  let service: TestService;
  let api: ApiClient;
  let engine: Engine;
  const folder = tempDir('asset-sync-watch-');
  const stateDir = tempDir('asset-sync-watch-state-');

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

describe('sync: watching, with a watcher played by the test', () => {
  let service: TestService;
  let api: ApiClient;
  /** A fresh folder and state directory for one test's engine. */
  const dirs = (name: string): { folder: string; stateDir: string } => {
    const folder = tempDir(`asset-sync-${name}-`);
    const stateDir = tempDir(`asset-sync-${name}-state-`);
    return { folder, stateDir };
  };

  beforeAll(async () => {
    service = await startTestService();
    api = createApiClient({ server: service.url, tokens: staticTokenProvider(await service.token()) });
  });
  afterAll(async () => {
    api.close();
    await service.dispose();
  });

  it('finds a file no event announced at the periodic whole-root scan (simulation seed 25)', async () => {
    const { folder, stateDir } = dirs('rescan');
    const clock = new ManualClock(Date.now());
    // A watcher whose every event is lost (an overflowed queue, a share that sends none).
    const deaf: Watcher = { start: async () => undefined, close: async () => undefined, lastEventAt: () => undefined };
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

  it('leaves a deletion seen while the disk was changing to the next pass (the e2e mass-deletion flake)', async () => {
    const { folder, stateDir } = dirs('emptied');
    const clock = new ManualClock(Date.now());
    // A watcher played by the test: its events are hints given by hand, at the times it says.
    let hints: (relPaths: string[]) => void = () => undefined;
    let lastEventAt: number | undefined;
    const scripted: Watcher = {
      start: async (onHints) => {
        hints = onHints;
      },
      close: async () => undefined,
      lastEventAt: () => lastEventAt,
    };
    const engine = createEngine({ stateDir, server: service.url, stableMs: 50 }, { api, fs: new NodeFileSystem(), clock, createWatcher: () => scripted });
    try {
      await engine.addRoot({ path: folder, remotePath: '/Emptied', publishLive: false });
      const settled = (clock.now() - 10_000) / 1000;
      for (const name of ['emptied-a.txt', 'emptied-b.txt']) {
        writeFileSync(join(folder, name), `${name} before`);
        utimesSync(join(folder, name), settled, settled);
      }
      const session = await engine.startWatching(() => undefined);
      expect((await session.pass()).map((report) => report.uploaded)).toEqual([2]);

      // `emptied-a.txt` goes, and the watcher hears of a change as the next pass begins to look: what it sees
      // may be half of a folder being emptied, so its deletion waits.
      rmSync(join(folder, 'emptied-a.txt'));
      clock.advance(1_000);
      lastEventAt = clock.now();
      hints(['emptied-a.txt']);
      expect((await session.pass()).map((report) => [report.scanned, report.removed])).toEqual([[true, 0]]);
      expect(await stagedNames(api, 'emptied-')).toEqual(['emptied-a.txt', 'emptied-b.txt']);

      // The disk has been quiet since: the next pass deletes it.
      clock.advance(1_000);
      expect((await session.pass()).map((report) => report.removed)).toEqual([1]);
      expect(await stagedNames(api, 'emptied-')).toEqual(['emptied-b.txt']);
      await session.close();
    } finally {
      engine.close();
    }
  });
});

/** The names of the staged assets whose names start with `prefix` (the service is shared by the tests). */
async function stagedNames(api: ApiClient, prefix: string): Promise<string[]> {
  const staged = { type: 'FIELD_EQUALS', field: { type: 'FIXED', fieldName: 'LIFECYCLE_STATE' }, value: 'STAGED' } as const;
  const page = await api.searchAssets({ criterion: staged, sorts: [{ field: { type: 'FIXED', fieldName: 'FILENAME' }, order: 'ASC' }], from: 0, pageSize: 10 });
  return page.results.map((entry) => entry.result.currentAssetFile?.filename ?? '').filter((name) => name.startsWith(prefix));
}
