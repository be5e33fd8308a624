import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { FieldOption } from '../../shared/api/resources.js';
import { ApiError, type AssetApi } from '../api/index.js';
import { openStateDb, type StateDb } from '../db/open-state-db.js';
import { foldersRepo } from '../db/folders-repo.js';
import { remoteRepo } from '../db/remote-repo.js';
import { rootsRepo } from '../db/roots-repo.js';
import { FolderMapper } from './folder-mapper.js';
import { RemoteFeed } from './remote-feed.js';
import { tempDir } from '../../../test/support/temp-dir.js';

/** A Folders option, as the service lists it. */
const option = (id: string, value: string, parent: FieldOption | null = null): FieldOption => ({ id, fieldId: 'folders', value, position: 0, leaf: false, numberOfChildren: 0, parent });

/** A service with no assets whose folder tree is `children` (each parent's options; `null`: the top), read as it stands at each call. */
function folderTree(children: ReadonlyMap<string | null, FieldOption[]>): AssetApi {
  const service: Partial<AssetApi> = {
    foldersFieldId: async () => 'folders',
    listFieldOptionChildren: async (_fieldId, parentId) => children.get(parentId) ?? [],
    async *scrollAssets() {
      yield* [];
    },
    searchAssets: async () => ({ totalResults: 0, results: [] }),
  };
  return service as AssetApi;
}

