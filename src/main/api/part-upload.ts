/**
 * PUTs one part of a multipart upload: streams exactly the byte range [start, end) of a local file to
 * the part's signed URL, through the shared upload bandwidth limiter, and answers the ETag. Retries
 * (a fresh read of the range each time) on network errors, 429 and 5xx; a 403 means the URL expired or
 * was refused, which only fresh URLs fix, so it is not retried here.
 * It must never send the bearer token (the URL is the credential), never follow a redirect, and never
 * hold more than 1 MiB of a part in memory (smaller parts are read whole, larger ones streamed).
 */
import { createReadStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { pipeline, type Readable } from 'node:stream';
import { ApiError, apiErrorFromResponse, invalidResponse } from './api-error.js';
import { exchange, readText } from './http-exchange.js';
import type { ClientContext } from './api-client.js';
import type { PutPartRequest } from './asset-api.js';
import { transportError } from './transport-error.js';
import { byteCounter, localFileError } from './transfer-streams.js';
import { withRetries } from './with-retries.js';

const READ_CHUNK = 256 * 1024;
/** Parts up to this size are read whole and sent in one write. */
const WHOLE_PART_LIMIT = 1024 * 1024;

function checkNumbers(request: PutPartRequest): void {
  const { start, end } = request;
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || start < 0 || end < start) {
    throw new ApiError({ code: 'INVALID_PART_LAYOUT', message: `The byte range ${start}–${end} is not a range.` });
  }
}

/** Before streaming: a file that became shorter than the range must not send a short body. */
async function checkRange(request: PutPartRequest): Promise<void> {
  const { end, filePath } = request;
  let size: number;
  try {
    size = (await stat(filePath)).size;
  } catch (error) {
    throw localFileError(error, `read ${filePath}`) ?? error;
  }
  if (size < end) {
    throw new ApiError({ code: 'LOCAL_FILE_CHANGED', message: `${filePath} has ${size} bytes now, fewer than the part's end at ${end}; restart the upload.` });
  }
}

/** The part's bytes as a stream: file range → limiter (when capped) → counter. */
function partBody(context: ClientContext, request: PutPartRequest): Readable {
  const counter = byteCounter(request.onProgress);
  if (request.end === request.start) {
    counter.stream.end();
    return counter.stream;
  }
  const file = createReadStream(request.filePath, { start: request.start, end: request.end - 1, highWaterMark: READ_CHUNK });
  // Any stage failing destroys the others, and so fails the request with the file's error.
  const ignore = (): void => undefined;
  if (context.uploadLimiter.rate === null) return pipeline(file, counter.stream, ignore);
  return pipeline(file, context.uploadLimiter.throttle(), counter.stream, ignore);
}

/** Reads a small part whole: one open and read instead of a stream per part. */
async function readRange(request: PutPartRequest): Promise<Buffer> {
  const size = request.end - request.start;
  let handle;
  try {
    handle = await open(request.filePath, 'r');
    const buffer = Buffer.allocUnsafe(size);
    let filled = 0;
    while (filled < size) {
      const { bytesRead } = await handle.read(buffer, filled, size - filled, request.start + filled);
      if (bytesRead === 0) throw new ApiError({ code: 'LOCAL_FILE_CHANGED', message: `${request.filePath} ended before the part's end at ${request.end}; restart the upload.` });
      filled += bytesRead;
    }
    return buffer;
  } catch (error) {
    throw localFileError(error, `read ${request.filePath}`) ?? error;
  } finally {
    await handle?.close();
  }
}

export async function putPart(context: ClientContext, request: PutPartRequest): Promise<{ eTag: string }> {
  checkNumbers(request);
  const url = new URL(request.url);
  const size = request.end - request.start;
  // Small parts (most files of a design folder) are read whole (a short file shows there) and go in
  // one write; large ones, or any under a bandwidth cap, stream through the limiter and counter.
  const whole = size <= WHOLE_PART_LIMIT && context.uploadLimiter.rate === null;
  if (!whole) await checkRange(request);
  const retryContext = { clock: context.clock, random: context.random, policy: context.retry, signal: request.signal };
  return withRetries(retryContext, async () => {
    let response;
    try {
      response = await exchange(context, {
        method: 'PUT',
        url,
        body: whole ? await readRange(request) : partBody(context, request),
        headers: {
          'content-length': String(size),
          'content-type': 'application/octet-stream',
          ...(request.contentMd5 === undefined ? {} : { 'content-md5': request.contentMd5 }),
        },
        signal: request.signal,
      });
    } catch (error) {
      throw localFileError(error, `read ${request.filePath}`) ?? transportError(error, 'PUT', url);
    }
    const bodyText = await readText(response.stream);
    if (response.status >= 300) {
      throw apiErrorFromResponse({ method: 'PUT', url, status: response.status, retryAfter: response.headers['retry-after'], bodyText, now: context.clock.now() });
    }
    const eTag = response.headers.etag;
    if (eTag === undefined || eTag === '') throw invalidResponse('PUT', url, 'the part upload answered no ETag');
    if (whole) request.onProgress?.(size);
    return { eTag };
  });
}
