/**
 * A FileSystem that counts what the engine writes through it (files opened for writing, bytes, fsyncs,
 * renames) and passes every call on to the real one: the per-file cost budgets read its counts.
 */
import type { FileSystem, WriteHandle } from '../../src/main/local/index.js';

export interface WriteCounts {
  filesOpened: number;
  bytesWritten: number;
  syncs: number;
  renames: number;
}

export function countingFileSystem(inner: FileSystem): { fs: FileSystem; counts: WriteCounts } {
  const counts: WriteCounts = { filesOpened: 0, bytesWritten: 0, syncs: 0, renames: 0 };
  const counted = (handle: WriteHandle): WriteHandle => ({
    write: async (data) => {
      counts.bytesWritten += data.byteLength;
      await handle.write(data);
    },
    sync: async () => {
      counts.syncs++;
      await handle.sync();
    },
    close: () => handle.close(),
  });
  const fs: FileSystem = {
    lstat: (path) => inner.lstat(path),
    stat: (path) => inner.stat(path),
    readdir: (path) => inner.readdir(path),
    readdirStats: (path) => inner.readdirStats(path),
    realpath: (path) => inner.realpath(path),
    openRead: (path) => inner.openRead(path),
    readFile: (path) => inner.readFile(path),
    mkdirp: (path) => inner.mkdirp(path),
    openWrite: async (path, options) => {
      counts.filesOpened++;
      return counted(await inner.openWrite(path, options));
    },
    rename: async (from, to) => {
      counts.renames++;
      await inner.rename(from, to);
    },
    utimes: (path, atimeMs, mtimeMs) => inner.utimes(path, atimeMs, mtimeMs),
    unlink: (path) => inner.unlink(path),
  };
  return { fs, counts };
}
