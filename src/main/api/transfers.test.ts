import { randomBytes } from 'node:crypto';
import { lstatSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApiClient, type ApiClient } from './create-api-client.js';
import { instantClock, scriptedTokens, sendJson, startFakeServer, errorBody, type FakeServer, type InstantClock, type SeenRequest } from '../../../test/support/api-client-fakes.js';
import type { ServerResponse } from 'node:http';
import { tempDir } from '../../../test/support/temp-dir.js';

const bytes = randomBytes(300_000);

/** Serves `bytes` at /file, honouring `Range: bytes=N-`. */
function serveFile(request: SeenRequest, response: ServerResponse, content: Buffer = bytes): void {
  const range = /^bytes=(\d+)-$/.exec(request.headers.range ?? '');
  if (range === null) {
    response.writeHead(200, { 'content-length': content.length, etag: '"v1"' });
    response.end(content);
    return;
  }
  const start = Number(range[1]);
  response.writeHead(206, { 'content-length': content.length - start, 'content-range': `bytes ${start}-${content.length - 1}/${content.length}`, etag: '"v1"' });
  response.end(content.subarray(start));
}

describe('part uploads and downloads against a fake storage server', () => {
  let server: FakeServer | undefined;
  let api: ApiClient | undefined;
  let clock: InstantClock;
  let dir: string;

  beforeEach(() => {
    dir = tempDir('asset-sync-transfers-');
    clock = instantClock();
  });

  afterEach(async () => {
    api?.close();
    await server?.close();
    api = undefined;
    server = undefined;
  });

  async function setUp(handler: Parameters<typeof startFakeServer>[0]): Promise<{ fake: FakeServer; client: ApiClient }> {
    server = await startFakeServer(handler);
    api = createApiClient({ server: server.url, tokens: scriptedTokens(), clock, random: () => 0.5, env: {} });
    return { fake: server, client: api };
  }

  it('follows a redirect to the file without ever sending the bearer token', async () => {
    const { fake, client } = await setUp((request, response) => {
      if (request.url.startsWith('/signed')) {
        response.writeHead(302, { location: '/file?sig=abc' });
        response.end();
      } else serveFile(request, response);
    });
    const target = join(dir, 'a.part');
    const result = await client.downloadToFile(`${fake.url}/signed?expires=1&signature=secret`, target);
    expect(result).toEqual({ size: bytes.length, resumed: false, etag: '"v1"' });
    expect(readFileSync(target).equals(bytes)).toBe(true);
    expect(fake.requests.map((request) => request.url)).toEqual(['/signed?expires=1&signature=secret', '/file?sig=abc']);
    expect(fake.requests.every((request) => request.headers.authorization === undefined)).toBe(true);
  });

  it('dates the file through the handle that wrote it and answers the file as it then is', async () => {
    const { fake, client } = await setUp((request, response) => serveFile(request, response));
    const target = join(dir, 'dated.part');
    const versionDate = Date.parse('2026-01-02T03:04:05.678Z');
    const result = await client.downloadToFile(`${fake.url}/file`, target, { mtimeMs: versionDate, fsync: true, md5: true });
    const onDisk = lstatSync(target);
    expect(Math.abs(onDisk.mtimeMs - versionDate)).toBeLessThan(1);
    // What the caller records must be what a later scan finds, or the file reads as changed locally.
    expect(result.written).toEqual({ size: bytes.length, mtimeMs: onDisk.mtimeMs, ino: onDisk.ino, dev: onDisk.dev });
  });

  it('resumes by itself from what reached the disk when the connection drops mid-body', async () => {
    let calls = 0;
    const { fake, client } = await setUp((request, response, socket) => {
      if (++calls === 1) {
        response.writeHead(200, { 'content-length': bytes.length });
        response.write(bytes.subarray(0, 100_000), () => setTimeout(() => socket.destroy(), 20));
      } else serveFile(request, response);
    });
    const target = join(dir, 'b.part');
    const result = await client.downloadToFile(`${fake.url}/file`, target);
    expect(result.size).toBe(bytes.length);
    expect(result.resumed).toBe(true);
    expect(readFileSync(target).equals(bytes)).toBe(true);
    expect(fake.requests[1]?.headers.range).toMatch(/^bytes=\d+-$/);
  });

  it('starts over when the server ignores Range, and refuses a 206 that starts elsewhere', async () => {
    let mode: 'ignore' | 'wrong' = 'ignore';
    const { fake, client } = await setUp((_request, response) => {
      if (mode === 'ignore') {
        response.writeHead(200, { 'content-length': bytes.length });
        response.end(bytes);
      } else {
        response.writeHead(206, { 'content-length': 10, 'content-range': `bytes 0-9/${bytes.length}` });
        response.end(bytes.subarray(0, 10));
      }
    });
    const target = join(dir, 'c.part');
    writeFileSync(target, bytes.subarray(0, 5000));
    expect(await client.downloadToFile(`${fake.url}/file`, target, { resumeFrom: 5000 })).toMatchObject({ size: bytes.length, resumed: false });
    expect(readFileSync(target).equals(bytes)).toBe(true);
    mode = 'wrong';
    await expect(client.downloadToFile(`${fake.url}/file`, target, { resumeFrom: 5000 })).rejects.toMatchObject({ code: 'INVALID_RESPONSE' });
  });

  it('does not retry a refused (expired) download URL', async () => {
    const { fake, client } = await setUp((_request, response) => sendJson(response, 403, errorBody(403, 'SIGNED_URL_EXPIRED')));
    const error = await client.downloadToFile(`${fake.url}/file?signature=s3cr3t`, join(dir, 'd.part')).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'SIGNED_URL_EXPIRED', status: 403, retryable: false });
    expect(String(error)).not.toContain('s3cr3t');
    expect(fake.requests).toHaveLength(1);
  });

  it('PUTs exactly the byte range, without the bearer token, again in full after a 503', async () => {
    let calls = 0;
    const { fake, client } = await setUp((_request, response) => {
      if (++calls === 1) sendJson(response, 503, errorBody(503, 'UNAVAILABLE'), { 'retry-after': '2' });
      else {
        response.writeHead(200, { etag: '"abc"' });
        response.end();
      }
    });
    const source = join(dir, 'source.bin');
    writeFileSync(source, bytes);
    const { eTag } = await client.putPart({ url: `${fake.url}/upload-parts/u/2?signature=x`, filePath: source, start: 1000, end: 201_000 });
    expect(eTag).toBe('"abc"');
    expect(fake.requests).toHaveLength(2);
    for (const request of fake.requests) {
      expect(request.method).toBe('PUT');
      expect(request.headers.authorization).toBeUndefined();
      expect(request.headers['content-length']).toBe('200000');
      expect(request.body.equals(bytes.subarray(1000, 201_000))).toBe(true);
    }
    expect(clock.sleeps).toEqual([2000]);
  });

  it('caps upload and download bandwidth with one shared token bucket', async () => {
    const { fake, client } = await setUp((request, response) => {
      if (request.method === 'PUT') {
        response.writeHead(200, { etag: '"e"' });
        response.end();
      } else serveFile(request, response);
    });
    const source = join(dir, 'source.bin');
    writeFileSync(source, bytes);
    client.setBandwidthLimits({ uploadBytesPerSecond: 100_000, downloadBytesPerSecond: 50_000 });

    const before = clock.now();
    await client.putPart({ url: `${fake.url}/part`, filePath: source, start: 0, end: 300_000 });
    const uploadSeconds = (clock.now() - before) / 1000;
    // 300 kB at 100 kB/s, less the initial burst of 25 kB.
    expect(uploadSeconds).toBeGreaterThan(2.6);
    expect(uploadSeconds).toBeLessThan(3.1);

    const started = clock.now();
    await client.downloadToFile(`${fake.url}/file`, join(dir, 'e.part'));
    const downloadSeconds = (clock.now() - started) / 1000;
    expect(downloadSeconds).toBeGreaterThan(5.3);
    expect(downloadSeconds).toBeLessThan(6.1);

    client.setBandwidthLimits({ uploadBytesPerSecond: null, downloadBytesPerSecond: null });
    const free = clock.now();
    await client.downloadToFile(`${fake.url}/file`, join(dir, 'f.part'));
    expect(clock.now() - free).toBe(0);
  });
});
