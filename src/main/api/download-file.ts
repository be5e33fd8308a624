/**
 * Streams a signed download URL into a temp file, resuming with `Range` from the bytes already there:
 * follows up to five redirects by hand (so each hop gets the right proxy and never any credential),
 * checks that a 206 starts where it was asked to, starts over when the server sends the whole file
 * (200) instead, and on a retryable failure resumes from what reached the disk. The shared download
 * limiter caps the rate. It never sends the bearer token and never buffers the body; verifying size
 * and checksum, fsync and the rename into place are the caller's.
 */
import { open, stat } from 'node:fs/promises';
import { ApiError, apiErrorFromResponse, invalidResponse } from './api-error.js';
import { exchange, readText, type Exchange } from './http-exchange.js';
import type { ClientContext } from './api-client.js';
import type { DownloadResult, DownloadToFileOptions } from './asset-api.js';
import { transportError } from './transport-error.js';
import { localFileError } from './transfer-streams.js';
import { writeBody } from './write-body.js';
import { withRetries } from './with-retries.js';

const MAX_REDIRECTS = 5;

/** One GET, redirects not followed; failures below HTTP as ApiErrors. */
async function openOnce(context: ClientContext, url: URL, headers: Record<string, string>, signal: AbortSignal | undefined): Promise<Exchange> {
  try {
    return await exchange(context, { method: 'GET', url, headers, responseMs: context.timeouts.responseMs, signal });
  } catch (error) {
    throw transportError(error, 'GET', url);
  }
}

/** Opens the URL, following redirects by hand. */
async function openFollowing(context: ClientContext, start: URL, headers: Record<string, string>, signal: AbortSignal | undefined): Promise<Exchange> {
  let url = start;
  for (let hop = 0; ; hop++) {
    const opened = await openOnce(context, url, headers, signal);
    const location = opened.headers.location;
    if (opened.status < 300 || opened.status >= 400 || location === undefined) return opened;
    opened.stream.destroy();
    if (hop >= MAX_REDIRECTS) throw invalidResponse('GET', start, `more than ${MAX_REDIRECTS} redirects`);
    url = new URL(location, url);
  }
}

/** `bytes a-b/total` → a and total (total undefined when `*`). */
function contentRange(header: string | undefined): { start: number; total: number | undefined } | undefined {
  const match = /^bytes (\d+)-\d+\/(\d+|\*)$/.exec(header?.trim() ?? '');
  if (match === null) return undefined;
  return { start: Number(match[1]), total: match[2] === '*' ? undefined : Number(match[2]) };
}

async function prepareFile(path: string, keep: number): Promise<number> {
  try {
    const handle = await open(path, keep > 0 ? 'r+' : 'w');
    try {
      const kept = keep > 0 ? Math.min(keep, (await handle.stat()).size) : 0;
      await handle.truncate(kept);
      return kept;
    } finally {
      await handle.close();
    }
  } catch (error) {
    if (keep > 0 && error instanceof Error && 'code' in error && error.code === 'ENOENT') return prepareFile(path, 0);
    throw localFileError(error, `write ${path}`) ?? error;
  }
}

async function attempt(context: ClientContext, url: URL, tempPath: string, wanted: number, options: DownloadToFileOptions): Promise<DownloadResult> {
  // From scratch the body writer truncates the file itself: no separate open, truncate and close.
  let offset = wanted > 0 ? await prepareFile(tempPath, wanted) : 0;
  const headers: Record<string, string> = offset > 0 ? { range: `bytes=${offset}-`, ...(options.ifRange === undefined ? {} : { 'if-range': options.ifRange }) } : {};
  const opened = await openFollowing(context, url, headers, options.signal);
  const etag = typeof opened.headers.etag === 'string' ? opened.headers.etag : undefined;
  let resumed = false;
  let expected: number | undefined;

  if (opened.status === 416 && offset > 0) {
    opened.stream.destroy();
    const range = /^bytes \*\/(\d+)$/.exec(opened.headers['content-range']?.trim() ?? '');
    if (range !== null && Number(range[1]) === offset) return { size: offset, resumed: true, etag };
    // The file on disk is not a prefix of this one: start over.
    return attempt(context, url, tempPath, 0, options);
  }
  if (opened.status >= 300) {
    const bodyText = await readText(opened.stream);
    throw apiErrorFromResponse({ method: 'GET', url: opened.url, status: opened.status, retryAfter: opened.headers['retry-after'], bodyText, now: context.clock.now() });
  }
  if (opened.status === 206) {
    const range = contentRange(opened.headers['content-range']);
    if (range?.start !== offset) {
      opened.stream.destroy();
      throw invalidResponse('GET', opened.url, `asked for bytes from ${offset}, got ${opened.headers['content-range'] ?? 'no Content-Range'}`);
    }
    resumed = true;
    expected = range.total;
  } else {
    // A 200 is the whole file: the server ignored Range or If-Range found it changed (the body
    // writer opens the file with 'w', which truncates it).
    offset = 0;
    const length = Number(opened.headers['content-length']);
    expected = Number.isSafeInteger(length) ? length : undefined;
  }

  const written = await writeBody(context, opened.stream, opened.url, tempPath, offset, options);
  const size = offset + written.bytes;
  if (expected !== undefined && size !== expected) {
    throw new ApiError({ code: 'NETWORK', retryable: true, message: `GET ${opened.url.origin}${opened.url.pathname} ended after ${size} of ${expected} bytes.`, method: 'GET', path: `${opened.url.origin}${opened.url.pathname}` });
  }
  return { size, resumed, etag, ...(written.md5 === undefined ? {} : { md5: written.md5 }), ...(written.written === undefined ? {} : { written: written.written }) };
}

export async function downloadToFile(context: ClientContext, url: string, tempPath: string, options: DownloadToFileOptions = {}): Promise<DownloadResult> {
  const target = new URL(url);
  let wanted = Math.max(0, options.resumeFrom ?? 0);
  const retryContext = { clock: context.clock, random: context.random, policy: context.retry, signal: options.signal };
  return withRetries(retryContext, async (attemptNumber) => {
    // After a failed attempt, keep whatever reached the disk and ask for the rest.
    if (attemptNumber > 1) wanted = await stat(tempPath).then((info) => info.size, () => 0);
    return attempt(context, target, tempPath, wanted, options);
  });
}
