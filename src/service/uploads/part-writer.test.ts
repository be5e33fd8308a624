import { beforeEach, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { receivePartInMemory, writePart } from './part-writer.js';
import { tempDir } from '../../../test/support/temp-dir.js';

/** A body that yields the buffers one by one (then fails, when asked to). */
function body(chunks: Buffer[], failure?: Error): Readable {
  return Readable.from(
    (async function* () {
      for (const chunk of chunks) {
        await new Promise((resolve) => setImmediate(resolve));
        yield chunk;
      }
      if (failure !== undefined) throw failure;
    })(),
  );
}

/** Splits bytes into chunks of `size` (like a socket's reads). */
function chunked(bytes: Buffer, size: number): Buffer[] {
  const chunks: Buffer[] = [];
  for (let start = 0; start < bytes.length; start += size) chunks.push(bytes.subarray(start, start + size));
  return chunks;
}

const openDescriptors = (): number => readdirSync('/proc/self/fd').length;

describe('writePart', () => {
  let dir: string;
  let file: string;
  beforeEach(() => {
    dir = tempDir('part-writer-');
    file = join(dir, 'upload');
  });

  it('writes the body into its range in batches and reports the bytes written, in order', async () => {
    const around = randomBytes(5 << 20);
    writeFileSync(file, around);
    const part = randomBytes(3 * (1 << 20) + 12_345);
    const progress: number[] = [];
    await writePart({ file, start: 1000, size: part.length }, body(chunked(part, 65_536)), { onWritten: (bytes) => progress.push(bytes) });
    const stored = readFileSync(file);
    expect(stored.subarray(1000, 1000 + part.length).equals(part)).toBe(true);
    expect(stored.subarray(0, 1000).equals(around.subarray(0, 1000))).toBe(true);
    expect(stored.subarray(1000 + part.length).equals(around.subarray(1000 + part.length))).toBe(true);
    expect(progress.length).toBeGreaterThan(2);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(progress.at(-1)).toBe(part.length);
  });

  it('shows every chunk in order before writing it, and writes a small part in one go', async () => {
    writeFileSync(file, Buffer.alloc(10_000));
    const part = randomBytes(5000);
    const seen: Buffer[] = [];
    const progress: number[] = [];
    await writePart({ file, start: 3000, size: part.length }, body(chunked(part, 700)), {
      onChunk: (chunk) => seen.push(Buffer.from(chunk)),
      onWritten: (bytes) => progress.push(bytes),
    });
    expect(Buffer.concat(seen).equals(part)).toBe(true);
    expect(seen.length).toBe(Math.ceil(part.length / 700));
    expect(progress).toEqual([part.length]);
    expect(readFileSync(file).subarray(3000, 8000).equals(part)).toBe(true);
  });

  it('never shows a chunk that would run past the range', async () => {
    const seen: number[] = [];
    const write = writePart({ file, start: 0, size: 50 }, body([randomBytes(40), randomBytes(40)]), { onChunk: (chunk) => seen.push(chunk.length) });
    await expect(write).rejects.toMatchObject({ code: 'INVALID_PART_SIZE' });
    expect(seen).toEqual([40]);
  });

  it('refuses a body longer than the range without writing past it', async () => {
    writeFileSync(file, Buffer.alloc(100));
    const write = writePart({ file, start: 10, size: 50 }, body([randomBytes(40), randomBytes(40)]));
    await expect(write).rejects.toMatchObject({ code: 'INVALID_PART_SIZE' });
    expect(readFileSync(file).subarray(50).equals(Buffer.alloc(50))).toBe(true);
  });

  it('refuses a body shorter than the range', async () => {
    await expect(writePart({ file, start: 0, size: 50 }, body([randomBytes(49)]))).rejects.toMatchObject({ code: 'INVALID_PART_SIZE' });
  });

  it('gives up on a body that fails half-way and leaves no file handle open', async () => {
    const before = openDescriptors();
    const failing = body(chunked(randomBytes(3 << 20), 65_536), new Error('connection reset'));
    await expect(writePart({ file, start: 0, size: 4 << 20 }, failing)).rejects.toThrow('connection reset');
    expect(openDescriptors()).toBe(before);
  });

  it('creates the file for a 0-byte part', async () => {
    await writePart({ file, start: 0, size: 0 }, body([]));
    expect(existsSync(file)).toBe(true);
    expect(readFileSync(file).length).toBe(0);
  });
});

describe('receivePartInMemory', () => {
  it('holds the whole body, showing every chunk in order and then the whole size', async () => {
    const bytes = randomBytes(10_000);
    const seen: Buffer[] = [];
    const written: number[] = [];
    const held = await receivePartInMemory(bytes.length, body(chunked(bytes, 3000)), { onChunk: (chunk) => seen.push(chunk), onWritten: (n) => written.push(n) });
    expect(held.equals(bytes)).toBe(true);
    expect(Buffer.concat(seen).equals(bytes)).toBe(true);
    expect(written).toEqual([bytes.length]);
  });

  it('refuses a body longer or shorter than the part, before holding it whole', async () => {
    const written: number[] = [];
    await expect(receivePartInMemory(5000, body(chunked(randomBytes(6000), 3000)), { onWritten: (n) => written.push(n) })).rejects.toMatchObject({ code: 'INVALID_PART_SIZE' });
    await expect(receivePartInMemory(5000, body([randomBytes(4999)]), { onWritten: (n) => written.push(n) })).rejects.toMatchObject({ code: 'INVALID_PART_SIZE' });
    expect(written).toEqual([]);
  });
});
