/**
 * Writes the byte range [start, end) of a local file to a request as its body, and ends it: the body
 * of a large part PUT (part-upload.ts). It reads into two reused 1 MiB buffers, one being read from
 * disk while the other is on its way to the socket, and hands a buffer over only once the other's
 * write has been flushed (its callback): that is the backpressure, and it bounds a part's bytes in
 * memory to the two buffers. A read stream gets a fresh buffer for every read instead, 4,096 of
 * 256 KiB per GiB, and the page faults and garbage collection cost ~0.5 s of client CPU per GiB
 * (`bench/sync-engine.ts large`); reads of 64 KiB halve throughput, hence 1 MiB.
 * Whole 1 MiB buffers come from the client's ChunkBuffers and go back there once the range is sent, so
 * parts after the first allocate none (chunk-buffers.ts).
 *
 * Every piece waits for the bandwidth limiter's grant (uncapped, it is granted at once), so a cap set
 * while a part is on its way applies to it, and capped or not the bytes take the same path.
 * It must never send past `end` or a short body (a file that ends early fails with
 * LOCAL_FILE_CHANGED), never a byte of a file that is not the `expected` one (checked on the opened
 * handle before the first read: part-source.ts), and it closes its file handle however it ends.
 * Errors of the file are thrown as Node raised them; the caller maps them (partFileError).
 */
import { open, type FileHandle } from 'node:fs/promises';
import type { Writable } from 'node:stream';
import { ApiError } from './api-error.js';
import type { FileIdentity, ProgressListener } from './asset-api.js';
import { CHUNK_BYTES as CHUNK, type ChunkBuffers } from './chunk-buffers.js';
import { checkOpened, partOpenFlags } from './part-source.js';

export interface FileRange {
  filePath: string;
  /** Start inclusive, end exclusive. */
  start: number;
  end: number;
  /** The file the range must come from; its open handle is checked before anything is read. */
  expected?: FileIdentity | undefined;
}

export interface SendRangeOptions {
  /** Answers how many of `bytes` may go now, waiting as the cap requires (BandwidthLimiter.grant). */
  grant: (bytes: number, signal: AbortSignal) => Promise<number>;
  /** Told the running total of bytes flushed to the request, from 0 on every call. */
  onProgress?: ProgressListener | undefined;
  /** Where whole 1 MiB buffers come from and go back to once the range is sent (none: fresh ones). */
  buffers?: ChunkBuffers | undefined;
}

function fileChanged(range: FileRange, position: number): ApiError {
  return new ApiError({ code: 'LOCAL_FILE_CHANGED', message: `${range.filePath} ended at ${position}, before the part's end at ${range.end}; restart the upload.` });
}

function closedEarly(outgoing: Writable): Error {
  return outgoing.errored ?? Object.assign(new Error('The request closed before its body was sent.'), { code: 'ERR_STREAM_DESTROYED' });
}

/** Writes `chunk` and resolves once it is flushed; rejects at once when `signal` aborts (the request closed). */
function flushed(outgoing: Writable, chunk: Buffer, signal: AbortSignal): Promise<void> {
  signal.throwIfAborted();
  return new Promise((resolve, reject) => {
    // A request destroyed while it waited for a socket never calls back the writes it held; it only
    // closes (once the agent hands it a socket), so the close, through the signal, ends the wait too.
    const onAbort = (): void => reject(signal.reason instanceof Error ? signal.reason : new Error(String(signal.reason)));
    signal.addEventListener('abort', onAbort, { once: true });
    outgoing.write(chunk, (error) => {
      signal.removeEventListener('abort', onAbort);
      if (error) reject(error);
      else resolve();
    });
  });
}

/** Sends the range and ends `outgoing`; rejects (leaving `outgoing` to the caller to destroy) on any failure. */
export async function sendFileRange(outgoing: Writable, range: FileRange, options: SendRangeOptions): Promise<void> {
  const stop = new AbortController();
  const onClose = (): void => stop.abort(closedEarly(outgoing));
  outgoing.once('close', onClose);
  let handle: FileHandle | undefined;
  try {
    if (outgoing.destroyed) throw closedEarly(outgoing);
    handle = await open(range.filePath, partOpenFlags(range.expected));
    // Once per part over 1 MiB (or sent under a cap): the promise API's cost does not matter here.
    if (range.expected !== undefined) checkOpened(range.filePath, range.expected, await handle.stat());
    let sent = 0;
    const send = async (chunk: Buffer): Promise<void> => {
      for (let offset = 0; offset < chunk.length; ) {
        const piece = await options.grant(chunk.length - offset, stop.signal);
        await flushed(outgoing, chunk.subarray(offset, offset + piece), stop.signal);
        offset += piece;
        sent += piece;
        options.onProgress?.(sent);
      }
    };
    const buffers: Buffer[] = [];
    let sending: Promise<void> = Promise.resolve();
    for (let position = range.start, turn = 0; position < range.end; turn ^= 1) {
      // Free to fill: its last send was awaited before the other buffer's began. Sized for what is
      // left when first needed, so a part under 1 MiB does not take 2 MiB.
      const buffer = (buffers[turn] ??= range.end - position >= CHUNK && options.buffers !== undefined ? options.buffers.take() : Buffer.allocUnsafe(Math.min(CHUNK, range.end - position)));
      const { bytesRead } = await handle.read(buffer, 0, Math.min(buffer.length, range.end - position), position);
      stop.signal.throwIfAborted();
      if (bytesRead === 0) throw fileChanged(range, position);
      position += bytesRead;
      await sending;
      sending = send(buffer.subarray(0, bytesRead));
      // It may fail while the next read is awaited; it is awaited (and so thrown) before the next send.
      void sending.catch(() => undefined);
    }
    await sending;
    // Every write of them has been flushed: nothing sends from them any more.
    options.buffers?.give(buffers);
    outgoing.end();
  } finally {
    outgoing.off('close', onClose);
    // A failure to close a read-only handle must not hide the failure that ended the send.
    await handle?.close().catch(() => undefined);
  }
}
