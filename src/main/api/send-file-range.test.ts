import { randomBytes } from 'node:crypto';
import { truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Agent, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { sendFileRange } from './send-file-range.js';
import { ChunkBuffers } from './chunk-buffers.js';
import { openHandlesOn } from '../../../test/support/open-handles.js';
import { tempDir } from '../../../test/support/temp-dir.js';

const MIB = 1024 * 1024;
const uncapped = { grant: (bytes: number): Promise<number> => Promise.resolve(bytes) };

/** A request stand-in that copies what it is given (the sender reuses its buffers) and can act on each write. */
function recordingSink(onWrite: (index: number, done: (error?: Error) => void) => void = (_index, done) => setImmediate(done)) {
  const sink = { chunks: [] as Buffer[], backing: new Set<ArrayBufferLike>(), inFlight: 0, maxInFlight: 0, ended: false };
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      sink.chunks.push(Buffer.from(chunk));
      sink.backing.add(chunk.buffer);
      sink.maxInFlight = Math.max(sink.maxInFlight, ++sink.inFlight);
      onWrite(sink.chunks.length - 1, (error) => {
        sink.inFlight--;
        callback(error);
      });
    },
    final(callback) {
      sink.ended = true;
      callback();
    },
  });
  // A destroyed request's error goes to the exchange's listener; here, nowhere.
  stream.on('error', () => undefined);
  return { sink, stream, received: () => Buffer.concat(sink.chunks) };
}

