/** One contract, two implementations: the in-memory twin must behave like the real file system. */
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { FileSystem } from './file-system.js';
import { MemoryFileSystem } from './memory-file-system.js';
import { NodeFileSystem } from './node-file-system.js';
import { InlineCalls } from '../disk/inline-calls.js';
import { tempDir } from '../../../test/support/temp-dir.js';

interface Fixture {
  fs: FileSystem;
  root: string;
  file: (relPath: string, data: string) => void;
  dir: (relPath: string) => void;
  symlink: (target: string, relPath: string) => void;
  fifo: (relPath: string) => boolean;
  cleanup: () => void;
}

/** The real file system, its small calls run as `inline` decides (io/inline-calls.ts). */
function nodeFixture(inline: InlineCalls): Fixture {
  const root = tempDir('asset-sync-fs-');
  return {
    fs: new NodeFileSystem({ inline }),
    root,
    file: (relPath, data) => writeFileSync(join(root, relPath), data),
    dir: (relPath) => mkdirSync(join(root, relPath), { recursive: true }),
    symlink: (target, relPath) => symlinkSync(target, join(root, relPath)),
    fifo: (relPath) => {
      try {
        execFileSync('mkfifo', [join(root, relPath)]);
        return true;
      } catch {
        return false;
      }
    },
    cleanup: () => rmSync(root, { recursive: true, force: true }),
  };
}

const implementations: [string, () => Fixture][] = [
  // The temp directory counts as a local disk: its calls run on the event loop.
  ['NodeFileSystem, inline', () => nodeFixture(new InlineCalls({ isLocalDirectory: () => Promise.resolve(true) }))],
  // A slice too short for a second call: each turn runs one inline and the rest on the pool.
  ['NodeFileSystem, inline one call a turn', () => nodeFixture(new InlineCalls({ isLocalDirectory: () => Promise.resolve(true), sliceMs: 1e-9 }))],
  // As on a network share: every call on the thread pool.
  ['NodeFileSystem, pooled', () => nodeFixture(new InlineCalls({ isLocalDirectory: () => Promise.resolve(false) }))],
  [
    'MemoryFileSystem',
    () => {
      const fs = new MemoryFileSystem();
      const root = '/tmp/fixture';
      fs.mkdirpSync(root);
      return {
        fs,
        root,
        file: (relPath, data) => fs.writeFile(`${root}/${relPath}`, data),
        dir: (relPath) => fs.mkdirpSync(`${root}/${relPath}`),
        symlink: (target, relPath) => fs.symlink(target, `${root}/${relPath}`),
        fifo: (relPath) => {
          fs.mkfifo(`${root}/${relPath}`);
          return true;
        },
        cleanup: () => undefined,
      };
    },
  ],
];

