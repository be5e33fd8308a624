/**
 * The local side's one I/O edge (STYLE.md): just what the scanner, the root marker and a later download
 * writer need, so it has an in-memory twin (memory-file-system.ts) for unit tests and the simulation.
 * Paths are absolute, in the platform's own form. Failures reject with an error carrying the errno
 * `code` (`ENOENT`, `EACCES`, `ENOTDIR`, `ELOOP`, `EEXIST`, …) exactly like Node's, read with `errnoCode`.
 * Nothing here follows a symlink unless its name says so (`stat`, `realpath`).
 */

export type EntryKind = 'file' | 'directory' | 'symlink' | 'other';

export interface FileStat {
  kind: EntryKind;
  size: number;
  /** Modification time, epoch milliseconds (may carry a sub-millisecond fraction). */
  mtimeMs: number;
  ino: number;
  dev: number;
  /** Permission bits (`0o644`). */
  mode: number;
}

export interface DirEntry {
  name: string;
  kind: EntryKind;
}

/** One directory entry with its `lstat`, or the errno code that `lstat` failed with. */
export type StatEntry = { name: string; stat: FileStat; error?: undefined } | { name: string; stat?: undefined; error: string };

export interface ReadHandle {
  /** The `fstat` of the open file: identity bound to what was opened, not to the path. */
  stat(): Promise<FileStat>;
  /** Reads up to `length` bytes at `position` into `buffer[offset…]`; resolves with the count (0 at the end). */
  read(buffer: Uint8Array, offset: number, length: number, position: number): Promise<number>;
  close(): Promise<void>;
}

export interface WriteHandle {
  /** Appends `data` (the whole of it) at the end of what was written so far. */
  write(data: Uint8Array): Promise<void>;
  /** fsync: the bytes are on disk when it resolves. */
  sync(): Promise<void>;
  close(): Promise<void>;
}

export interface FileSystem {
  lstat(path: string): Promise<FileStat>;
  /**
   * lstat, answering undefined where nothing is (ENOENT) instead of failing: the usual answer of a look
   * before a file lands, which as an error costs more than the lookup itself (built, thrown, caught).
   */
  lstatOrMissing(path: string): Promise<FileStat | undefined>;
  /** Like lstat but follows a final symlink (used for the root itself, which may be a link). */
  stat(path: string): Promise<FileStat>;
  readdir(path: string): Promise<DirEntry[]>;
  /**
   * readdir + lstat of every entry in one call: the walk's hot path. One call per directory keeps
   * per-file overhead out of the scanner and lets each implementation batch the way it is fastest.
   */
  readdirStats(path: string): Promise<StatEntry[]>;
  /** Canonical absolute path, all symlinks resolved. */
  realpath(path: string): Promise<string>;
  /**
   * Opens a regular file for reading without following a final symlink and without blocking on a FIFO
   * (the caller checks `stat().kind` on the handle). Rejects with EACCES when unreadable.
   */
  openRead(path: string): Promise<ReadHandle>;
  /** Whole file; for small files only (the root marker, the ignore file). */
  readFile(path: string): Promise<Uint8Array>;
  /** mkdir -p. */
  mkdirp(path: string): Promise<void>;
  /** Creates (or with `exclusive: false` truncates) a file for writing. `exclusive` fails with EEXIST. */
  openWrite(path: string, options: { exclusive: boolean }): Promise<WriteHandle>;
  /** Atomic replace within one file system. */
  rename(from: string, to: string): Promise<void>;
  utimes(path: string, atimeMs: number, mtimeMs: number): Promise<void>;
  /** Removes a file or a symlink (never a directory). */
  unlink(path: string): Promise<void>;
}

/** Whether `a` and `b` describe the same unchanged file: size, mtime and inode (DESIGN.md §3 identity). */
export function sameSignature(a: { size: number; mtimeMs: number; ino: number }, b: { size: number; mtimeMs: number; ino: number }): boolean {
  return a.size === b.size && a.mtimeMs === b.mtimeMs && a.ino === b.ino;
}
