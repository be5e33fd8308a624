/**
 * What the download writer needs beyond FileSystem, on real disks: the size of a partial temp file (to
 * resume it), fsync of a finished one before it is renamed into place, removing a temp file, and
 * removing a directory only when it is empty. Downloads stream into real files (AssetApi.downloadToFile),
 * so this edge is Node-only; the in-memory twin keeps files in a MemoryFileSystem.
 * Must never remove a non-empty directory or follow a symlink.
 */
import { constants } from 'node:fs';
import { copyFile, open, rmdir, stat, unlink } from 'node:fs/promises';
import type { MemoryFileSystem } from './memory-file-system.js';
import { errnoCode } from './local-error.js';

export interface LocalDisk {
  /** Bytes in the file, or undefined when there is none. */
  fileSize(path: string): Promise<number | undefined>;
  /** fsync: the file's bytes are on disk when it resolves. */
  syncFile(path: string): Promise<void>;
  /** Removes a file; a missing one is fine. */
  removeFile(path: string): Promise<void>;
  /** Copies a file to a path where nothing is yet (fails with EEXIST otherwise). */
  copyFile(from: string, to: string): Promise<void>;
  /** Removes the directory when it is empty; true when it is gone. Never removes anything inside. */
  removeEmptyDir(path: string): Promise<boolean>;
}

export const nodeLocalDisk: LocalDisk = {
  async fileSize(path) {
    try {
      const info = await stat(path);
      return info.isFile() ? info.size : undefined;
    } catch (error) {
      if (errnoCode(error) === 'ENOENT') return undefined;
      throw error;
    }
  },
  async syncFile(path) {
    const handle = await open(path, 'r+');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  },
  async removeFile(path) {
    await unlink(path).catch((error: unknown) => {
      if (errnoCode(error) !== 'ENOENT') throw error;
    });
  },
  async copyFile(from, to) {
    await copyFile(from, to, constants.COPYFILE_EXCL);
  },
  async removeEmptyDir(path) {
    try {
      await rmdir(path);
      return true;
    } catch (error) {
      const code = errnoCode(error);
      if (code === 'ENOENT') return true;
      if (code === 'ENOTEMPTY' || code === 'EEXIST' || code === 'ENOTDIR') return false;
      throw error;
    }
  },
};

/** The twin over a MemoryFileSystem, for unit tests and the simulation. */
export function memoryLocalDisk(fs: MemoryFileSystem): LocalDisk {
  return {
    fileSize: async (path) => {
      const info = await fs.lstat(path).catch(() => undefined);
      return info?.kind === 'file' ? info.size : undefined;
    },
    syncFile: async () => undefined,
    removeFile: async (path) => fs.unlink(path).catch(() => undefined),
    copyFile: async (from, to) => fs.writeFile(to, await fs.readFile(from)),
    removeEmptyDir: async (path) => {
      const entries = await fs.readdir(path).catch(() => undefined);
      if (entries === undefined) return true;
      if (entries.length > 0) return false;
      fs.remove(path);
      return true;
    },
  };
}
