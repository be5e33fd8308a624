import { describe, expect, it } from 'vitest';
import { memoryLocalDisk } from './local-disk.js';
import { MemoryFileSystem } from './memory-file-system.js';
import { removeEmptyTree } from './remove-empty-tree.js';

describe('removeEmptyTree', () => {
  it('removes a folder holding only empty folders, at any depth', async () => {
    const fs = new MemoryFileSystem();
    fs.mkdirpSync('/root/B/E/F');
    fs.mkdirpSync('/root/B/G');
    fs.writeFile('/root/keep.txt', 'beside it');
    expect(await removeEmptyTree(fs, memoryLocalDisk(fs), '/root/B')).toBe(true);
    expect(fs.listSync('/root').map((entry) => entry.name)).toEqual(['keep.txt']);
  });

  it('removes an empty folder', async () => {
    const fs = new MemoryFileSystem();
    fs.mkdirpSync('/root/B');
    expect(await removeEmptyTree(fs, memoryLocalDisk(fs), '/root/B')).toBe(true);
    expect(fs.kindOf('/root/B')).toBeUndefined();
  });

  it('leaves the whole tree when a file is anywhere in it, even after an empty folder', async () => {
    const fs = new MemoryFileSystem();
    fs.mkdirpSync('/root/B/A');
    fs.writeFile('/root/B/E/deep/x.txt', 'a file');
    expect(await removeEmptyTree(fs, memoryLocalDisk(fs), '/root/B')).toBe(false);
    expect(fs.kindOf('/root/B/A')).toBe('directory');
    expect(fs.readText('/root/B/E/deep/x.txt')).toBe('a file');
  });

  it('never follows or removes a symlink in the tree', async () => {
    const fs = new MemoryFileSystem();
    fs.mkdirpSync('/elsewhere/empty');
    fs.mkdirpSync('/root/B');
    fs.symlink('/elsewhere', '/root/B/link');
    expect(await removeEmptyTree(fs, memoryLocalDisk(fs), '/root/B')).toBe(false);
    expect(fs.kindOf('/root/B/link')).toBe('symlink');
    expect(fs.kindOf('/elsewhere/empty')).toBe('directory');
  });

  it('stops where a file appeared after the tree was read', async () => {
    const fs = new MemoryFileSystem();
    fs.mkdirpSync('/root/B/E');
    const disk = memoryLocalDisk(fs);
    // The file lands in B just as E is removed, between the listing and B's own removal.
    const racing = { removeEmptyDir: async (path: string): Promise<boolean> => {
      const gone = await disk.removeEmptyDir(path);
      if (path === '/root/B/E') fs.writeFile('/root/B/new.txt', 'written meanwhile');
      return gone;
    } };
    expect(await removeEmptyTree(fs, racing, '/root/B')).toBe(false);
    expect(fs.readText('/root/B/new.txt')).toBe('written meanwhile');
  });
});
