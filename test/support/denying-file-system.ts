/**
 * A FileSystem that answers EACCES for chosen paths, as a folder or file without read permission does
 * for an ordinary user. Tests run as root, where mode 000 denies nothing, so a permission error and its
 * fix (`allow`) are injected here around the real disk (Syncthing's errorfs, in miniature).
 */
import type { FileSystem, ReadHandle, StatEntry } from '../../src/main/local/file-system.js';

export class DenyingFileSystem implements FileSystem {
  private readonly denied = new Set<string>();

  constructor(private readonly inner: FileSystem) {}

  /** Listing the folder, or opening the file, at `absPath` fails with EACCES from now on. */
  deny(absPath: string): void {
    this.denied.add(absPath);
  }

  /** The permission is fixed. */
  allow(absPath: string): void {
    this.denied.delete(absPath);
  }

  private check(path: string): void {
    if (this.denied.has(path)) throw Object.assign(new Error(`EACCES: permission denied, open '${path}'`), { code: 'EACCES', path });
  }

  lstat = (path: string) => this.inner.lstat(path);
  lstatOrMissing = (path: string) => this.inner.lstatOrMissing(path);
  stat = (path: string) => this.inner.stat(path);
  readdir = async (path: string) => {
    this.check(path);
    return this.inner.readdir(path);
  };
  readdirStats = async (path: string): Promise<StatEntry[]> => {
    this.check(path);
    return this.inner.readdirStats(path);
  };
  realpath = (path: string) => this.inner.realpath(path);
  openRead = async (path: string): Promise<ReadHandle> => {
    this.check(path);
    return this.inner.openRead(path);
  };
  readFile = async (path: string) => {
    this.check(path);
    return this.inner.readFile(path);
  };
  mkdirp = (path: string) => this.inner.mkdirp(path);
  openWrite = (path: string, options: { exclusive: boolean }) => this.inner.openWrite(path, options);
  rename = (from: string, to: string) => this.inner.rename(from, to);
  utimes = (path: string, atimeMs: number, mtimeMs: number) => this.inner.utimes(path, atimeMs, mtimeMs);
  unlink = (path: string) => this.inner.unlink(path);
}
