/**
 * File-descriptor calls for the hot per-file paths of the upload flow (part writes, completion reads,
 * directory syncs), shaped by what they cost on the machines this runs on:
 *
 * - Calls that wait for the disk (writes with O_DSYNC, fsync, fdatasync, reads that may miss the page
 *   cache) go to the thread pool, through node:fs's callback API: fs/promises wraps every descriptor in
 *   a FileHandle with its own bookkeeping, which measured about twice the event-loop CPU.
 * - Opening a path that exists, and closing, run inline: metadata work served from the kernel's caches,
 *   a few µs, less than the two cross-thread wake-ups of a thread-pool round trip.
 * - Creating a file goes to the pool: allocating an inode can take the kernel a good fraction of a
 *   millisecond (ext4 scans past recently deleted inodes), too long to hold the event loop.
 *
 * Must never: leak a descriptor — `withDescriptor` closes it whatever happened.
 */
import { close, closeSync, constants, fdatasync, fsync, open, openSync, read, writev } from 'node:fs';
import { ioMeter } from './io-meter.js';

/** Opens an existing `path`, runs `use` with the descriptor, and closes it whatever happened. */
export async function withDescriptor<T>(path: string, flags: string | number, use: (fd: number) => Promise<T>): Promise<T> {
  const fd = openSync(path, flags);
  try {
    return await use(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * Opens (and perhaps creates) `path` on the thread pool, runs `use`, and closes it whatever happened:
 * on the pool, or inline when `closeInline` (the caller wrote with O_DSYNC, so there is no writeback left
 * for the close to start, and it costs less than the round trip).
 */
export async function withCreatedDescriptor<T>(path: string, flags: number, mode: number, use: (fd: number) => Promise<T>, closeInline = false): Promise<T> {
  const fd = await new Promise<number>((resolve, reject) => {
    open(path, flags, mode, (error, opened) => {
      if (error === null) resolve(opened);
      else reject(error);
    });
  });
  // A descriptor opened with O_DSYNC makes its writes durable: its one write is counted as a sync.
  if ((flags & constants.O_DSYNC) !== 0) ioMeter.syncs++;
  try {
    return await use(fd);
  } finally {
    if (closeInline) {
      closeSync(fd);
    } else {
      // Closing a file just written may start its writeback; that is the pool's to wait for.
      await new Promise<void>((resolve, reject) => {
        close(fd, (error) => {
          if (error === null) resolve();
          else reject(error);
        });
      });
    }
  }
}

/** One writev at `position`; resolves with the bytes written (may be fewer than given). */
export function writevAt(fd: number, buffers: Buffer[], position: number): Promise<number> {
  return new Promise((resolve, reject) => {
    writev(fd, buffers, position, (error, written) => {
      if (error === null) {
        ioMeter.bytesWritten += written;
        resolve(written);
      } else {
        reject(error);
      }
    });
  });
}

/** One read into `buffer` from `position`; resolves with the bytes read. */
export function readAt(fd: number, buffer: Buffer, position: number): Promise<number> {
  return new Promise((resolve, reject) => {
    read(fd, buffer, 0, buffer.length, position, (error, bytesRead) => {
      if (error === null) resolve(bytesRead);
      else reject(error);
    });
  });
}

export function syncData(fd: number): Promise<void> {
  ioMeter.syncs++;
  return new Promise((resolve, reject) => {
    fdatasync(fd, (error) => {
      if (error === null) resolve();
      else reject(error);
    });
  });
}

export function syncAll(fd: number): Promise<void> {
  ioMeter.syncs++;
  return new Promise((resolve, reject) => {
    fsync(fd, (error) => {
      if (error === null) resolve();
      else reject(error);
    });
  });
}