describe('sendFileRange', () => {
  let dir: string;
  let path: string;
  let bytes: Buffer;

  beforeEach(() => {
    dir = tempDir('asset-sync-send-range-');
    path = join(dir, 'source.bin');
    bytes = randomBytes(8 * MIB + 5000);
    writeFileSync(path, bytes);
  });


  it('sends exactly the range through two reused buffers, one write in flight at a time, and ends', async () => {
    // Flushes slower than reads, so a send that did not wait for the previous one would show.
    const { sink, stream, received } = recordingSink((_index, done) => setTimeout(done, 3));
    const progress: number[] = [];
    const start = 1234;
    const end = start + 7 * MIB + 99;
    await sendFileRange(stream, { filePath: path, start, end }, { ...uncapped, onProgress: (total) => progress.push(total) });
    expect(received().equals(bytes.subarray(start, end))).toBe(true);
    expect(sink.ended).toBe(true);
    // A read stream would show one backing buffer per read here.
    expect(sink.backing.size).toBe(2);
    expect(sink.maxInFlight).toBe(1);
    expect(progress).toEqual(sink.chunks.map((_chunk, index) => sink.chunks.slice(0, index + 1).reduce((sum, chunk) => sum + chunk.length, 0)));
    expect(progress.at(-1)).toBe(end - start);
    expect(openHandlesOn(path)).toBe(0);
  });

  it('sends a range under 1 MiB with one buffer of its size', async () => {
    const { sink, stream, received } = recordingSink();
    await sendFileRange(stream, { filePath: path, start: 10, end: 5010 }, uncapped);
    expect(received().equals(bytes.subarray(10, 5010))).toBe(true);
    expect([...sink.backing].map((backing) => backing.byteLength)).toEqual([5000]);
  });

  it('takes its whole buffers from the client ChunkBuffers and gives them back once sent, so the next range allocates none', async () => {
    const buffers = new ChunkBuffers();
    const first = recordingSink((_index, done) => setTimeout(done, 2));
    await sendFileRange(first.stream, { filePath: path, start: 0, end: 3 * MIB + 7 }, { ...uncapped, buffers });
    expect(first.received().equals(bytes.subarray(0, 3 * MIB + 7))).toBe(true);
    expect(buffers.waiting).toBe(2);
    const second = recordingSink();
    await sendFileRange(second.stream, { filePath: path, start: 5, end: 2 * MIB + 5 }, { ...uncapped, buffers });
    expect(second.received().equals(bytes.subarray(5, 2 * MIB + 5))).toBe(true);
    // The same two backing buffers, reused, and back again.
    expect([...second.sink.backing].every((backing) => first.sink.backing.has(backing))).toBe(true);
    expect(buffers.waiting).toBe(2);
  });

  it('gives nothing back when the range fails: a write of its buffers may still be queued', async () => {
    const buffers = new ChunkBuffers();
    const { stream } = recordingSink((index, done) => {
      if (index === 0) truncateSync(path, MIB + 10);
      setImmediate(done);
    });
    await expect(sendFileRange(stream, { filePath: path, start: 0, end: 4 * MIB }, { ...uncapped, buffers })).rejects.toMatchObject({ code: 'LOCAL_FILE_CHANGED' });
    expect(buffers.waiting).toBe(0);
  });

  it('keeps at most as many buffers as it was told, and only whole ones', () => {
    const buffers = new ChunkBuffers(2);
    buffers.give([Buffer.allocUnsafeSlow(MIB), Buffer.allocUnsafeSlow(5000), Buffer.allocUnsafeSlow(MIB), Buffer.allocUnsafeSlow(MIB)]);
    expect(buffers.waiting).toBe(2);
    const taken = buffers.take();
    buffers.give([taken, taken]);
    expect(buffers.waiting).toBe(2);
  });

  it('sends each buffer in the pieces the limiter grants, asking again for the rest', async () => {
    const { sink, stream, received } = recordingSink();
    const asked: number[] = [];
    const grant = (wanted: number): Promise<number> => {
      asked.push(wanted);
      return Promise.resolve(Math.min(wanted, 300_000));
    };
    await sendFileRange(stream, { filePath: path, start: 0, end: 2 * MIB }, { grant });
    expect(received().equals(bytes.subarray(0, 2 * MIB))).toBe(true);
    expect(sink.chunks.map((chunk) => chunk.length)).toEqual([300_000, 300_000, 300_000, MIB - 900_000, 300_000, 300_000, 300_000, MIB - 900_000]);
    expect(asked.slice(0, 4)).toEqual([MIB, MIB - 300_000, MIB - 600_000, MIB - 900_000]);
  });

  it('fails with LOCAL_FILE_CHANGED when the file is cut short while it is sent, without ending the request', async () => {
    const cutAt = 3 * MIB + 10;
    const { sink, stream, received } = recordingSink((index, done) => {
      if (index === 0) truncateSync(path, cutAt);
      setImmediate(done);
    });
    await expect(sendFileRange(stream, { filePath: path, start: 0, end: 6 * MIB }, uncapped)).rejects.toMatchObject({ name: 'ApiError', code: 'LOCAL_FILE_CHANGED' });
    expect(received().equals(bytes.subarray(0, cutAt))).toBe(true);
    expect(sink.ended).toBe(false);
    expect(openHandlesOn(path)).toBe(0);
  });

  it('stops, and closes the file, when a request queued for a socket is destroyed (its writes are never called back)', async () => {
    // One socket, held by a first request the server answers only on cue: the second request queues.
    let answerFirst = (): void => undefined;
    const server = createServer((incoming, response) => {
      incoming.resume();
      answerFirst = () => response.end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const agent = new Agent({ maxSockets: 1 });
    try {
      const first = request({ host: '127.0.0.1', port, method: 'PUT', agent, headers: { 'content-length': '1' } }, (response) => response.resume());
      first.end('x');
      const queued = request({ host: '127.0.0.1', port, method: 'PUT', agent, headers: { 'content-length': String(8 * MIB) } });
      queued.on('error', () => undefined);
      const progress: number[] = [];
      const sending = sendFileRange(queued, { filePath: path, start: 0, end: 8 * MIB }, { ...uncapped, onProgress: (total) => progress.push(total) });
      // Its first buffer is written (and held, unsent) once the second read is under way.
      await vi.waitFor(() => expect(queued.writableLength).toBeGreaterThan(0));
      expect(queued.socket).toBeNull();
      queued.destroy(new Error('gone'));
      // Destroyed while queued, it closes only once it gets the socket, and its writes are dropped.
      answerFirst();
      // (A ClientRequest does not expose its destroy error as `errored`.)
      await expect(sending).rejects.toThrow(/gone|closed before its body was sent/);
      expect(progress).toEqual([]);
      expect(openHandlesOn(path)).toBe(0);
    } finally {
      answerFirst();
      agent.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('stops waiting for the limiter when the request is destroyed', async () => {
    const { stream } = recordingSink();
    const grant = vi.fn(
      (_bytes: number, signal: AbortSignal) =>
        new Promise<number>((_resolve, reject) => signal.addEventListener('abort', () => reject(signal.reason instanceof Error ? signal.reason : new Error('aborted')))),
    );
    const sending = sendFileRange(stream, { filePath: path, start: 0, end: 2 * MIB }, { grant });
    await vi.waitFor(() => expect(grant).toHaveBeenCalled());
    stream.destroy(new Error('cancelled'));
    await expect(sending).rejects.toThrow('cancelled');
    expect(openHandlesOn(path)).toBe(0);
  });

  it('maps nothing itself: a missing file fails with the file system error', async () => {
    const { stream } = recordingSink();
    await expect(sendFileRange(stream, { filePath: join(dir, 'missing.bin'), start: 0, end: 2 * MIB }, uncapped)).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
