import { beforeEach, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createBlobStore } from './blob-store.js';
import { BlobLayoutError } from './blob-layout.js';
import { DirectorySyncs } from './directory-syncs.js';
import { sha256Hex } from '../../../test/support/checksums.js';
import { tempDir } from '../../../test/support/temp-dir.js';

interface Sync {
  dir: string;
  entries: string[];
}

/**
 * Directory syncs, the blocking ones at start and the shared ones of adopts, that record which directory
 * was synced and what it held then; each shared one takes `ms`. `failAt(n)` makes the n-th blocking sync
 * throw, as if the process died there.
 */
function recordingSyncs(ms = 0) {
  const synced: Sync[] = [];
  let blockingLeft = Infinity;
  const record = (dir: string): void => {
    synced.push({ dir, entries: readdirSync(dir).sort() });
  };
  const syncs = new DirectorySyncs(
    async (dir) => {
      record(dir);
      await new Promise((resolve) => setTimeout(resolve, ms));
    },
    (dir) => {
      blockingLeft -= 1;
      if (blockingLeft < 0) throw new Error('crashed');
      record(dir);
    },
  );
  const failAt = (n: number): void => {
    blockingLeft = n - 1;
  };
  return { syncs, synced, failAt };
}

describe('blob store', () => {
  let base: string;
  let root: string;
  let work: string;
  beforeEach(() => {
    base = tempDir('blob-store-');
    root = join(base, 'blobs');
    work = join(base, 'uploads');
    mkdirSync(work);
  });

  const upload = (bytes: Buffer): { file: string; sha: string } => {
    const file = join(work, `${randomBytes(6).toString('hex')}.upload`);
    writeFileSync(file, bytes);
    return { file, sha: sha256Hex(bytes) };
  };
  /** A store with recorded syncs, the record emptied of what creating it synced. */
  const recordedStore = (ms = 0) => {
    const { syncs, synced } = recordingSyncs(ms);
    const store = createBlobStore(root, undefined, syncs);
    synced.length = 0;
    return { store, synced };
  };

  it('keeps a blob at ab/<sha256>, one level down', async () => {
    const store = createBlobStore(root);
    const bytes = randomBytes(50);
    const { file, sha } = upload(bytes);
    expect(store.pathOf(sha)).toBe(join(root, sha.slice(0, 2), sha));
    await store.adopt(file, sha);
    expect(readdirSync(join(root, sha.slice(0, 2)))).toEqual([sha]);
    expect(() => store.pathOf('../etc/passwd')).toThrow('not a sha256');
  });

  it('makes a fresh store, its entry and its layout marker durable at creation', () => {
    const { syncs, synced } = recordingSyncs();
    createBlobStore(root, undefined, syncs);
    expect(synced).toEqual([
      { dir: base, entries: ['blobs', 'uploads'] },
      { dir: root, entries: ['layout'] },
    ]);
    expect(readFileSync(join(root, 'layout'), 'utf8')).toBe('one-level\n');
  });

  it('renames a file into place, and syncs every new entry before it resolves, each after it was made', async () => {
    const { store, synced } = recordedStore();
    const bytes = randomBytes(100);
    const { file, sha } = upload(bytes);
    await store.adopt(file, sha);
    const target = store.pathOf(sha);
    expect(readFileSync(target).equals(bytes)).toBe(true);
    expect(existsSync(file)).toBe(false);
    // The directory's new entry was there when the root was synced, and the blob when its directory was.
    expect(synced).toEqual([
      { dir: root, entries: [sha.slice(0, 2), 'layout'] },
      { dir: dirname(target), entries: [sha] },
    ]);
  });

  it("syncs only the blob's directory once its directory is known durable", async () => {
    const { store, synced } = recordedStore();
    const first = upload(randomBytes(10));
    await store.adopt(first.file, first.sha);
    synced.length = 0;
    // Same directory ab: a blob whose name starts like the first one's.
    const twin = { file: join(work, 'twin.upload'), sha: `${first.sha.slice(0, 2)}${'0'.repeat(62)}` };
    writeFileSync(twin.file, 'twin');
    await store.adopt(twin.file, twin.sha);
    expect(synced).toEqual([{ dir: dirname(store.pathOf(first.sha)), entries: [twin.sha, first.sha].sort() }]);
  });

  it('makes directories an earlier process left durable on first use, whether or not it synced them', async () => {
    const bytes = randomBytes(20);
    const sha = sha256Hex(bytes);
    createBlobStore(root);
    mkdirSync(join(root, sha.slice(0, 2)));
    const { store, synced } = recordedStore();
    const { file } = upload(bytes);
    await store.adopt(file, sha);
    expect(synced.map((sync) => sync.dir)).toEqual([root, join(root, sha.slice(0, 2))]);
  });

  it("drops a file whose blob exists, and still syncs the blob's directory before answering", async () => {
    const { store, synced } = recordedStore();
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
    const { store, synced } = recordedStore(25);
    const files = Array.from({ length: 20 }, () => upload(randomBytes(40)));
    await Promise.all(files.map(({ file, sha }) => store.adopt(file, sha)));
    for (const { sha } of files) expect(existsSync(store.pathOf(sha))).toBe(true);
    // The root gets an entry for every new directory, but is synced far fewer times.
    const directories = new Set(files.map(({ sha }) => sha.slice(0, 2))).size;
    expect(synced.filter((sync) => sync.dir === root).length).toBeLessThan(directories / 2);
    // Every blob was in its directory when one of its directory's syncs ran.
    for (const { sha } of files) {
      const dir = dirname(store.pathOf(sha));
      expect(synced.some((sync) => sync.dir === dir && sync.entries.includes(sha))).toBe(true);
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

  describe('a store in the two-level layout of earlier versions (blobs/ab/cd/<sha256>)', () => {
    interface Blob {
      sha: string;
      bytes: Buffer;
    }
    const blob = (bytes: Buffer): Blob => ({ sha: sha256Hex(bytes), bytes });
    /** Two blobs whose hashes start with the same byte, so they share a directory in both layouts. */
    const neighbours = (): [Blob, Blob] => {
      const first = blob(randomBytes(64));
      for (;;) {
        const second = blob(randomBytes(64));
        if (second.sha.slice(0, 2) === first.sha.slice(0, 2) && second.sha.slice(2, 4) !== first.sha.slice(2, 4)) return [first, second];
      }
    };
    /** A blob whose directory is not `taken`'s (tests that look at one directory's syncs). */
    const blobBeside = (taken: Blob): Blob => {
      for (;;) {
        const other = blob(randomBytes(64));
        if (other.sha.slice(0, 2) !== taken.sha.slice(0, 2)) return other;
      }
    };
    const legacyPath = ({ sha }: Blob): string => join(root, sha.slice(0, 2), sha.slice(2, 4), sha);
    const newPath = ({ sha }: Blob): string => join(root, sha.slice(0, 2), sha);
    const put = (path: string, { bytes }: Blob): void => {
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, bytes);
    };
    /** Every blob readable at the store's path for it, and nowhere in the old layout. */
    const expectMigrated = (blobs: Blob[]): void => {
      const store = createBlobStore(root);
      for (const each of blobs) {
        expect(store.pathOf(each.sha)).toBe(newPath(each));
        expect(readFileSync(newPath(each)).equals(each.bytes)).toBe(true);
        expect(existsSync(dirname(legacyPath(each)))).toBe(false);
      }
    };

    it('moves every blob up one level, drops the old copy of one already moved, removes the emptied directories, then marks the store', () => {
      const [first, second] = neighbours();
      const others = Array.from({ length: 4 }, () => blobBeside(first));
      const both = blobBeside(first);
      for (const each of [first, second, ...others, both]) put(legacyPath(each), each);
      put(newPath(both), both);
      const { syncs, synced } = recordingSyncs();
      createBlobStore(root, undefined, syncs);
      expectMigrated([first, second, ...others, both]);
      expect(readFileSync(join(root, 'layout'), 'utf8')).toBe('one-level\n');
      expect(readdirSync(root).sort()).toEqual([...new Set([first, second, ...others, both].map(({ sha }) => sha.slice(0, 2)))].concat('layout').sort());

      // A directory is synced with its blobs in it before its old directories go, and again after; the
      // marker comes last.
      const shared = join(root, first.sha.slice(0, 2));
      expect(synced.filter((sync) => sync.dir === shared)).toEqual([
        { dir: shared, entries: [first.sha.slice(2, 4), first.sha, second.sha.slice(2, 4), second.sha].sort() },
        { dir: shared, entries: [first.sha, second.sha].sort() },
      ]);
      expect(synced.at(-1)).toEqual({ dir: root, entries: expect.arrayContaining(['layout']) });
      expect(synced.filter((sync) => sync.dir === root)).toHaveLength(1);
    });

    it('finishes a migration that stopped half-way, and a second run changes nothing', () => {
      const blobs = Array.from({ length: 8 }, () => blob(randomBytes(64)));
      for (const each of blobs) put(legacyPath(each), each);
      // Dies at the third directory sync: some blobs moved, maybe in both places, old directories left.
      const crashing = recordingSyncs();
      crashing.failAt(3);
      expect(() => createBlobStore(root, undefined, crashing.syncs)).toThrow('crashed');
      expect(existsSync(join(root, 'layout'))).toBe(false);
      // As a crash may also leave it: one blob in both places.
      const [both] = blobs;
      if (both === undefined) throw new Error('no blob');
      if (!existsSync(legacyPath(both))) put(legacyPath(both), both);
      if (!existsSync(newPath(both))) put(newPath(both), both);

      expectMigrated(blobs);
      const tree = (): string[] => readdirSync(root, { recursive: true }).map(String).sort();
      const migrated = tree();
      // Marked now: the next start looks no further.
      const marked = recordingSyncs();
      createBlobStore(root, undefined, marked.syncs);
      expect(marked.synced).toEqual([]);
      expect(tree()).toEqual(migrated);
      // A crash after the last move but before the marker: the scan finds nothing to move, and only syncs.
      rmSync(join(root, 'layout'));
      const rescanned = recordingSyncs();
      createBlobStore(root, undefined, rescanned.syncs);
      expect(tree()).toEqual(migrated);
      const directories = new Set(blobs.map(({ sha }) => join(root, sha.slice(0, 2))));
      expect(rescanned.synced.map((sync) => sync.dir).sort()).toEqual([...directories, root].sort());
    });

    it('does not scan a store marked as migrated', () => {
      createBlobStore(root);
      // Not something the service would leave once marked, so left where it is: it is not looked for.
      const stray = blob(randomBytes(64));
      put(legacyPath(stray), stray);
      const { syncs, synced } = recordingSyncs();
      createBlobStore(root, undefined, syncs);
      expect(synced).toEqual([]);
      expect(existsSync(legacyPath(stray))).toBe(true);
      expect(existsSync(newPath(stray))).toBe(false);
    });

    it('leaves alone what it does not know, and the directories holding it', () => {
      const known = blob(randomBytes(64));
      put(legacyPath(known), known);
      const oldDir = dirname(legacyPath(known));
      const strays = [
        join(root, 'README'),
        join(root, 'tmp', 'x'),
        join(root, 'zz', 'x'),
        join(oldDir, 'notes.txt'),
        // A blob's name under the wrong prefix is not ours either.
        join(oldDir, `${known.sha.slice(0, 2)}${(known.sha[2] === 'f' ? 'e' : 'f').repeat(62)}`),
      ];
      for (const path of strays) put(path, blob(Buffer.from('stray')));
      expectMigrated([]);
      expect(readFileSync(newPath(known)).equals(known.bytes)).toBe(true);
      expect(existsSync(legacyPath(known))).toBe(false);
      for (const path of strays) expect(readFileSync(path, 'utf8')).toBe('stray');
      expect(existsSync(join(root, 'layout'))).toBe(true);
    });

    it('stops at start, touching nothing, when a file is where a directory of blobs must be', () => {
      const legacy = blob(randomBytes(64));
      put(legacyPath(legacy), legacy);
      const blocker = join(root, legacy.sha.slice(0, 2) === 'ab' ? 'cd' : 'ab');
      writeFileSync(blocker, 'not a directory');
      const error = catchError(() => createBlobStore(root));
      expect(error).toBeInstanceOf(BlobLayoutError);
      expect(error).toMatchObject({ code: 'BLOB_DIRECTORY_BLOCKED', path: blocker });
      expect(String(error)).toContain(`${blocker} is not a directory`);
      expect(readFileSync(blocker, 'utf8')).toBe('not a directory');
      expect(existsSync(legacyPath(legacy))).toBe(true);
      expect(existsSync(join(root, 'layout'))).toBe(false);
    });

    it('stops at start, keeping the blob, when something that is not a file takes its new name', () => {
      const legacy = blob(randomBytes(64));
      put(legacyPath(legacy), legacy);
      mkdirSync(newPath(legacy));
      expect(() => createBlobStore(root)).toThrow(expect.objectContaining({ code: 'BLOB_NAME_BLOCKED', path: newPath(legacy) }));
      expect(readFileSync(legacyPath(legacy)).equals(legacy.bytes)).toBe(true);
      expect(existsSync(join(root, 'layout'))).toBe(false);
    });

    it('stops at start on a layout marker it does not know', () => {
      mkdirSync(root);
      writeFileSync(join(root, 'layout'), 'three-level\n');
      expect(() => createBlobStore(root)).toThrow(expect.objectContaining({ code: 'BLOB_LAYOUT_UNKNOWN' }));
    });
  });
});

function catchError(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('did not throw');
}
