/**
 * A folder renamed on disk is its option renamed on the service (DESIGN.md §3: `PATCH
 * /field-options/{id}`, one call, every asset in it follows), binned assets included: done as per-file
 * moves into a new option, the old one stayed while a binned asset used it, and a case-insensitive
 * client saw two folders `A` and `a` (simulation seed 30244). Against a service without that PATCH
 * (the hosted one, API.md [ours]) the moves still go file by file.
 */
import { renameSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, type AssetApi } from '../../src/main/api/index.js';
import type { SyncHarness } from '../support/sync-harness.js';
import { startTestService, type TestService } from '../support/test-service.js';
import { startTwoClients, client } from '../support/two-way.js';
import { startSyncHarness } from '../support/sync-harness.js';

/** The options under the root's own option (`/Root`), as `value → id`. */
async function foldersOf(h: SyncHarness, rootValue: string): Promise<Map<string, string>> {
  const fieldId = await h.api.foldersFieldId();
  const root = (await h.api.listFieldOptionChildren(fieldId, null)).find((option) => option.value === rootValue);
  if (root === undefined) return new Map();
  return new Map((await h.api.listFieldOptionChildren(fieldId, root.id)).map((option) => [option.value, option.id]));
}

describe('a folder renamed on disk', () => {
  let service: TestService;

  beforeAll(async () => {
    service = await startTestService();
  });
  afterAll(async () => {
    await service.dispose();
  });

  it('renames its option, which keeps its id and its binned assets, also for a rename in case only', async () => {
    const { a, b, settle, dispose } = await startTwoClients(service, '/Renamed');
    try {
      a.write('Docs/x.txt', 'x');
      a.write('Docs/y.txt', 'y');
      await settle();
      const docs = (await foldersOf(a.h, 'Renamed')).get('Docs');
      expect(docs).toBeDefined();
      const binned = (await a.h.assets()).find((asset) => asset.path === '/Renamed/Docs/y.txt')?.id ?? '';
      await a.h.api.transitionLifecycle({ type: 'BY_IDS', assetIds: [binned] }, 'BINNED');
      await settle();

      renameSync(join(a.h.folder, 'Docs'), join(a.h.folder, 'Archive'));
      await settle();
      expect(await foldersOf(a.h, 'Renamed')).toEqual(new Map([['Archive', docs]]));
      expect(b.tree()).toEqual({ 'Archive/x.txt': 'x' });

      renameSync(join(a.h.folder, 'Archive'), join(a.h.folder, 'archive'));
      await settle();
      // One option, the same one: no `Archive` left beside `archive` for the binned asset.
      expect(await foldersOf(a.h, 'Renamed')).toEqual(new Map([['archive', docs]]));
      const fieldId = await a.h.api.foldersFieldId();
      expect((await a.h.api.getAsset(binned)).metadata.values[fieldId]).toEqual([docs]);
      expect((await a.h.assets()).map((asset) => asset.path).filter((path) => path.startsWith('/Renamed/'))).toEqual(['/Renamed/archive/x.txt']);
      expect(b.tree()).toEqual({ 'archive/x.txt': 'x' });
    } finally {
      await dispose();
    }
  });

  it('moves the files one by one where the service refuses to rename an option', async () => {
    const refusing = (api: AssetApi): AssetApi => {
      const wrapped: AssetApi = Object.create(api) as AssetApi;
      wrapped.changeFieldOption = async () => {
        throw new ApiError({ code: 'METHOD_NOT_ALLOWED', message: 'no PATCH of a field option here', status: 405, method: 'PATCH' });
      };
      return wrapped;
    };
    const me = client(await startSyncHarness(service, { remotePath: '/Refused', wrapApi: refusing }));
    try {
      me.write('Docs/x.txt', 'x');
      await me.once();
      const docs = (await foldersOf(me.h, 'Refused')).get('Docs');
      renameSync(join(me.h.folder, 'Docs'), join(me.h.folder, 'Archive'));
      await me.once();
      await me.once();
      const after = await foldersOf(me.h, 'Refused');
      // A new option for the new name; the emptied old one is gone.
      expect([...after.keys()]).toEqual(['Archive']);
      expect(after.get('Archive')).not.toBe(docs);
      expect((await me.h.assets()).map((asset) => asset.path).filter((path) => path.startsWith('/Refused/'))).toEqual(['/Refused/Archive/x.txt']);
    } finally {
      await me.h.dispose();
    }
  });
});
