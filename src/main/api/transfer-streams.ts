/**
 * Small pieces of the transfers: a pass-through that counts bytes (a capped download's progress and
 * size; the part upload counts its own, send-file-range.ts), and the mapping of local file-system
 * errors, which retrying the request cannot fix, to a non-retryable ApiError (uploads and downloads).
 */
import { Transform } from 'node:stream';
import { ApiError } from './api-error.js';
import type { ProgressListener } from './asset-api.js';

export interface ByteCounter {
  stream: Transform;
  readonly bytes: number;
}

export function byteCounter(onProgress?: ProgressListener): ByteCounter {
  let bytes = 0;
  const stream = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      bytes += chunk.length;
      onProgress?.(bytes);
      callback(null, chunk);
    },
  });
  return {
    stream,
    get bytes() {
      return bytes;
    },
  };
}

const LOCAL_FILE_CODES: ReadonlySet<string> = new Set(['ENOENT', 'EACCES', 'EPERM', 'EISDIR', 'ENOTDIR', 'EIO', 'ENOSPC', 'EROFS', 'EBUSY', 'EMFILE']);

/** The ApiError for a failure of the local file, or undefined when `error` is not one. */
export function localFileError(error: unknown, action: string): ApiError | undefined {
  const code = error instanceof Error && 'code' in error && typeof error.code === 'string' ? error.code : undefined;
  if (code === undefined || !LOCAL_FILE_CODES.has(code)) return undefined;
  return new ApiError({
    code: 'LOCAL_FILE_ERROR',
    message: `Could not ${action}: ${code}.`,
    retryable: code === 'EBUSY' || code === 'EMFILE',
    // got's wrapper of the fs error carries the request options: keep only the code.
    cause: Object.assign(new Error(code), { code }),
  });
}
