/**
 * MD5 of one file through the FileSystem, in 1 MiB reads into a buffer the caller owns (64 KiB reads
 * halve throughput on the machines we measured). The identity after reading, taken from the open handle
 * (so it belongs to exactly the file read), must equal the signature the walk saw before opening, and
 * the byte count must equal the size: otherwise the file changed while being read and is reported as
 * such, never with a hash of mixed content. Four file-system calls for a small file (open, read, fstat,
 * close): on 100,000 small files this is the initial scan's cost. Never follows a symlink, never blocks
 * on a FIFO. `checkFile` is the same without the read: for a file whose content nothing needs yet
 * (a new file the service will hash anyway as it arrives), it confirms the file can be opened and is the one
 * the walk saw, for three calls whatever its size.
 */
import { createHash } from 'node:crypto';
import { sameSignature, type FileStat, type FileSystem, type ReadHandle } from './file-system.js';
import { errnoCode } from './local-error.js';
import type { FileSignature } from './observations.js';

export const HASH_READ_BYTES = 1024 * 1024;

export type HashOutcome =
  /** `stat` is the handle's identity after reading: the expected signature. */
  | { kind: 'hashed'; md5: string; stat: FileStat }
  /** The file is not the one expected any more, or changed while read; `stat` is its latest identity. */
  | { kind: 'changed'; stat: FileStat }
  /** What was opened is not a regular file (swapped for a FIFO, a directory…). */
  | { kind: 'not-a-file'; stat: FileStat }
  /** Opening or reading failed: `code` is the errno (ENOENT when it vanished, ELOOP for a symlink). */
  | { kind: 'failed'; code: string };

/** What `checkFile` finds: `readable` is `hashed` without the hash. */
export type CheckOutcome = { kind: 'readable'; stat: FileStat } | Exclude<HashOutcome, { kind: 'hashed' }>;

/**
 * Opens `path` for reading, runs `use` with the handle and closes it whatever happened. Failing to open,
 * or `use` throwing, is `failed` with the errno.
 */
async function withHandle<T>(fs: FileSystem, path: string, use: (handle: ReadHandle) => Promise<T | Failed>): Promise<T | Failed> {
  let handle: ReadHandle;
  try {
    handle = await fs.openRead(path);
  } catch (error) {
    return failed(error);
  }
  try {
    return await use(handle);
  } catch (error) {
    return failed(error);
  } finally {
    await handle.close().catch(() => undefined);
  }
}

type Failed = Extract<HashOutcome, { kind: 'failed' }>;
const failed = (error: unknown): Failed => ({ kind: 'failed', code: errnoCode(error) ?? 'EIO' });

/** Opens `path` and confirms it is a readable regular file with the signature `expected`, reading nothing. */
export function checkFile(fs: FileSystem, path: string, expected: FileSignature): Promise<CheckOutcome> {
  return withHandle(fs, path, async (handle): Promise<CheckOutcome> => {
    const stat = await handle.stat();
    if (stat.kind !== 'file') return { kind: 'not-a-file', stat };
    return sameSignature(expected, stat) ? { kind: 'readable', stat } : { kind: 'changed', stat };
  });
}

/** Hashes `path`, expected to have `expected`; `buffer` holds at least HASH_READ_BYTES, reused across calls. */
export function hashFile(fs: FileSystem, path: string, expected: FileSignature, buffer: Uint8Array): Promise<HashOutcome> {
  return withHandle(fs, path, async (handle): Promise<HashOutcome> => {
    const hash = createHash('md5');
    let position = 0;
    try {
      for (;;) {
        const read = await handle.read(buffer, 0, HASH_READ_BYTES, position);
        if (read === 0) break;
        hash.update(buffer.subarray(0, read));
        position += read;
        // A short read is the end unless the file grew; the fstat below tells which.
        if (read < HASH_READ_BYTES && position >= expected.size) break;
      }
    } catch (error) {
      const stat = await handle.stat();
      return stat.kind === 'file' ? failed(error) : { kind: 'not-a-file', stat };
    }
    const stat = await handle.stat();
    if (stat.kind !== 'file') return { kind: 'not-a-file', stat };
    if (!sameSignature(expected, stat) || position !== stat.size) return { kind: 'changed', stat };
    return { kind: 'hashed', md5: hash.digest('hex'), stat };
  });
}
