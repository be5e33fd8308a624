/**
 * The real FileSystem over `node:fs`. Thin on purpose: every decision (what to follow, what to report)
 * is made by the callers against the interface, so the in-memory twin exercises the same logic.
 * The small per-file calls (lstat, open, fstat, close, reads of up to 64 KiB) run inline on the event
 * loop where that is safe and fast, on the thread pool otherwise (disk/inline-calls.ts).
 * Must never follow a symlink where the interface says it does not.
 */
import { constants, lstat as lstatCallback, lstatSync, stat as statCallback, type Stats } from 'node:fs';
import { mkdir, open, readdir, readFile, realpath, rename, unlink, utimes, type FileHandle } from 'node:fs/promises';
import type { DirEntry, EntryKind, FileStat, FileSystem, ReadHandle, StatEntry, WriteHandle } from './file-system.js';
import { errnoCode } from './local-error.js';
import { Descriptor, promised } from '../disk/descriptor.js';
import { InlineCalls } from '../disk/inline-calls.js';

/** lstat calls one readdirStats keeps in flight: enough to keep libuv's thread pool busy, no more. */
const STATS_IN_FLIGHT = 32;

// O_NOFOLLOW: a path swapped for a symlink between lstat and open is refused (ELOOP), not followed.
// O_NONBLOCK: a path swapped for a FIFO does not hang a thread-pool thread waiting for a writer.
// Both are POSIX-only (undefined on Windows, whatever the typings say); there callers lstat first.
const READ_FLAGS = process.platform === 'win32' ? constants.O_RDONLY : constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

function kindOf(stats: Stats | { isFile(): boolean; isDirectory(): boolean; isSymbolicLink(): boolean }): EntryKind {
  if (stats.isFile()) return 'file';
  if (stats.isDirectory()) return 'directory';
  if (stats.isSymbolicLink()) return 'symlink';
  return 'other';
}

/**
 * The FileStats and StatEntries of this file system are made by constructors, never object literals.
 * V8 watches each object literal in the code: once most of the objects one makes outlive a
 * young-generation collection (a listing of a thousand folders, waiting to be walked), it makes every
 * later one straight in the old generation, where it stays until the next full collection. A walk makes
 * a million of these that die at once, so one such listing had the old generation fill with them
 * several times a scan (about 45 MB of engine RSS at a million files, bench/local-scan-engine.ts).
 * Objects made by a constructor are always made young (file-system.test.ts).
 */
class NodeFileStat implements FileStat {
  readonly kind: EntryKind;
  readonly size: number;
  readonly mtimeMs: number;
  readonly ino: number;
  readonly dev: number;
  readonly mode: number;

  constructor(stats: Stats) {
    this.kind = kindOf(stats);
    this.size = stats.size;
    this.mtimeMs = stats.mtimeMs;
    this.ino = stats.ino;
    this.dev = stats.dev;
    this.mode = stats.mode & 0o7777;
  }
}

/** A listed entry and its lstat (NodeFileStat says why a class). */
class ListedEntry {
  readonly error = undefined;
  constructor(
    readonly name: string,
    readonly stat: FileStat,
  ) {}
}

/** A listed entry whose lstat failed (NodeFileStat says why a class). */
class UnstatedEntry {
  readonly stat = undefined;
  constructor(
    readonly name: string,
    readonly error: string,
  ) {}
}

function toFileStat(stats: Stats): FileStat {
  return new NodeFileStat(stats);
}

/** A FileSystem read handle over a Descriptor. */
class NodeReadHandle implements ReadHandle {
  constructor(private readonly descriptor: Descriptor) {}
  async stat(): Promise<FileStat> {
    return toFileStat(await this.descriptor.fstat());
  }
  read(buffer: Uint8Array, offset: number, length: number, position: number): Promise<number> {
    return this.descriptor.read(buffer, offset, length, position);
  }
  close(): Promise<void> {
    return this.descriptor.close();
  }
}

class NodeWriteHandle implements WriteHandle {
  private position = 0;
  constructor(private readonly handle: FileHandle) {}
  async write(data: Uint8Array): Promise<void> {
    let done = 0;
    while (done < data.length) {
      const { bytesWritten } = await this.handle.write(data, done, data.length - done, this.position);
      done += bytesWritten;
      this.position += bytesWritten;
    }
  }
  sync(): Promise<void> {
    return this.handle.sync();
  }
  close(): Promise<void> {
    return this.handle.close();
  }
}

