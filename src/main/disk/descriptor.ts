/**
 * An open file whose small calls (fstat, reads of up to 64 KiB, futimes, close) run inline when its
 * directory is on a local disk (inline-calls.ts) and through node:fs's callback API otherwise; an
 * fsync always waits on the pool (it takes as long as the disk does), and so does a write. The
 * one way the engine's file system (local/node-file-system.ts) and a part PUT (api/part-upload.ts) read
 * a file, and a download (api/write-body.ts) writes one.
 */
import { close, closeSync, constants, fstat, fstatSync, fsync, futimes, futimesSync, open, openSync, read, readSync, write, type Stats } from 'node:fs';
import { dirname } from 'node:path';
import type { InlineCalls } from './inline-calls.js';

/** Reads up to this many bytes may run inline; longer ones (a hash reads 1 MiB) stay on the pool. */
export const INLINE_IO_BYTES = 64 * 1024;

/**
 * `fn(...args, callback)` as a promise. The callback API is used for every call made per file: the
 * promise API cost ~0.2 ms of CPU per lstat and per FileHandle open, read or close in a profile of a
 * sync of 3,000 small files, the callback API a tenth of that.
 */
export function promised<T>(run: (done: (error: NodeJS.ErrnoException | null, value: T) => void) => void): Promise<T> {
  return new Promise((resolve, reject) => {
    run((error, value) => {
      if (error === null) resolve(value);
      else reject(error);
    });
  });
}

/** Whether `flags` (node:fs's string or numeric form) may create the file. */
export function creates(flags: number | string): boolean {
  return typeof flags === 'number' ? (flags & constants.O_CREAT) !== 0 : /[wax]/.test(flags);
}

export class Descriptor {
  private constructor(
    readonly fd: number,
    /** Given when the open ran inline. */
    private readonly inline: InlineCalls | undefined,
  ) {}

  /**
   * Opens `path` with `flags`; rejects with the open's error (ENOENT, ELOOP…) as Node raised it. An
   * open that creates the file runs on the pool: allocating an inode costs the kernel far more than a
   * lookup (sampled with perf during 10,000 downloads on ext4: 68 µs of the event loop's CPU per create
   * inline; pooled, the event loop's share grew by 28 µs per call in waking the pool), and on the event
   * loop it holds everything else up. The descriptor's own small calls still run inline on a local disk.
   */
  static async open(inline: InlineCalls, path: string, flags: number | string): Promise<Descriptor> {
    if (creates(flags)) {
      const local = await inline.isLocal(dirname(path));
      return new Descriptor(await promised<number>((done) => open(path, flags, done)), local ? inline : undefined);
    }
    return inline.onPath(
      path,
      () => new Descriptor(openSync(path, flags), inline),
      async () => new Descriptor(await promised<number>((done) => open(path, flags, done)), undefined),
    );
  }

  fstat(): Promise<Stats> {
    return this.call(
      () => fstatSync(this.fd),
      () => promised<Stats>((done) => fstat(this.fd, done)),
    );
  }

  read(buffer: Uint8Array, offset: number, length: number, position: number): Promise<number> {
    const pooled = (): Promise<number> => promised<number>((done) => read(this.fd, buffer, offset, length, position, done));
    return length > INLINE_IO_BYTES ? pooled() : this.call(() => readSync(this.fd, buffer, offset, length, position), pooled);
  }

  /**
   * Writes `length` bytes of `buffer` from `offset` at `position`; answers how many were written. On the
   * pool, whatever the disk: a write copies its bytes into the page cache and allocates their blocks,
   * kernel work that costs the event loop more inline than waking a pool thread does (about 10 µs per
   * 16 KiB file; bench/download-initial.ts), while the futimes, fstat and close after it cost less
   * inline than a pool round trip.
   */
  write(buffer: Uint8Array, offset: number, length: number, position: number): Promise<number> {
    return promised<number>((done) => write(this.fd, buffer, offset, length, position, done));
  }

  /** Sets the file's access and modification times, in seconds. */
  futimes(atime: number, mtime: number): Promise<void> {
    return this.call(
      () => futimesSync(this.fd, atime, mtime),
      () => promised<undefined>((done) => futimes(this.fd, atime, mtime, (error) => done(error, undefined))),
    );
  }

  /** fsync: on the pool, never inline (it lasts as long as the disk takes to confirm). */
  sync(): Promise<void> {
    return promised<undefined>((done) => fsync(this.fd, (error) => done(error, undefined)));
  }

  close(): Promise<void> {
    return this.call(
      () => closeSync(this.fd),
      () => promised<undefined>((done) => close(this.fd, (error) => done(error, undefined))),
    );
  }

  private call<T>(inline: () => T, pooled: () => Promise<T>): Promise<T> {
    return this.inline === undefined ? pooled() : this.inline.onOpened(inline, pooled);
  }
}
