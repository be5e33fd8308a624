/**
 * PUTs one part of a multipart upload: sends exactly the byte range [start, end) of a local file to
 * the part's signed URL, through the shared upload bandwidth limiter, and answers the ETag. Retries
 * (a fresh read of the range each time) on network errors, 429 and 5xx; a 403 means the URL expired or
 * was refused, which only fresh URLs fix, so it is not retried here.
 * It must never send the bearer token (the URL is the credential), never follow a redirect, and never
 * hold more than 2 MiB of a part in memory (smaller parts are read whole, larger ones go through two
 * reused 1 MiB buffers: send-file-range.ts).
 *
 * With `expected`, the file read must still be the one the engine recorded, checked on the descriptor
 * the bytes are read through (part-source.ts); the engine makes no check of its own before the PUT.
 *
 * A one-part upload may ask the service to complete it with the PUT (`complete`): one request per small
 * file instead of two. Our service does and answers the asset; one that does not know the header
 * answers the part alone, and the caller completes as usual, so nothing depends on it.
 */
import { createHash } from 'node:crypto';
import { fstatSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { ApiError, apiErrorFromResponse, invalidResponse } from './api-error.js';
import { exchange, readText, type BodyWriter } from './http-exchange.js';
import type { ClientContext } from './api-client.js';
import { Descriptor } from '../disk/descriptor.js';
import type { InlineCalls } from '../disk/inline-calls.js';
import type { PartAnswer, PutPartRequest } from './asset-api.js';
import { checkOpened, fileChangedError, partFileError, partOpenFlags } from './part-source.js';
import { sendFileRange } from './send-file-range.js';
import { transportError } from './transport-error.js';
import { assetSchema, envelopeSchema, parseAnswer } from './wire-shapes.js';
import { withRetries } from './with-retries.js';

/** Parts up to this size are read whole and sent in one write. */
const WHOLE_PART_LIMIT = 1024 * 1024;
/** [ours] Asks the service to complete a one-part upload with its PUT; echoed when it did. */
const COMPLETE_HEADER = 'asset-sync-complete';

function checkNumbers(request: PutPartRequest): void {
  const { start, end } = request;
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || start < 0 || end < start) {
    throw new ApiError({ code: 'INVALID_PART_LAYOUT', message: `The byte range ${start}–${end} is not a range.` });
  }
}

/**
 * Before sending a part that names no expected file: a file that became shorter than the range fails
 * here, before a request is made (sendFileRange catches one that shrinks while it is sent). With an
 * expected file, sendFileRange's check of what it opened says more, before its first byte.
 */
async function checkRange(request: PutPartRequest): Promise<void> {
  const { end, filePath } = request;
  let size: number;
  try {
    size = (await stat(filePath)).size;
  } catch (error) {
    throw partFileError(error, filePath, undefined) ?? error;
  }
  if (size < end) throw fileChangedError(filePath, `has ${size} bytes now, fewer than the part's end at ${end}`);
}

/** Writes the part's bytes to the request as the limiter grants them, reporting the running total. */
function partBody(context: ClientContext, request: PutPartRequest): BodyWriter {
  const limiter = context.uploadLimiter;
  const options = { grant: (bytes: number, signal: AbortSignal) => limiter.grant(bytes, signal), onProgress: request.onProgress, buffers: context.chunkBuffers };
  return (outgoing) => sendFileRange(outgoing, request, options);
}

/**
 * Reads a small part whole: one open and read instead of a stream per part, through a Descriptor
 * (disk/descriptor.ts: node:fs's callback API, or inline where the file is on a local disk). The
 * expected file is checked on the descriptor with an inline fstatSync, wherever it is: one syscall on
 * a descriptor just opened, whose attributes the open brought in (NFS revalidates them on open), so it
 * does not wait on a disk or a server; 1.5 µs a file measured, against 2.6 µs for the callback form
 * and its round trip through the thread pool.
 */
async function readRange(inline: InlineCalls, request: PutPartRequest): Promise<Buffer> {
  const { filePath, expected } = request;
  const size = request.end - request.start;
  let descriptor: Descriptor | undefined;
  try {
    descriptor = await Descriptor.open(inline, filePath, partOpenFlags(expected));
    if (expected !== undefined) checkOpened(filePath, expected, fstatSync(descriptor.fd));
    const buffer = Buffer.allocUnsafe(size);
    let filled = 0;
    while (filled < size) {
      const bytesRead = await descriptor.read(buffer, filled, size - filled, request.start + filled);
      if (bytesRead === 0) throw fileChangedError(filePath, `ended before the part's end at ${request.end}`);
      filled += bytesRead;
    }
    return buffer;
  } catch (error) {
    throw partFileError(error, filePath, expected) ?? error;
  } finally {
    await descriptor?.close();
  }
}

export async function putPart(context: ClientContext, request: PutPartRequest): Promise<PartAnswer> {
  checkNumbers(request);
  const url = new URL(request.url);
  const size = request.end - request.start;
  // Small parts (most files of a design folder) are read whole (a short file shows there) and go in
  // one write; large ones, or any under a bandwidth cap, go a buffer at a time as the limiter grants.
  const whole = size <= WHOLE_PART_LIMIT && context.uploadLimiter.rate === null;
  if (!whole && request.expected === undefined) await checkRange(request);
  const retryContext = { clock: context.clock, random: context.random, policy: context.retry, signal: request.signal };
  const complete = request.complete === true && whole;
  let attempts = 0;
  return withRetries(retryContext, async (): Promise<PartAnswer> => {
    // A retry counts from 0 again: saying so at once lets a listener of running totals tell it from
    // more of the last attempt even when its first report (1 MiB) equals where that one failed.
    if (attempts++ > 0) request.onProgress?.(0);
    const bytes = whole ? await readRange(context.inline, request) : undefined;
    let response;
    try {
      response = await exchange(context, {
        method: 'PUT',
        url,
        body: bytes ?? partBody(context, request),
        headers: {
          'content-length': String(size),
          'content-type': 'application/octet-stream',
          ...(request.contentMd5 === undefined ? {} : { 'content-md5': request.contentMd5 }),
          ...(complete ? { [COMPLETE_HEADER]: '?1' } : {}),
        },
        signal: request.signal,
      });
    } catch (error) {
      throw partFileError(error, request.filePath, request.expected) ?? transportError(error, 'PUT', url);
    }
    const bodyText = await readText(response.stream);
    if (response.status >= 300) {
      const error = apiErrorFromResponse({ method: 'PUT', url, status: response.status, retryAfter: response.headers['retry-after'], bodyText, now: context.clock.now() });
      // An earlier attempt completed the upload and its answer was lost: the part is the one sent, so
      // its ETag is these bytes' MD5, and completing with it answers the same asset again.
      if (complete && attempts > 1 && bytes !== undefined && error.code === 'UPLOAD_ALREADY_COMPLETED') return { eTag: `"${createHash('md5').update(bytes).digest('hex')}"` };
      throw error;
    }
    const eTag = response.headers.etag;
    if (eTag === undefined || eTag === '') throw invalidResponse('PUT', url, 'the part upload answered no ETag');
    if (whole) request.onProgress?.(size);
    if (!complete || response.headers[COMPLETE_HEADER] !== '?1') return { eTag };
    let answer: unknown;
    try {
      answer = JSON.parse(bodyText);
    } catch {
      throw invalidResponse('PUT', url, 'the completing part upload answered no JSON');
    }
    return { eTag, completed: parseAnswer(envelopeSchema(assetSchema), answer, 'PUT', url.pathname).result };
  });
}
