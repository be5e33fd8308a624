import { randomBytes } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { renameSync, statSync, symlinkSync, truncateSync, utimesSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createApiClient, type ApiClient } from './create-api-client.js';
import { InlineCalls } from '../disk/inline-calls.js';
import { errorBody, instantClock, scriptedTokens, sendJson, startFakeServer, type InstantClock } from '../../../test/support/api-client-fakes.js';
import { openHandlesOn } from '../../../test/support/open-handles.js';
import { md5Hex } from '../../../test/support/checksums.js';
import { tempDir } from '../../../test/support/temp-dir.js';

const MIB = 1024 * 1024;

interface ArrivingBody {
  bytes: number;
  /** The whole body arrived (false: the client stopped sending). */
  complete: boolean;
  closed: boolean;
}

interface StreamingServer {
  url: string;
  bodies: ArrivingBody[];
  close(): Promise<void>;
}

/** A server on 127.0.0.1 that counts each body as it arrives, and lets the test act on its first bytes. */
async function startStreamingServer(onFirstBytes: (response: ServerResponse) => void): Promise<StreamingServer> {
  const bodies: ArrivingBody[] = [];
  const server = createServer((incoming: IncomingMessage, response) => {
    const body: ArrivingBody = { bytes: 0, complete: false, closed: false };
    bodies.push(body);
    incoming.on('data', (chunk: Buffer) => {
      if (body.bytes === 0) onFirstBytes(response);
      body.bytes += chunk.length;
    });
    incoming.on('end', () => {
      body.complete = true;
      response.writeHead(200, { etag: '"done"' });
      response.end();
    });
    incoming.on('close', () => (body.closed = true));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/upload-parts/u/1?signature=x`,
    bodies,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/**
 * Each test's source file in a temp folder, and the client and server the test opened: closed and
 * removed after it.
 */
function sourceFile(prefix: string, name: string, content: () => Buffer) {
  const file = { dir: '', path: '', bytes: Buffer.alloc(0) as Buffer, client: undefined as ApiClient | undefined, closeServer: undefined as (() => Promise<void>) | undefined };
  beforeEach(() => {
    file.dir = tempDir(prefix);
    file.path = join(file.dir, name);
    file.bytes = content();
    writeFileSync(file.path, file.bytes);
  });
  afterEach(async () => {
    file.client?.close();
    file.client = undefined;
    await file.closeServer?.();
    file.closeServer = undefined;
  });
  return file;
}

describe('putPart of a large part (two reused buffers, not a stream)', () => {
  const file = sourceFile('asset-sync-part-upload-', 'source.bin', () => randomBytes(12 * MIB + 777));
  let clock: InstantClock;
  beforeEach(() => {
    clock = instantClock();
  });

  function clientFor(server: string): ApiClient {
    const created = createApiClient({ server, tokens: scriptedTokens(), clock, random: () => 0.5, env: {} });
    file.client = created;
    return created;
  }

  it('arrives byte for byte, read afresh on a retry, its progress a running total that reaches the size once per attempt', async () => {
    let calls = 0;
    const fake = await startFakeServer((_request, response) => {
      if (++calls === 1) sendJson(response, 503, errorBody(503, 'UNAVAILABLE'), { 'retry-after': '1' });
      else {
        response.writeHead(200, { etag: '"abc"' });
        response.end();
      }
    });
    file.closeServer = () => fake.close();
    const start = 4321;
    const end = start + 9 * MIB + 55;
    const progress: number[] = [];
    const { eTag } = await clientFor(fake.url).putPart({ url: `${fake.url}/upload-parts/u/1?signature=x`, filePath: file.path, start, end, onProgress: (total) => progress.push(total) });

    expect(eTag).toBe('"abc"');
    expect(fake.requests).toHaveLength(2);
    for (const request of fake.requests) {
      expect(request.headers['content-length']).toBe(String(end - start));
      expect(request.body.equals(file.bytes.subarray(start, end))).toBe(true);
    }
    // Split into attempts where the total starts again: each climbs to the size and reports it once.
    const attempts: number[][] = [];
    progress.forEach((total, index) => {
      if (index === 0 || total <= (progress[index - 1] ?? 0)) attempts.push([]);
      attempts.at(-1)?.push(total);
    });
    expect(attempts).toHaveLength(2);
    // The retry says it starts again before its first report.
    expect(attempts[1]?.[0]).toBe(0);
    for (const totals of attempts) {
      expect(totals.filter((total) => total === end - start)).toHaveLength(1);
      expect(totals.at(-1)).toBe(end - start);
      expect(totals.length).toBeGreaterThan(1);
    }
    expect(openHandlesOn(file.path)).toBe(0);
  });

  it('fails with LOCAL_FILE_CHANGED, without a retry, when the file is cut short while the part is sent', async () => {
    const cutAt = 6 * MIB + 123;
    const server = await startStreamingServer(() => truncateSync(file.path, cutAt));
    file.closeServer = () => server.close();
    const putting = clientFor(server.url).putPart({ url: server.url, filePath: file.path, start: 0, end: 12 * MIB });

    await expect(putting).rejects.toMatchObject({ name: 'ApiError', code: 'LOCAL_FILE_CHANGED' });
    await vi.waitFor(() => expect(server.bodies[0]?.closed).toBe(true));
    expect(server.bodies).toHaveLength(1);
    expect(server.bodies[0]?.complete).toBe(false);
    expect(server.bodies[0]?.bytes).toBeLessThanOrEqual(cutAt);
    await vi.waitFor(() => expect(openHandlesOn(file.path)).toBe(0));
  });

  it('stops sending when aborted, and does not retry', async () => {
    const server = await startStreamingServer(() => undefined);
    file.closeServer = () => server.close();
    const controller = new AbortController();
    const progress: number[] = [];
    const putting = clientFor(server.url).putPart({
      url: server.url,
      filePath: file.path,
      start: 0,
      end: 12 * MIB,
      signal: controller.signal,
      onProgress: (total) => {
        progress.push(total);
        controller.abort();
      },
    });

    await expect(putting).rejects.toMatchObject({ code: 'ABORTED' });
    await vi.waitFor(() => expect(server.bodies[0]?.closed).toBe(true));
    expect(server.bodies).toHaveLength(1);
    expect(server.bodies[0]?.complete).toBe(false);
    expect(server.bodies[0]?.bytes).toBeLessThan(12 * MIB);
    expect(progress).toEqual([MIB]);
    await vi.waitFor(() => expect(openHandlesOn(file.path)).toBe(0));
  });

  it('keeps to a bandwidth cap, and lets the rest go when the cap is lifted mid-part', async () => {
    const fake = await startFakeServer((_request, response) => {
      response.writeHead(200, { etag: '"e"' });
      response.end();
    });
    file.closeServer = () => fake.close();
    const api = clientFor(fake.url);
    api.setBandwidthLimits({ uploadBytesPerSecond: MIB });

    // 3 MiB + 5 file.bytes at 1 MiB/s from an empty bucket: twelve waits of 250 ms for 256 KiB, one of 1 ms.
    let before = clock.now();
    await api.putPart({ url: `${fake.url}/part`, filePath: file.path, start: 0, end: 3 * MIB + 5 });
    expect(clock.now() - before).toBe(3001);
    expect(fake.requests[0]?.body.equals(file.bytes.subarray(0, 3 * MIB + 5))).toBe(true);

    before = clock.now();
    const onProgress = (total: number): void => {
      if (total >= MIB) api.setBandwidthLimits({ uploadBytesPerSecond: null });
    };
    await api.putPart({ url: `${fake.url}/part`, filePath: file.path, start: 0, end: 8 * MIB, onProgress });
    expect(clock.now() - before).toBe(1000);
    expect(fake.requests[1]?.body.equals(file.bytes.subarray(0, 8 * MIB))).toBe(true);
  });
});

describe('putPart asked to complete a one-part upload', () => {
  const bytes = Buffer.from('a small design file');
  const md5 = md5Hex(bytes);
  const asset = { id: 'a1', lifecycleStatus: { state: 'STAGED' }, dateLastModified: '2026-03-01T09:24:01.417Z', currentAssetFile: { id: 'f1', filename: 'x.txt', size: bytes.length, checksum: md5 } };

  const file = sourceFile('asset-sync-part-complete-', 'x.txt', () => bytes);

  async function put(handler: Parameters<typeof startFakeServer>[0], request: { complete?: boolean; end?: number } = {}) {
    const fake = await startFakeServer(handler);
    file.closeServer = () => fake.close();
    const client = createApiClient({ server: fake.url, tokens: scriptedTokens(), clock: instantClock(), random: () => 0.5, env: {} });
    file.client = client;
    const answer = await client.putPart({ url: `${fake.url}/upload-parts/u/1?signature=x`, filePath: file.path, start: 0, end: request.end ?? bytes.length, complete: request.complete ?? true });
    return { answer, requests: fake.requests };
  }

  it('asks with the header and takes the asset from an answer that says it completed', async () => {
    const { answer, requests } = await put((_request, response) => sendJson(response, 200, { result: asset, permittedActions: [] }, { etag: `"${md5}"`, 'asset-sync-complete': '?1' }));
    expect(requests[0]?.headers['asset-sync-complete']).toBe('?1');
    expect(answer).toMatchObject({ eTag: `"${md5}"`, completed: { id: 'a1', currentAssetFile: { checksum: md5 } } });
  });

  it('answers the part alone when the service ignores the header, and never asks unless told to', async () => {
    const ignoring = (_request: unknown, response: ServerResponse): void => {
      response.writeHead(200, { etag: `"${md5}"` });
      response.end();
    };
    expect((await put(ignoring)).answer).toEqual({ eTag: `"${md5}"` });
    await file.closeServer?.();
    file.client?.close();
    const plain = await put(ignoring, { complete: false });
    expect(plain.requests[0]?.headers['asset-sync-complete']).toBeUndefined();
  });

  it('refuses a completing answer that is not an asset', async () => {
    await expect(put((_request, response) => sendJson(response, 200, { result: { nope: true } }, { etag: `"${md5}"`, 'asset-sync-complete': '?1' }))).rejects.toMatchObject({ code: 'INVALID_RESPONSE' });
  });

  it('after an answer lost on the way, takes "already completed" on the retry as the part sent, with its MD5 as the ETag', async () => {
    let calls = 0;
    const { answer, requests } = await put((_request, response, socket) => {
      if (++calls === 1) socket.destroy(); // completed, then the answer never arrives
      else sendJson(response, 409, errorBody(409, 'UPLOAD_ALREADY_COMPLETED'));
    });
    expect(requests).toHaveLength(2);
    expect(answer).toEqual({ eTag: `"${md5}"` });
  });

  it('still fails with "already completed" when no earlier attempt of this call could have completed it', async () => {
    await expect(put((_request, response) => sendJson(response, 409, errorBody(409, 'UPLOAD_ALREADY_COMPLETED')))).rejects.toMatchObject({ code: 'UPLOAD_ALREADY_COMPLETED' });
  });
});

// Inline: the temp directory taken for a local disk, the file read on the event loop; pooled: as on
// a network share, every call on the thread pool.
describe.each([
  ['inline', true],
  ['pooled', false],
])('putPart told the file it expects (%s)', (_mode, local) => {
  const file = sourceFile('asset-sync-part-expected-', 'logo.png', () => randomBytes(4096));
  const inline = new InlineCalls({ isLocalDirectory: () => Promise.resolve(local) });

  async function fakeClient(): Promise<{ client: ApiClient; url: string; requests: { body: Buffer }[] }> {
    const fake = await startFakeServer((_request, response) => {
      response.writeHead(200, { etag: '"e"' });
      response.end();
    });
    file.closeServer = () => fake.close();
    const client = createApiClient({ server: fake.url, tokens: scriptedTokens(), clock: instantClock(), random: () => 0.5, env: {}, inline });
    file.client = client;
    return { client, url: `${fake.url}/upload-parts/u/1?signature=x`, requests: fake.requests };
  }

  const identityOf = (path: string): { size: number; mtimeMs: number; ino: number } => {
    const { size, mtimeMs, ino } = statSync(path);
    return { size, mtimeMs, ino };
  };

  it('sends the part when what it opened is that file', async () => {
    const { client, url, requests } = await fakeClient();
    await client.putPart({ url, filePath: file.path, start: 0, end: 4096, expected: identityOf(file.path) });
    expect(requests[0]?.body.equals(file.bytes)).toBe(true);
    expect(openHandlesOn(file.path)).toBe(0);
  });

  it('fails with LOCAL_FILE_CHANGED, sending nothing, when size, mtime or inode differ', async () => {
    const { client, url, requests } = await fakeClient();
    const expected = identityOf(file.path);
    const put = (changed: Partial<typeof expected>) => client.putPart({ url, filePath: file.path, start: 0, end: 4096, expected: { ...expected, ...changed } });
    await expect(put({ size: 4095 })).rejects.toMatchObject({ name: 'ApiError', code: 'LOCAL_FILE_CHANGED', retryable: false });
    await expect(put({ mtimeMs: expected.mtimeMs + 1 })).rejects.toMatchObject({ code: 'LOCAL_FILE_CHANGED' });
    await expect(put({ ino: expected.ino + 1 })).rejects.toMatchObject({ code: 'LOCAL_FILE_CHANGED' });
    // Replaced by a file of the same size and mtime: only the inode tells.
    const replacement = join(file.dir, 'replacement.png');
    writeFileSync(replacement, randomBytes(4096));
    utimesSync(replacement, new Date(expected.mtimeMs), new Date(expected.mtimeMs));
    renameSync(replacement, file.path);
    await expect(client.putPart({ url, filePath: file.path, start: 0, end: 4096, expected })).rejects.toMatchObject({ code: 'LOCAL_FILE_CHANGED' });
    expect(requests).toHaveLength(0);
    expect(openHandlesOn(file.path)).toBe(0);
  });

  it('takes a final symlink, a vanished file or a FIFO for a changed file, never following or waiting on it', async () => {
    const { client, url, requests } = await fakeClient();
    const expected = identityOf(file.path);
    // A symlink to the very file: its target would pass the check, but the link is not followed.
    const link = join(file.dir, 'link.png');
    symlinkSync(file.path, link);
    await expect(client.putPart({ url, filePath: link, start: 0, end: 4096, expected })).rejects.toMatchObject({ code: 'LOCAL_FILE_CHANGED' });
    await expect(client.putPart({ url, filePath: join(file.dir, 'gone.png'), start: 0, end: 4096, expected })).rejects.toMatchObject({ code: 'LOCAL_FILE_CHANGED' });
    if (process.platform !== 'win32') {
      const fifo = join(file.dir, 'fifo.png');
      execFileSync('mkfifo', [fifo]);
      await expect(client.putPart({ url, filePath: fifo, start: 0, end: 4096, expected })).rejects.toMatchObject({ code: 'LOCAL_FILE_CHANGED' });
    }
    expect(requests).toHaveLength(0);
    // Without an expected file a missing one is still a failure of the file, not a change.
    await expect(client.putPart({ url, filePath: join(file.dir, 'gone.png'), start: 0, end: 4096 })).rejects.toMatchObject({ code: 'LOCAL_FILE_ERROR' });
  });
});

describe('putPart of a large part told the file it expects', () => {
  const file = sourceFile('asset-sync-part-expected-large-', 'take.mov', () => randomBytes(3 * MIB));

  it('checks what it opened before the first byte, on every attempt', async () => {
    const server = await startStreamingServer(() => undefined);
    file.closeServer = () => server.close();
    const client = createApiClient({ server: server.url, tokens: scriptedTokens(), clock: instantClock(), random: () => 0.5, env: {} });
    file.client = client;
    const { size, mtimeMs, ino } = statSync(file.path);

    await client.putPart({ url: server.url, filePath: file.path, start: 0, end: size, expected: { size, mtimeMs, ino } });
    await vi.waitFor(() => expect(server.bodies[0]?.complete).toBe(true));
    expect(server.bodies[0]?.bytes).toBe(size);

    utimesSync(file.path, new Date(), new Date(mtimeMs + 5000));
    await expect(client.putPart({ url: server.url, filePath: file.path, start: 0, end: size, expected: { size, mtimeMs, ino } })).rejects.toMatchObject({ code: 'LOCAL_FILE_CHANGED' });
    // The request may have reached the server, but not one byte of its body.
    expect(server.bodies.slice(1).every((body) => body.bytes === 0 && !body.complete)).toBe(true);
    await vi.waitFor(() => expect(openHandlesOn(file.path)).toBe(0));
  });
});
