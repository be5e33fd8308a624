/**
 * `FolderMapper.inRoot` against the real service: whether a folder's option lies in a sync root is
 * read past the folder cache, which knows only the directories this client maps. A folder another
 * client renamed or moved (the option keeps its id) is still in the root though no directory maps it
 * (simulation seed 86183); a folder beside the root is not, nor is an option deleted since.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient, staticTokenProvider, type ApiClient } from '../../src/main/api/index.js';
import { foldersRepo } from '../../src/main/db/folders-repo.js';
import { openStateDb, type StateDb } from '../../src/main/db/open-state-db.js';
import { rootsRepo } from '../../src/main/db/roots-repo.js';
import { FolderMapper } from '../../src/main/remote/folder-mapper.js';
import { colleague } from '../support/two-way.js';
import { startTestService, type TestService } from '../support/test-service.js';
import { tempDir } from '../support/temp-dir.js';

describe('whether a folder lies in a sync root', () => {
  let service: TestService;
  let api: ApiClient;
  let db: StateDb;
  let dir: string;
  /** A sync root of the state database mapping `remotePath`. */
  const rootAt = (remotePath: string) => {
    const { id } = rootsRepo(db).upsert({ path: join(dir, remotePath), server: service.url, remotePath, publishLive: false }, new Date(0).toISOString());
    return { id, remotePath };
  };
  beforeAll(async () => {
    service = await startTestService();
    api = createApiClient({ server: service.url, tokens: staticTokenProvider(await service.token()) });
    dir = tempDir();
    db = openStateDb(join(dir, 'state.db'));
  });
  afterAll(async () => {
    db.close();
    api.close();
    await service.dispose();
  });

  it('reads the option and its parents when the cache does not map it', async () => {
    const folders = new FolderMapper(api, foldersRepo(db));
    const root = rootAt('/Brand');
    const other = colleague(service, api);
    const logos = await folders.optionFor(root, 'Logos');
    // Another client moves `Brand/Logos` under `Brand/Old/2024`: this client's cache maps it nowhere.
    const moved = await other.folder('/Brand/Old/2024');
    await api.changeFieldOption(logos ?? '', { value: 'Logos', parentId: moved });
    folders.forget(root, 'Logos');
    expect(folders.dirOf(root, logos ?? '')).toBeUndefined();
    expect(await folders.inRoot(root, logos ?? '')).toBe(true);

    expect(await folders.inRoot(root, await other.folder('/Elsewhere/Logos'))).toBe(false);
    expect(await folders.inRoot(root, await other.folder('/Brandy'))).toBe(false);
    const gone = await other.folder('/Brand/Gone');
    await api.deleteFieldOption(gone);
    expect(await folders.inRoot(root, gone)).toBe(false);
  });

  it('holds every option of the field in a root at its top level', async () => {
    const folders = new FolderMapper(api, foldersRepo(db));
    expect(await folders.inRoot(rootAt('/'), await colleague(service, api).folder('/Anything/Below'))).toBe(true);
  });
});