describe.each(implementations)('%s', (_name, make) => {
  let fixture: Fixture | undefined;
  const setup = (): Fixture => {
    fixture = make();
    const { file, dir, symlink } = fixture;
    dir('folder/sub');
    file('folder/data.txt', 'hello world');
    file('empty', '');
    symlink('folder', 'dir-link');
    symlink('folder/data.txt', 'file-link');
    symlink('nowhere', 'dangling');
    return fixture;
  };
  afterEach(() => fixture?.cleanup());

  it('tells kinds apart with lstat, follows with stat and realpath', async () => {
    const { fs, root } = setup();
    const at = (relPath: string): string => join(root, relPath);
    expect((await fs.lstat(at('folder'))).kind).toBe('directory');
    expect(await fs.lstat(at('folder/data.txt'))).toMatchObject({ kind: 'file', size: 11 });
    expect((await fs.lstat(at('dir-link'))).kind).toBe('symlink');
    expect((await fs.lstat(at('dangling'))).kind).toBe('symlink');
    expect((await fs.stat(at('file-link'))).kind).toBe('file');
    expect((await fs.lstat(at('dir-link/data.txt'))).kind).toBe('file'); // intermediate links are followed
    expect(await fs.realpath(at('dir-link/data.txt'))).toBe(await fs.realpath(at('folder/data.txt')));
    await expect(fs.lstat(at('missing/x'))).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(fs.lstat(at('folder/data.txt/x'))).rejects.toMatchObject({ code: 'ENOTDIR' });
    await expect(fs.stat(at('dangling'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('answers nothing where nothing is, and fails as lstat does otherwise', async () => {
    const { fs, root } = setup();
    const at = (relPath: string): string => join(root, relPath);
    expect(await fs.lstatOrMissing(at('folder/data.txt'))).toEqual(await fs.lstat(at('folder/data.txt')));
    expect((await fs.lstatOrMissing(at('dangling')))?.kind).toBe('symlink');
    expect(await fs.lstatOrMissing(at('folder/missing.txt'))).toBeUndefined();
    expect(await fs.lstatOrMissing(at('missing/x'))).toBeUndefined();
    await expect(fs.lstatOrMissing(at('folder/data.txt/x'))).rejects.toMatchObject({ code: 'ENOTDIR' });
  });

  it('lists directories with kinds, and with lstat results', async () => {
    const { fs, root } = setup();
    const byName = <T extends { name: string }>(entries: T[]): T[] => entries.sort((a, b) => (a.name < b.name ? -1 : 1));
    expect(byName(await fs.readdir(root))).toEqual([
      { name: 'dangling', kind: 'symlink' },
      { name: 'dir-link', kind: 'symlink' },
      { name: 'empty', kind: 'file' },
      { name: 'file-link', kind: 'symlink' },
      { name: 'folder', kind: 'directory' },
    ]);
    const stats = byName(await fs.readdirStats(join(root, 'folder')));
    expect(stats.map((entry) => [entry.name, entry.stat?.kind, entry.stat?.kind === 'file' ? entry.stat.size : undefined])).toEqual([
      ['data.txt', 'file', 11],
      ['sub', 'directory', undefined],
    ]);
    expect(await fs.readdirStats(join(root, 'folder/sub'))).toEqual([]);
    await expect(fs.readdirStats(join(root, 'missing'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('reads ranges through a handle that refuses symlinks and does not block on a FIFO', async () => {
    const { fs, root, fifo } = setup();
    const handle = await fs.openRead(join(root, 'folder/data.txt'));
    const buffer = new Uint8Array(8);
    expect(await handle.read(buffer, 2, 5, 6)).toBe(5);
    expect(new TextDecoder().decode(buffer.subarray(2, 7))).toBe('world');
    expect(await handle.read(buffer, 0, 8, 11)).toBe(0);
    expect(await handle.stat()).toMatchObject({ kind: 'file', size: 11 });
    await handle.close();
    await expect(fs.openRead(join(root, 'file-link'))).rejects.toMatchObject({ code: 'ELOOP' });
    await expect(fs.openRead(join(root, 'missing'))).rejects.toMatchObject({ code: 'ENOENT' });
    if (fifo('pipe')) {
      const pipe = await fs.openRead(join(root, 'pipe'));
      expect((await pipe.stat()).kind).toBe('other');
      await pipe.close();
    }
  });

  it('writes, syncs, renames over, sets times and unlinks', async () => {
    const { fs, root } = setup();
    const target = join(root, 'folder/data.txt');
    const temp = join(root, 'new/deep/temp');
    await fs.mkdirp(join(root, 'new/deep'));
    await fs.mkdirp(join(root, 'new/deep'));
    const handle = await fs.openWrite(temp, { exclusive: true });
    await handle.write(new TextEncoder().encode('new '));
    await handle.write(new TextEncoder().encode('content'));
    await handle.sync();
    await handle.close();
    await expect(fs.openWrite(temp, { exclusive: true })).rejects.toMatchObject({ code: 'EEXIST' });
    const tempIno = (await fs.lstat(temp)).ino;
    await fs.utimes(temp, 1_700_000_000_000, 1_700_000_000_000);
    await fs.rename(temp, target);
    expect(await fs.lstat(target)).toMatchObject({ kind: 'file', size: 11, ino: tempIno, mtimeMs: 1_700_000_000_000 });
    expect(new TextDecoder().decode(await fs.readFile(target))).toBe('new content');
    await expect(fs.lstat(temp)).rejects.toMatchObject({ code: 'ENOENT' });
    await fs.unlink(join(root, 'dir-link'));
    expect((await fs.lstat(join(root, 'folder'))).kind).toBe('directory'); // a link's target survives
    await fs.unlink(target);
    await expect(fs.unlink(target)).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(fs.unlink(join(root, 'folder'))).rejects.toMatchObject({ code: expect.stringMatching(/^(EISDIR|EPERM)$/) });
  });
});

describe('NodeFileSystem, the objects of a listing', () => {
  it('makes the lstat results of readdirStats and lstat by constructor, never as object literals', async () => {
    // V8 makes every later object of an object literal in the old generation once most of those it
    // made outlived a young collection (a listing of a thousand folders waiting to be walked); a
    // million-file walk then filled the old generation with dead FileStats several times a scan.
    const fixture = nodeFixture(new InlineCalls({ isLocalDirectory: () => Promise.resolve(true), sliceMs: 1e-9 }));
    try {
      fixture.dir('folder');
      for (let index = 0; index < 40; index++) fixture.file(`folder/file-${index}`, 'x');
      const entries = await fixture.fs.readdirStats(join(fixture.root, 'folder'));
      const listed = await fixture.fs.readdirStats(fixture.root);
      expect(entries).toHaveLength(40);
      for (const made of [...entries, ...entries.map((entry) => entry.stat), ...listed, await fixture.fs.lstat(join(fixture.root, 'folder'))]) {
        expect(Object.getPrototypeOf(made)).not.toBe(Object.prototype);
      }
    } finally {
      fixture.cleanup();
    }
  });
});
