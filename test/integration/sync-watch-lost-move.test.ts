import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient, staticTokenProvider, type ApiClient } from '../../src/main/api/index.js';
import { ManualClock, NodeFileSystem, type StatEntry, type Watcher } from '../../src/main/local/index.js';
import { createEngine } from '../../src/main/engine/index.js';
import type { FieldOption } from '../../src/shared/api/resources.js';
import { startTestService, type TestService } from '../support/test-service.js';
import { tempDir } from '../support/temp-dir.js';

describe('sync: watching, a folder renamed whose new name no event announced', () => {
  let service: TestService;
  let api: ApiClient;
  const folder = tempDir('asset-sync-lost-move-');
  const stateDir = tempDir('asset-sync-lost-move-state-');

  beforeAll(async () => {
    service = await startTestService();
    api = createApiClient({ server: service.url, tokens: staticTokenProvider(await service.token()) });
  });
  afterAll(async () => {
    api.close();
    await service.dispose();
  });

  /** An engine over `fs` whose watcher the test plays: its events are the hints given by hand. */
  function scriptedEngine(stateDir: string, fs: NodeFileSystem = new NodeFileSystem()) {
    const clock = new ManualClock(Date.now());
    let hints: (relPaths: string[]) => void = () => undefined;
    const scripted: Watcher = {
      start: async (onHints) => {
        hints = onHints;
      },
      close: async () => undefined,
      lastEventAt: () => undefined,
    };
    const engine = createEngine({ stateDir, server: service.url, stableMs: 50, rescanIntervalMs: 60 * 60_000 }, { api, fs, clock, createWatcher: () => scripted });
    return { clock, engine, hint: (relPaths: string[]) => hints(relPaths) };
  }

  it('follows the colleague\'s rename of a file whose folder moved unseen, instead of bringing it back beside itself (simulation seed 61067)', async () => {
    const { clock, engine, hint: hints } = scriptedEngine(stateDir);
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

  it('renames the folder on the service, instead of binning what it held and uploading it again at the next scan (simulation seed 73549)', async () => {
    const root = tempDir('asset-sync-lost-folder-');
    const state = tempDir('asset-sync-lost-folder-state-');
    const { clock, engine, hint: hints } = scriptedEngine(state);
    try {
      await engine.addRoot({ path: root, remotePath: '/LostFolder', publishLive: false });
      mkdirSync(join(root, 'A', 'C'), { recursive: true });
      const file = join(root, 'A', 'C', 'b.txt');
      writeFileSync(file, 'one folder, one asset');
      const settled = (clock.now() - 10_000) / 1000;
      utimesSync(file, settled, settled);
      const session = await engine.startWatching(() => undefined);
      expect((await session.pass()).map((report) => report.uploaded)).toEqual([1]);
      const before = (await staged(api)).find((entry) => entry.filename === 'b.txt');
      const folderC = (await childrenOf(api, ['LostFolder', 'A'])).get('C');
      expect(folderC).toBeDefined();

      // `A/C` renamed `A2`: the event for `A/C` arrives, the one for `A2` is lost.
      renameSync(join(root, 'A', 'C'), join(root, 'A2'));
      hints(['A/C']);
      clock.advance(60_000);
      await session.pass();
      // The asset is where the folder went, in the same option renamed; it was not binned.
      expect((await staged(api)).filter((entry) => entry.filename === 'b.txt')).toEqual([before]);
      expect((await childrenOf(api, ['LostFolder'])).get('A2')).toBe(folderC);

      // The periodic whole-root scan finds nothing new to upload.
      clock.advance(60 * 60_000);
      await session.pass();
      expect((await staged(api)).filter((entry) => entry.filename === 'b.txt')).toEqual([before]);
      await session.close();
    } finally {
      engine.close();
    }
  });

  it('moves a single file into a folder whose event was lost, instead of binning its asset and uploading it again at the next scan (simulation seed 87457)', async () => {
    const root = tempDir('asset-sync-lost-file-');
    const state = tempDir('asset-sync-lost-file-state-');
    const { clock, engine, hint: hints } = scriptedEngine(state);
    try {
      await engine.addRoot({ path: root, remotePath: '/LostFile', publishLive: false });
      mkdirSync(join(root, 'B'));
      mkdirSync(join(root, 'E'));
      const settled = (clock.now() - 10_000) / 1000;
      for (const [dir, name] of [['B', 'c.txt'], ['B', 'stays.txt'], ['E', 'd.txt']] as const) {
        writeFileSync(join(root, dir, name), `the file ${dir}/${name}`);
        utimesSync(join(root, dir, name), settled, settled);
      }
      const session = await engine.startWatching(() => undefined);
      expect((await session.pass()).map((report) => report.uploaded)).toEqual([3]);
      const before = (await staged(api)).find((entry) => entry.filename === 'c.txt');
      const folderE = (await childrenOf(api, ['LostFile'])).get('E');

      // `B/c.txt` moved into `E`, which is still there: the event for `B/c.txt` arrives, the one for `E` is lost.
      renameSync(join(root, 'B', 'c.txt'), join(root, 'E', 'c.txt'));
      hints(['B/c.txt']);
      clock.advance(60_000);
      await session.pass();
      // The same asset, filed in `E` now; nothing binned.
      expect((await staged(api)).filter((entry) => entry.filename === 'c.txt')).toEqual([before]);
      expect((await api.getAsset(before?.id ?? '')).metadata.values[await api.foldersFieldId()]).toEqual([folderE]);

      // The periodic whole-root scan finds nothing new to upload.
      clock.advance(60 * 60_000);
      await session.pass();
      expect((await staged(api)).filter((entry) => entry.filename === 'c.txt')).toEqual([before]);
      await session.close();
    } finally {
      engine.close();
    }
  });

  it('scans the whole root once for a folder gone, not again on every pass while its deletion waits for the user', async () => {
    const root = tempDir('asset-sync-held-folder-');
    const state = tempDir('asset-sync-held-folder-state-');
    /** Listings of the root itself: one per whole-root scan (a hinted look lists what it was hinted). */
    let rootListings = 0;
    const fs = new (class extends NodeFileSystem {
      override async readdirStats(path: string): Promise<StatEntry[]> {
        if (path === root) rootListings++;
        return super.readdirStats(path);
      }
    })();
    const { clock, engine, hint: hints } = scriptedEngine(state, fs);
    try {
      await engine.addRoot({ path: root, remotePath: '/HeldFolder', publishLive: false });
      mkdirSync(join(root, 'D'));
      const settled = (clock.now() - 10_000) / 1000;
      for (const name of ['1.txt', '2.txt', '3.txt', '4.txt', '5.txt', '6.txt']) {
        writeFileSync(join(root, 'D', name), `file ${name}`);
        utimesSync(join(root, 'D', name), settled, settled);
      }
      writeFileSync(join(root, 'x.txt'), 'stays');
      utimesSync(join(root, 'x.txt'), settled, settled);
      const session = await engine.startWatching(() => undefined);
      expect((await session.pass()).map((report) => report.uploaded)).toEqual([7]);

      // The folder deleted: six of seven files, past the mass-delete guard, which holds them.
      rmSync(join(root, 'D'), { recursive: true });
      hints(['D']);
      clock.advance(60_000);
      let listed = rootListings;
      expect((await session.pass()).map((report) => report.heldDeletes)).toEqual([6]);
      expect(rootListings - listed).toBe(1);

      // Another change while the deletion waits: its hinted look does not scan the root again.
      writeFileSync(join(root, 'y.txt'), 'new');
      utimesSync(join(root, 'y.txt'), settled, settled);
      hints(['y.txt']);
      clock.advance(60_000);
      listed = rootListings;
      expect((await session.pass()).map((report) => ({ uploaded: report.uploaded, held: report.heldDeletes }))).toEqual([{ uploaded: 1, held: 6 }]);
      expect(rootListings - listed).toBe(0);
      await session.close();
    } finally {
      engine.close();
    }
  });
});

/** The folder options under the option at `path` (values from the top), as `value → id`. */
async function childrenOf(api: ApiClient, path: readonly string[]): Promise<Map<string, string>> {
  const fieldId = await api.foldersFieldId();
  let parentId: string | null = null;
  for (const value of path) {
    const children: FieldOption[] = await api.listFieldOptionChildren(fieldId, parentId);
    const option = children.find((child) => child.value === value);
    if (option === undefined) return new Map();
    parentId = option.id;
  }
  return new Map((await api.listFieldOptionChildren(fieldId, parentId)).map((option) => [option.value, option.id]));
}

async function staged(api: ApiClient): Promise<{ id: string; filename: string }[]> {
  const criterion = { type: 'FIELD_EQUALS', field: { type: 'FIXED', fieldName: 'LIFECYCLE_STATE' }, value: 'STAGED' } as const;
  const page = await api.searchAssets({ criterion, sorts: [{ field: { type: 'FIXED', fieldName: 'FILENAME' }, order: 'ASC' }], from: 0, pageSize: 10 });
  return page.results.map((entry) => ({ id: entry.result.id, filename: entry.result.currentAssetFile?.filename ?? '' }));
}
