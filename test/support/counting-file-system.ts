/**
 * A FileSystem that counts what the engine writes through it (files opened for writing, bytes, fsyncs,
 * renames) and every call that names a path, and passes each on to the real one: the per-file cost
 * budgets read its counts.
 */
import type { FileSystem, WriteHandle } from '../../src/main/local/index.js';

export interface WriteCounts {
  filesOpened: number;
  bytesWritten: number;
  syncs: number;
  renames: number;
  /** Calls that name a path (each one a lookup of it in the kernel, most a round trip to a pool thread). */
  pathCalls: number;
}

export function countingFileSystem(inner: FileSystem): { fs: FileSystem; counts: WriteCounts } {
  const counts: WriteCounts = { filesOpened: 0, bytesWritten: 0, syncs: 0, renames: 0, pathCalls: 0 };
  const call = <T>(run: () => T): T => {
    counts.pathCalls++;
    return run();
  };
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
    lstat: (path) => call(() => inner.lstat(path)),
    lstatOrMissing: (path) => call(() => inner.lstatOrMissing(path)),
    stat: (path) => call(() => inner.stat(path)),
    readdir: (path) => call(() => inner.readdir(path)),
    readdirStats: (path) => call(() => inner.readdirStats(path)),
    realpath: (path) => call(() => inner.realpath(path)),
    openRead: (path) => call(() => inner.openRead(path)),
    readFile: (path) => call(() => inner.readFile(path)),
    mkdirp: (path) => call(() => inner.mkdirp(path)),
    openWrite: async (path, options) => {
      counts.pathCalls++;
      counts.filesOpened++;
      return counted(await inner.openWrite(path, options));
    },
    rename: async (from, to) => {
      counts.pathCalls++;
      counts.renames++;
      await inner.rename(from, to);
    },
    utimes: (path, atimeMs, mtimeMs) => call(() => inner.utimes(path, atimeMs, mtimeMs)),
    unlink: (path) => call(() => inner.unlink(path)),
  };
  return { fs, counts };
}