describe('RemoteFeed schedule', () => {
  const opened: { db: StateDb; dir: string }[] = [];
  afterEach(() => {
    for (const { db } of opened.splice(0)) {
      db.close();
    }
  });

  /** A feed over `api` (a test double with only what the feed asks) for a `/` root. */
  function feedOver(api: AssetApi) {
    const dir = tempDir('asset-sync-remote-feed-');
    const db = openStateDb(join(dir, 'state.db'));
    opened.push({ db, dir });
    let now = 1_000_000;
    const root = rootsRepo(db).upsert({ path: dir, server: 'http://127.0.0.1:1', remotePath: '/', publishLive: false }, new Date(0).toISOString());
    const folders = new FolderMapper(api, foldersRepo(db));
    const feed = new RemoteFeed({ id: root.id, remotePath: '/' }, { api, folders, repo: remoteRepo(db), now: () => now, random: () => 0 });
    return { feed, folders, advance: (ms: number) => (now += ms), now: () => now };
  }

  const down = async (): Promise<never> => Promise.reject(new ApiError({ code: 'NETWORK', message: 'down' }));
  const ignores = (): boolean => false;

  it('backs off after failures instead of trying again at every pass, until asked for a full listing', async () => {
    const failing: Partial<AssetApi> = { foldersFieldId: down, listFieldOptionChildren: down };
    const { feed, now, advance } = feedOver(failing as AssetApi);
    const delays: number[] = [];
    for (let attempt = 0; attempt < 4; attempt++) {
      await expect(feed.update(ignores)).rejects.toMatchObject({ code: 'NETWORK' });
      delays.push(feed.nextDueAt() - now());
      // Not due yet: a pass in between does nothing and asks nothing.
      expect(await feed.update(ignores)).toEqual({ did: 'nothing', folderChanges: [] });
      advance(delays.at(-1) ?? 0);
    }
    // Half of 1 s, 2 s, 4 s, 8 s (random 0 is the low end of the jitter).
    expect(delays).toEqual([500, 1000, 2000, 4000]);
    feed.requestFull();
    expect(feed.nextDueAt()).toBe(0);
  });

  it('while the change feed is followed, polls only when it says something changed; a deletion asks for a full listing', async () => {
    const searches: string[] = [];
    const quiet: Partial<AssetApi> = {
      foldersFieldId: async () => 'folders',
      listFieldOptionChildren: async () => [],
      async *scrollAssets() {
        searches.push('scroll');
        yield* [];
      },
      async searchAssets() {
        searches.push('search');
        return { totalResults: 0, results: [] };
      },
    };
    const { feed, now, advance } = feedOver(quiet as AssetApi);
    expect((await feed.update(ignores)).did).toBe('full');
    feed.follow(true);
    expect(feed.nextDueAt()).toBe(now() + 10 * 60_000);
    advance(60_000);
    expect((await feed.update(ignores)).did).toBe('nothing');
    feed.changed(['ASSET_FILE']);
    expect(feed.nextDueAt()).toBe(0);
    expect((await feed.update(ignores)).did).toBe('poll');
    expect(feed.nextDueAt()).toBeGreaterThan(now());
    feed.changed(['ASSET_DELETED']);
    expect((await feed.update(ignores)).did).toBe('full');
    expect(searches).toEqual(['scroll', 'search', 'scroll']);
    // The stream dropped: the poll schedule is back.
    feed.follow(false);
    expect(feed.nextDueAt()).toBe(now() + 10_000);
  });
  it('while the change feed is followed, a full listing reuses the last walk until a folder change, a break or a full listing asked for', async () => {
    let walks = 0;
    const quiet: Partial<AssetApi> = {
      foldersFieldId: async () => 'folders',
      listFieldOptionChildren: async () => {
        walks++;
        return [];
      },
      async *scrollAssets() {
        yield* [];
      },
      searchAssets: async () => ({ totalResults: 0, results: [] }),
    };
    const { feed, advance } = feedOver(quiet as AssetApi);
    const full = async (): Promise<number> => {
      advance(10 * 60_000);
      const before = walks;
      expect((await feed.update(ignores)).did).toBe('full');
      return walks - before;
    };
    // Not followed: every full listing walks.
    expect(await full()).toBe(1);
    feed.follow(true);
    // The walk before was taken unfollowed: this one walks, the next reuses it.
    expect(await full()).toBe(1);
    expect(await full()).toBe(0);
    // A folder changed: walked at once (the poll), and that walk serves the next full listing.
    feed.changed(['FOLDER']);
    const before = walks;
    expect((await feed.update(ignores)).did).toBe('poll');
    expect(walks - before).toBe(1);
    expect(await full()).toBe(0);
    // A kind we do not know, a full listing asked for (`--once`, a lost history), a break in the feed: walked again.
    feed.changed(['SOMETHING_NEW']);
    expect(await full()).toBe(1);
    feed.requestFull();
    expect(await full()).toBe(1);
    feed.changed(['ASSET_DELETED']);
    expect(await full()).toBe(0);
    feed.follow(false);
    feed.follow(true);
    expect(await full()).toBe(1);
  });

  it('forgets the folder cache of a removed or moved option with the tree that no longer holds it, so a crash before the change is applied on disk leaves no stale folder (seed 103748)', async () => {
    const children = new Map<string | null, FieldOption[]>([
      [null, [option('oA', 'A'), option('oB', 'B')]],
      ['oA', [option('oC', 'C')]],
    ]);
    const { feed, folders, advance } = feedOver(folderTree(children));
    const root = feed.root;
    expect((await feed.update(ignores)).did).toBe('full');
    folders.remember(root, 'A', 'oA');
    folders.remember(root, 'A/C', 'oC');
    folders.remember(root, 'B', 'oB');
    // Elsewhere `A` (with `A/C`) is deleted and `B` renamed `D`.
    children.set(null, [option('oB', 'D')]);
    children.delete('oA');
    advance(10 * 60_000);
    const update = await feed.update(ignores);
    expect(update.folderChanges).toEqual(
      expect.arrayContaining([
        { kind: 'REMOVED', relDir: 'A', optionId: 'oA' },
        { kind: 'REMOVED', relDir: 'A/C', optionId: 'oC' },
        { kind: 'MOVED', from: 'B', to: 'D', optionId: 'oB' },
      ]),
    );
    // The changes are not applied (the engine crashed first): the next walk will not find them again,
    // and the cache names none of the old folders. Kept, `A` named a deleted option, and every upload
    // into `A/C` asked the service for a folder under it, refused on every pass.
    expect([folders.knownOption(root, 'A'), folders.knownOption(root, 'A/C'), folders.knownOption(root, 'B')]).toEqual([undefined, undefined, undefined]);
    advance(10 * 60_000);
    expect(await feed.update(ignores)).toEqual({ did: 'full', folderChanges: [] });
  });

  it('forgets a folder the cache maps to an option the tree does not hold there, though no walk saw that option go (seed 141957)', async () => {
    const children = new Map<string | null, FieldOption[]>([[null, [option('oA', 'A')]]]);
    const { feed, folders, advance } = feedOver(folderTree(children));
    const root = feed.root;
    expect((await feed.update(ignores)).did).toBe('full');
    // An upload into `A/C` made its option before any walk held it; elsewhere that option is deleted
    // and a new `A/C` made, all before the next walk, which reads only a new folder.
    folders.remember(root, 'A', 'oA');
    folders.remember(root, 'A/C', 'oC');
    children.set('oA', [option('oC2', 'C', option('oA', 'A'))]);
    advance(10 * 60_000);
    expect((await feed.update(ignores)).folderChanges).toEqual([{ kind: 'CREATED', relDir: 'A/C', optionId: 'oC2' }]);
    // Kept, `A/C` named the deleted option, and every move out of it asked the service to take the
    // asset out of that option too, refused on every pass.
    expect(folders.knownOption(root, 'A')).toBe('oA');
    expect(folders.knownOption(root, 'A/C')).toBeUndefined();
    expect(await folders.optionFor(root, 'A/C')).toBe('oC2');
  });
});