const statEntry = (name: string, error: unknown, stats: Stats | undefined): StatEntry =>
  stats === undefined ? new UnstatedEntry(name, errnoCode(error) ?? 'EIO') : new ListedEntry(name, toFileStat(stats));

/**
 * lstat of every name in `dir`: inline while the slice allows (`inline`: given when `dir` is on a
 * local disk), the rest STATS_IN_FLIGHT at a time through the callback API (no promise per file).
 */
function statAll(dir: string, names: string[], inline: InlineCalls | undefined): Promise<StatEntry[]> {
  const results = new Array<StatEntry>(names.length);
  return new Promise((resolve) => {
    let next = 0;
    let pending = 0;
    const launch = (): void => {
      while (pending < STATS_IN_FLIGHT && next < names.length) {
        const index = next++;
        const name = names[index] ?? '';
        const path = `${dir}/${name}`;
        let ran: { value: Stats } | undefined;
        try {
          ran = inline?.tryInline(() => lstatSync(path));
        } catch (error) {
          results[index] = statEntry(name, error, undefined);
          continue;
        }
        if (ran !== undefined) {
          results[index] = statEntry(name, undefined, ran.value);
          continue;
        }
        pending++;
        lstatCallback(path, (error, stats) => {
          pending--;
          results[index] = statEntry(name, error, error === null ? stats : undefined);
          if (next < names.length) launch();
          else if (pending === 0) resolve(results);
        });
      }
      if (next === names.length && pending === 0) resolve(results);
    };
    launch();
  });
}

export class NodeFileSystem implements FileSystem {
  private readonly inline: InlineCalls;

  /** `inline`: when small calls may run on the event loop (default: on local disks, briefly). */
  constructor(options: { inline?: InlineCalls } = {}) {
    this.inline = options.inline ?? new InlineCalls();
  }

  async lstat(path: string): Promise<FileStat> {
    return toFileStat(await this.inline.onPath(path, () => lstatSync(path), () => promised<Stats>((done) => lstatCallback(path, done))));
  }
  async lstatOrMissing(path: string): Promise<FileStat | undefined> {
    const stats = await this.inline.onPath(
      path,
      () => lstatSync(path, { throwIfNoEntry: false }),
      () => promised<Stats | undefined>((done) => lstatCallback(path, (error, found) => (error?.code === 'ENOENT' ? done(null, undefined) : done(error, found)))),
    );
    return stats === undefined ? undefined : toFileStat(stats);
  }
  async stat(path: string): Promise<FileStat> {
    return toFileStat(await promised<Stats>((done) => statCallback(path, done)));
  }
  async readdir(path: string): Promise<DirEntry[]> {
    const entries = await readdir(path, { withFileTypes: true });
    return entries.map((entry) => ({ name: entry.name, kind: kindOf(entry) }));
  }
  async readdirStats(path: string): Promise<StatEntry[]> {
    const names = await readdir(path);
    return statAll(path, names, (await this.inline.isLocal(path)) ? this.inline : undefined);
  }
  realpath(path: string): Promise<string> {
    return realpath(path);
  }
  async openRead(path: string): Promise<ReadHandle> {
    return new NodeReadHandle(await Descriptor.open(this.inline, path, READ_FLAGS));
  }
  async readFile(path: string): Promise<Uint8Array> {
    return readFile(path);
  }
  async mkdirp(path: string): Promise<void> {
    await mkdir(path, { recursive: true });
  }
  async openWrite(path: string, options: { exclusive: boolean }): Promise<WriteHandle> {
    return new NodeWriteHandle(await open(path, options.exclusive ? 'wx' : 'w'));
  }
  rename(from: string, to: string): Promise<void> {
    return rename(from, to);
  }
  utimes(path: string, atimeMs: number, mtimeMs: number): Promise<void> {
    return utimes(path, atimeMs / 1000, mtimeMs / 1000);
  }
  unlink(path: string): Promise<void> {
    return unlink(path);
  }
}
