/**
 * Writes a download's body into its temp file at `offset`, counting bytes for progress, hashing them
 * (MD5) when asked and the file starts at 0, and fsyncing before it resolves when asked. Without a
 * bandwidth cap it writes each chunk as it arrives through one descriptor (disk/descriptor.ts: writes
 * on the pool, its other small calls inline on a local disk; node:fs's callback API), with no stream pipeline and
 * no FileHandle: a sync of thousands of small files spends most of its client CPU in per-file stream
 * machinery and promise-API calls otherwise. With a cap the throttle is a stream, so the pipeline stays. Errors of the local file
 * become LOCAL_FILE_ERROR, anything else on the way in a transport error.
 */
import { createHash, type Hash } from 'node:crypto';
import { createWriteStream, type WriteStream } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ClientContext } from './api-client.js';
import { Descriptor } from '../disk/descriptor.js';
import type { DownloadToFileOptions, WrittenFile } from './asset-api.js';
import { byteCounter, localFileError } from './transfer-streams.js';
import { transportError } from './transport-error.js';

export interface WrittenBody {
  /** Bytes written in this call. */
  bytes: number;
  /** MD5 hex of the whole file, when asked for and written from 0. */
  md5?: string;
  /** The file as its handle saw it after `options.mtimeMs` was set (only when asked, and not throttled). */
  written?: WrittenFile;
}

function closed(file: WriteStream): Promise<void> {
  return file.closed ? Promise.resolve() : new Promise((resolve) => file.once('close', () => resolve()));
}

function hashing(hash: Hash): Transform {
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      hash.update(chunk);
      callback(null, chunk);
    },
  });
}

export async function writeBody(context: ClientContext, body: IncomingMessage, url: URL, tempPath: string, offset: number, options: DownloadToFileOptions): Promise<WrittenBody> {
  const hash = options.md5 === true && offset === 0 ? createHash('md5') : undefined;
  const digest = (): { md5?: string } => (hash === undefined ? {} : { md5: hash.digest('hex') });
  const fail = (error: unknown): Error => localFileError(error, `write ${tempPath}`) ?? transportError(error, 'GET', url);

  if (context.downloadLimiter.rate !== null) {
    const counter = byteCounter(options.onProgress);
    // `flush`: fsync before the stream closes, when the caller is about to rename the file into place.
    const file = createWriteStream(tempPath, { flags: offset > 0 ? 'r+' : 'w', start: offset, flush: options.fsync === true });
    try {
      await pipeline([body, context.downloadLimiter.throttle(), counter.stream, ...(hash === undefined ? [] : [hashing(hash)]), file]);
    } catch (error) {
      await closed(file);
      throw fail(error);
    }
    return { bytes: counter.bytes, ...digest() };
  }

  let file: Descriptor;
  try {
    file = await Descriptor.open(context.inline, tempPath, offset > 0 ? 'r+' : 'w');
  } catch (error) {
    body.destroy();
    throw fail(error);
  }
  let bytes = 0;
  let written: WrittenFile | undefined;
  try {
    for await (const chunk of body as AsyncIterable<Buffer>) {
      hash?.update(chunk);
      for (let done = 0; done < chunk.length; ) done += await file.write(chunk, done, chunk.length - done, offset + bytes + done);
      bytes += chunk.length;
      options.onProgress?.(bytes);
    }
    // Through the descriptor, before the fsync: the date is durable with the bytes, and no path is looked up again.
    if (options.mtimeMs !== undefined) {
      await file.futimes(options.mtimeMs / 1000, options.mtimeMs / 1000);
      const stat = await file.fstat();
      written = { size: stat.size, mtimeMs: stat.mtimeMs, ino: stat.ino, dev: stat.dev };
    }
    if (options.fsync === true) await file.sync();
  } catch (error) {
    body.destroy();
    throw fail(error);
  } finally {
    await file.close().catch(() => undefined);
  }
  return { bytes, ...digest(), ...(written === undefined ? {} : { written }) };
}
