import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { tempDirs } from '../../../test/support/temp-dirs.js';
import { createBlobStore } from './blob-store.js';
import { DirectorySyncs } from './directory-syncs.js';

const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

/** Directory syncs that record which directory was synced and what it held then; each takes `ms`. */
function recordingSyncs(ms = 0) {
  const synced: { dir: string; entries: string[] }[] = [];
  const syncs = new DirectorySyncs(async (dir) => {
    synced.push({ dir, entries: readdirSync(dir) });
    await new Promise((resolve) => setTimeout(resolve, ms));
  });
  return { syncs, synced };
}

describe('blob store', () => {
  const dirs = tempDirs();
  let root: string;
  let work: string;
  beforeEach(() => {
    const base = dirs.make('blob-store-');
    root = join(base, 'blobs');
    work = join(base, 'uploads');
    mkdirSync(work);
  });
  afterEach(() => {
    dirs.removeAll();
  });

  const upload = (bytes: Buffer): { file: string; sha: string } => {
    const file = join(work, `${randomBytes(6).toString('hex')}.upload`);
    writeFileSync(file, bytes);
    return { file, sha: sha256(bytes) };
  };

  it('renames a file into place, and syncs every new entry before it resolves, each after it was made', async () => {
    const { syncs, synced } = recordingSyncs();
    const store = createBlobStore(root, undefined, syncs);
    const bytes = randomBytes(100);
    const { file, sha } = upload(bytes);
    await store.adopt(file, sha);
    const target = store.pathOf(sha);
    expect(readFileSync(target).equals(bytes)).toBe(true);
    expect(existsSync(file)).toBe(false);
    const leaf = dirname(target);
    const middle = dirname(leaf);
    // Each directory's new entry was there when its parent was synced, and the blob when its directory was.
    expect(synced).toEqual([
      { dir: root, entries: [sha.slice(0, 2)] },
      { dir: middle, entries: [sha.slice(2, 4)] },
      { dir: leaf, entries: [sha] },
    ]);
  });

  it('syncs only the blob\'s directory once its directories are known durable', async () => {
    const { syncs, synced } = recordingSyncs();
    const store = createBlobStore(root, undefined, syncs);
    const first = upload(randomBytes(10));
    await store.adopt(first.file, first.sha);
    synced.length = 0;
    // Same directory ab/cd: a blob whose name starts like the first one's.
    const leaf = dirname(store.pathOf(first.sha));
    const twin = { file: join(work, 'twin.upload'), sha: `${first.sha.slice(0, 4)}${'0'.repeat(60)}` };
    writeFileSync(twin.file, 'twin');
    await store.adopt(twin.file, twin.sha);
    expect(synced).toEqual([{ dir: leaf, entries: [twin.sha, first.sha].sort() }]);
  });

  it('makes directories an earlier process left durable on first use, whether or not it synced them', async () => {
    const bytes = randomBytes(20);
    const sha = sha256(bytes);
    mkdirSync(join(root, sha.slice(0, 2), sha.slice(2, 4)), { recursive: true });
    const { syncs, synced } = recordingSyncs();
    const store = createBlobStore(root, undefined, syncs);
    const { file } = upload(bytes);
    await store.adopt(file, sha);
    expect(synced.map((sync) => sync.dir)).toEqual([root, join(root, sha.slice(0, 2)), join(root, sha.slice(0, 2), sha.slice(2, 4))]);
  });

  it('drops a file whose blob exists, and still syncs the blob\'s directory before answering', async () => {
    const { syncs, synced } = recordingSyncs();
    const store = createBlobStore(root, undefined, syncs);
    const bytes = randomBytes(30);
    const first = upload(bytes);
    await store.adopt(first.file, first.sha);
    synced.length = 0;
    const again = upload(bytes);
    await store.adopt(again.file, again.sha);
    expect(existsSync(again.file)).toBe(false);
    expect(readFileSync(store.pathOf(first.sha)).equals(bytes)).toBe(true);
    expect(synced).toEqual([{ dir: dirname(store.pathOf(first.sha)), entries: [first.sha] }]);
  });

  it('shares syncs between adopts landing at once', async () => {
    // Syncs as slow as a disk's: adopts arriving meanwhile queue for the next one.
    const { syncs, synced } = recordingSyncs(25);
    const store = createBlobStore(root, undefined, syncs);
    const files = Array.from({ length: 20 }, () => upload(randomBytes(40)));
    await Promise.all(files.map(({ file, sha }) => store.adopt(file, sha)));
    for (const { sha } of files) expect(existsSync(store.pathOf(sha))).toBe(true);
    // The root gets an entry for every new first-level directory, but is synced far fewer times.
    const firstLevel = new Set(files.map(({ sha }) => sha.slice(0, 2))).size;
    expect(synced.filter((sync) => sync.dir === root).length).toBeLessThan(firstLevel / 2);
    // Every blob was in its directory when one of its directory's syncs ran.
    for (const { sha } of files) {
      const leaf = dirname(store.pathOf(sha));
      expect(synced.some((sync) => sync.dir === leaf && sync.entries.includes(sha))).toBe(true);
    }
  });

  it('removes a blob with the files derived from it', async () => {
    const preview = join(work, 'preview.webp');
    const store = createBlobStore(root, () => [preview]);
    const { file, sha } = upload(randomBytes(5));
    await store.adopt(file, sha);
    writeFileSync(preview, 'p');
    store.remove(sha);
    expect(existsSync(store.pathOf(sha))).toBe(false);
    expect(existsSync(preview)).toBe(false);
  });
});
