/**
 * The identity check of the file a part PUT reads from, made on the descriptor it reads through: the
 * engine names the file it means (`PutPartRequest.expected`: size, mtime and inode as the local
 * snapshot recorded them) and the part is sent only if what was opened is still that regular file.
 * This replaces an lstat of the path before the PUT (one file-system call per small file, and a window
 * between the check and the open); the fstat of the open descriptor belongs to exactly the bytes read.
 *
 * The engine resolves the directories on the way itself (no symlinked directory, names spelled as on
 * disk: local/locate-path.ts); the final name is opened without following a symlink. Whatever says
 * the path no longer names the expected file is LOCAL_FILE_CHANGED, which the engine answers by
 * dropping the upload and sending the file again once it settles; other failures of the file stay
 * LOCAL_FILE_ERROR (transfer-streams.ts).
 */
import { constants, type Stats } from 'node:fs';
import { ApiError } from './api-error.js';
import type { FileIdentity } from './asset-api.js';
import { localFileError } from './transfer-streams.js';

// O_NOFOLLOW: a final symlink is refused (ELOOP), never followed. O_NONBLOCK: a path swapped for a FIFO
// does not hang a thread-pool thread waiting for a writer (it has no effect on a regular file's reads).
// Both are POSIX-only (undefined on Windows, whatever the typings say); there the fstat check alone
// tells a swapped file. Without an expected identity the file opens as it always did.
const CHECKED_FLAGS = process.platform === 'win32' ? constants.O_RDONLY : constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

/** Open errors meaning nothing, a symlink, or a non-directory is where the expected file was. */
const NOT_THE_FILE: ReadonlySet<string> = new Set(['ENOENT', 'ENOTDIR', 'ELOOP']);

/** The flags to open a part's file with. */
export function partOpenFlags(expected: FileIdentity | undefined): number | string {
  return expected === undefined ? 'r' : CHECKED_FLAGS;
}

export function fileChangedError(filePath: string, why: string): ApiError {
  return new ApiError({ code: 'LOCAL_FILE_CHANGED', message: `${filePath} ${why}; restart the upload.` });
}

/**
 * Throws LOCAL_FILE_CHANGED unless `stats` (the open descriptor's fstat) is a regular file with the
 * expected size, mtime and inode. The device is not compared, as the engine's sameSignature does not.
 */
export function checkOpened(filePath: string, expected: FileIdentity, stats: Pick<Stats, 'size' | 'mtimeMs' | 'ino' | 'isFile'>): void {
  if (!stats.isFile()) throw fileChangedError(filePath, 'is no longer a regular file');
  if (stats.size !== expected.size || stats.mtimeMs !== expected.mtimeMs || stats.ino !== expected.ino) {
    throw fileChangedError(filePath, 'is not the file the upload began with any more (size, modification time or inode differ)');
  }
}

/** The ApiError for a failure of the part's file, or undefined when `error` is not one. */
export function partFileError(error: unknown, filePath: string, expected: FileIdentity | undefined): ApiError | undefined {
  if (error instanceof ApiError) return error;
  const code = error instanceof Error && 'code' in error && typeof error.code === 'string' ? error.code : undefined;
  if (expected !== undefined && code !== undefined && NOT_THE_FILE.has(code)) return fileChangedError(filePath, `cannot be opened as the file expected (${code})`);
  return localFileError(error, `read ${filePath}`);
}
