/**
 * PUTs one part of a multipart upload: streams exactly the byte range [start, end) of a local file to
 * the part's signed URL, through the shared upload bandwidth limiter, and answers the ETag. Retries
 * (a fresh read of the range each time) on network errors, 429 and 5xx; a 403 means the URL expired or
 * was refused, which only fresh URLs fix, so it is not retried here.
 * It must never send the bearer token (the URL is the credential), never follow a redirect, and never
 * hold a whole part in memory.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { pipeline, type Readable } from 'node:stream';
import got from 'got';
import { ApiError, apiErrorFromResponse, invalidResponse } from './api-error.js';
import type { ClientContext } from './api-client.js';
import type { PutPartRequest } from './asset-api.js';
import { transportError } from './transport-error.js';
import { byteCounter, localFileError } from './transfer-streams.js';
import { withRetries } from './with-retries.js';

const READ_CHUNK = 256 * 1024;

async function checkRange(request: PutPartRequest): Promise<void> {
  const { start, end, filePath } = request;
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || start < 0 || end < start) {
    throw new ApiError({ code: 'INVALID_PART_LAYOUT', message: `The byte range ${start}–${end} is not a range.` });
  }
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

export async function putPart(context: ClientContext, request: PutPartRequest): Promise<{ eTag: string }> {
  await checkRange(request);
  const url = new URL(request.url);
  const retryContext = { clock: context.clock, random: context.random, policy: context.retry, signal: request.signal };
  return withRetries(retryContext, async () => {
    let response;
    try {
      response = await got(url, {
        method: 'PUT',
        body: partBody(context, request),
        headers: {
          'content-length': String(request.end - request.start),
          'content-type': 'application/octet-stream',
          'user-agent': context.userAgent,
          ...(request.contentMd5 === undefined ? {} : { 'content-md5': request.contentMd5 }),
        },
        agent: context.agents.agentsFor(url),
        timeout: { connect: context.timeouts.connectMs, secureConnect: context.timeouts.connectMs, socket: context.timeouts.idleMs },
        retry: { limit: 0 },
        throwHttpErrors: false,
        followRedirect: false,
        responseType: 'text',
        ...(request.signal === undefined ? {} : { signal: request.signal }),
      });
    } catch (error) {
      throw localFileError(error, `read ${request.filePath}`) ?? transportError(error, 'PUT', url);
    }
    if (response.statusCode >= 300) {
      throw apiErrorFromResponse({ method: 'PUT', url, status: response.statusCode, retryAfter: response.headers['retry-after'], bodyText: response.body, now: context.clock.now() });
    }
    const eTag = response.headers.etag;
    if (eTag === undefined || eTag === '') throw invalidResponse('PUT', url, 'the part upload answered no ETag');
    return { eTag };
  });
}
