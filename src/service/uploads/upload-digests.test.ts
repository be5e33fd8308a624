import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { openSync, closeSync, readFileSync, writeSync, ftruncateSync } from 'node:fs';
import { join } from 'node:path';
import { partRange } from '../../shared/api/part-layout.js';
import { DigestPool } from './digest-pool.js';
import { KEEP_FILE_BYTES, UploadDigests, contiguousEnd, type DigestLayout, type PartProgress } from './upload-digests.js';
import { md5Hex, sha256Hex } from '../../../test/support/checksums.js';
import { tempDir } from '../../../test/support/temp-dir.js';

/** A pool that remembers every feed, to tell a running digest from a rehash at completion. */
class RecordingPool extends DigestPool {
  readonly feeds: { from: number; to: number; keys: string[] }[] = [];
  readonly opens: { worker: number; at: number; options: Parameters<DigestPool['open']>[3] }[] = [];

  override open(worker: number, key: string, at: number, options: Parameters<DigestPool['open']>[3]): ReturnType<DigestPool['open']> {
    this.opens.push({ worker, at, options });
    return super.open(worker, key, at, options);
  }

  override feed(worker: number, path: string, from: number, to: number, keys: string[]): ReturnType<DigestPool['feed']> {
    this.feeds.push({ from, to, keys });
    return super.feed(worker, path, from, to, keys);
  }

  /** Bytes read for digests so far. */
  bytesRead(): number {
    return this.feeds.reduce((sum, feed) => sum + feed.to - feed.from, 0);
  }
}

/** Drives UploadDigests the way UploadService does, writing the bytes to a real file. */
class Upload {
  readonly recorded = new Set<number>();
  readonly layout: DigestLayout;
  readonly digests: UploadDigests;

  constructor(
    readonly pool: DigestPool,
    dir: string,
    readonly bytes: Buffer,
    partSize: number,
    digests?: UploadDigests,
    /** Parts up to this size are hashed inline; 0 (the default here) sends every part with bytes to the worker. */
    inlinePartBytes = 0,
  ) {
    const partCount = Math.max(1, Math.ceil(bytes.length / partSize));
    this.layout = { uploadId: `upload-${randomBytes(4).toString('hex')}`, file: join(dir, 'file.upload'), size: bytes.length, partSize, partCount };
    this.digests = digests ?? new UploadDigests(pool, (_uploadId, partNumber) => this.recorded.has(partNumber), inlinePartBytes);
    closeSync(openSync(this.layout.file, 'a'));
  }

  /** Writes the part in `batch`-byte steps (the bytes it carries default to the upload's); returns its MD5. */
  async sendPart(partNumber: number, options: { batch?: number; content?: Buffer; failAfter?: number } = {}): Promise<string | undefined> {
    const range = partRange(this.layout.size, this.layout.partSize, partNumber);
    const content = options.content ?? this.bytes.subarray(range.start, range.end);
    this.recorded.delete(partNumber);
    this.digests.partStarting(this.layout, partNumber);
    const fd = openSync(this.layout.file, 'r+');
    try {
      const batch = options.batch ?? 1 << 20;
      for (let written = 0; written < content.length; ) {
        const length = Math.min(batch, content.length - written, (options.failAfter ?? Infinity) - written);
        if (length <= 0) break;
        this.digests.partReceived(this.layout, partNumber, content.subarray(written, written + length));
        writeSync(fd, content, written, length, range.start + written);
        written += length;
        this.digests.partWritten(this.layout, partNumber, written);
        await new Promise((resolve) => setImmediate(resolve));
      }
    } finally {
      closeSync(fd);
    }
    if (options.failAfter !== undefined) {
      this.digests.partEnded(this.layout, partNumber, false);
      return undefined;
    }
    const etag = await this.digests.partMd5(this.layout, partNumber);
    this.recorded.add(partNumber);
    this.digests.partEnded(this.layout, partNumber, true);
    return etag;
  }

  finish(): ReturnType<UploadDigests['finish']> {
    const fd = openSync(this.layout.file, 'r+');
    ftruncateSync(fd, this.layout.size);
    closeSync(fd);
    return this.digests.finish(this.layout);
  }

  partBytes(partNumber: number): Buffer {
    const range = partRange(this.layout.size, this.layout.partSize, partNumber);
    return this.bytes.subarray(range.start, range.end);
  }
}

describe('contiguousEnd', () => {
  const layout = { size: 25, partSize: 10 };
  const progressOf = (states: Record<number, PartProgress>) => (partNumber: number) => states[partNumber];

  it('runs through recorded parts and stops at a missing one', () => {
    expect(contiguousEnd(layout, 0, progressOf({ 1: 'recorded', 3: 'recorded' }))).toBe(10);
    expect(contiguousEnd(layout, 0, progressOf({ 1: 'recorded', 2: 'recorded', 3: 'recorded' }))).toBe(25);
    expect(contiguousEnd(layout, 0, progressOf({ 2: 'recorded' }))).toBe(0);
  });

  it('goes into an arriving part up to its written bytes, and never past it even when it is all written', () => {
    expect(contiguousEnd(layout, 0, progressOf({ 1: 'recorded', 2: 4 }))).toBe(14);
    expect(contiguousEnd(layout, 0, progressOf({ 1: 10, 2: 'recorded' }))).toBe(10);
    expect(contiguousEnd(layout, 12, progressOf({ 2: 1 }))).toBe(12);
    expect(contiguousEnd(layout, 12, progressOf({ 2: 6, 3: 'recorded' }))).toBe(16);
  });

  it('continues from the middle of a recorded part', () => {
    expect(contiguousEnd(layout, 13, progressOf({ 2: 'recorded', 3: 'recorded' }))).toBe(25);
    expect(contiguousEnd({ size: 0, partSize: 10 }, 0, progressOf({ 1: 'recorded' }))).toBe(0);
  });
});

describe('UploadDigests', () => {
  let dir: string;
  let pool: RecordingPool;
  beforeEach(() => {
    dir = tempDir('upload-digests-');
    pool = new RecordingPool(1);
  });
  afterEach(async () => {
    await pool.close();
  });

  it('digests parts that arrive out of order, the last one short, and needs no rehash at completion', async () => {
    const upload = new Upload(pool, dir, randomBytes(3 * 65_536 + 1234), 65_536);
    for (const partNumber of [3, 1, 4, 2]) {
      expect(await upload.sendPart(partNumber, { batch: 10_000 })).toBe(md5Hex(upload.partBytes(partNumber)));
    }
    const feedsBeforeCompletion = pool.feeds.length;
    const digest = await upload.finish();
    expect(digest).toEqual({ md5: md5Hex(upload.bytes), sha256: sha256Hex(upload.bytes) });
    // Every byte was read at most twice (once for its part, once for the file), and completion read
    // nothing new: the running digest had it all.
    expect(pool.bytesRead()).toBeLessThanOrEqual(2 * upload.bytes.length);
    expect(pool.feeds.length).toBe(feedsBeforeCompletion);
  });

  it('reads bytes once for both digests when parts come in order, and part 1 borrows the file MD5', async () => {
    const upload = new Upload(pool, dir, randomBytes(5 * 40_000 + 7), 40_000);
    for (let partNumber = 1; partNumber <= upload.layout.partCount; partNumber++) {
      expect(await upload.sendPart(partNumber, { batch: 8192 })).toBe(md5Hex(upload.partBytes(partNumber)));
    }
    expect(await upload.finish()).toEqual({ md5: md5Hex(upload.bytes), sha256: sha256Hex(upload.bytes) });
    expect(pool.bytesRead()).toBe(upload.bytes.length);
  });

  it('drops the file digest when a part it read is sent again with other bytes', async () => {
    const upload = new Upload(pool, dir, randomBytes(3 * 50_000), 50_000);
    for (const partNumber of [1, 2, 3]) await upload.sendPart(partNumber, { batch: 7000 });
    const replacement = randomBytes(50_000);
    expect(await upload.sendPart(2, { content: replacement, batch: 9000 })).toBe(md5Hex(replacement));
    const expected = Buffer.concat([upload.partBytes(1), replacement, upload.partBytes(3)]);
    expect(await upload.finish()).toEqual({ md5: md5Hex(expected), sha256: sha256Hex(expected) });
  });

  it('forgets what it read of a part that failed half-way, then takes the bytes sent again', async () => {
    const upload = new Upload(pool, dir, randomBytes(2 * 50_000 + 99), 50_000);
    await upload.sendPart(1, { batch: 5000 });
    // Part 2 sits at the front of the file digest: it reads the 20,000 bytes written before the failure.
    await upload.sendPart(2, { content: randomBytes(50_000), batch: 5000, failAfter: 20_000 });
    await upload.sendPart(3, { batch: 5000 });
    expect(await upload.sendPart(2, { batch: 5000 })).toBe(md5Hex(upload.partBytes(2)));
    expect(await upload.finish()).toEqual({ md5: md5Hex(upload.bytes), sha256: sha256Hex(upload.bytes) });
  });

  it('hashes a part on its own from the file when its worker dies while it arrives', async () => {
    const upload = new Upload(pool, dir, randomBytes(2 * 30_000), 30_000);
    for (const partNumber of [1, 2]) {
      // Part 1 borrows the file digest's MD5; part 2 keeps its own: both are lost with the worker.
      const range = partRange(upload.layout.size, upload.layout.partSize, partNumber);
      upload.digests.partStarting(upload.layout, partNumber);
      const fd = openSync(upload.layout.file, 'r+');
      writeSync(fd, upload.bytes, range.start, 10_000, range.start);
      upload.digests.partWritten(upload.layout, partNumber, 10_000);
      await pool.close();
      writeSync(fd, upload.bytes, range.start + 10_000, range.end - range.start - 10_000, range.start + 10_000);
      closeSync(fd);
      upload.digests.partWritten(upload.layout, partNumber, range.end - range.start);
      expect(await upload.digests.partMd5(upload.layout, partNumber)).toBe(md5Hex(upload.partBytes(partNumber)));
      upload.recorded.add(partNumber);
      upload.digests.partEnded(upload.layout, partNumber, true);
    }
    expect(await upload.finish()).toEqual({ md5: md5Hex(upload.bytes), sha256: sha256Hex(upload.bytes) });
  });

  it('sends part 1 again after the file digest passed it', async () => {
    const upload = new Upload(pool, dir, randomBytes(3 * 20_000), 20_000);
    for (const partNumber of [1, 2, 3]) await upload.sendPart(partNumber, { batch: 3000 });
    const replacement = randomBytes(20_000);
    expect(await upload.sendPart(1, { content: replacement, batch: 3000 })).toBe(md5Hex(replacement));
    const expected = Buffer.concat([replacement, upload.partBytes(2), upload.partBytes(3)]);
    expect(await upload.finish()).toEqual({ md5: md5Hex(expected), sha256: sha256Hex(expected) });
  });

  it.each([
    ['a 0-byte file', 0],
    ['a 1-byte file', 1],
  ])('digests %s', async (_what, size) => {
    const upload = new Upload(pool, dir, randomBytes(size), 5 << 20);
    expect(await upload.sendPart(1)).toBe(md5Hex(upload.bytes));
    expect(await upload.finish()).toEqual({ md5: md5Hex(upload.bytes), sha256: sha256Hex(upload.bytes) });
  });

  it('starts over from the file after a restart (no running digest) and after a lost worker', async () => {
    const bytes = randomBytes(4 * 25_000);
    const before = new Upload(pool, dir, bytes, 25_000);
    await before.sendPart(1);
    await before.sendPart(2);
    // A new process: nothing in memory but the recorded parts.
    const restartedPool = new RecordingPool(1);
    try {
      const after = new Upload(restartedPool, dir, bytes, 25_000);
      after.recorded.add(1).add(2);
      await after.sendPart(3);
      // The worker dies mid-upload: every running digest goes with it.
      await restartedPool.close();
      await after.sendPart(4);
      expect(await after.finish()).toEqual({ md5: md5Hex(bytes), sha256: sha256Hex(bytes) });
    } finally {
      await restartedPool.close();
    }
  });

  it('spreads the parts of one upload over several workers and still digests the file', async () => {
    const wide = new RecordingPool(3);
    try {
      const upload = new Upload(wide, dir, randomBytes(7 * 12_345 + 3), 12_345);
      const sends = [5, 2, 7, 1, 3, 8, 6, 4].map((partNumber) => upload.sendPart(partNumber, { batch: 4000 }));
      const etags = await Promise.all(sends);
      expect(etags).toEqual([5, 2, 7, 1, 3, 8, 6, 4].map((partNumber) => md5Hex(upload.partBytes(partNumber))));
      expect(await upload.finish()).toEqual({ md5: md5Hex(upload.bytes), sha256: sha256Hex(upload.bytes) });
    } finally {
      await wide.close();
    }
  });

  describe('small parts hashed inline', () => {
    const inline = (bytes: Buffer, partSize: number): Upload => new Upload(pool, dir, bytes, partSize, undefined, 1 << 20);

    it('gives a one-part upload the same ETag and file digest as the worker, without the worker', async () => {
      const bytes = randomBytes(4096 + 17);
      const quick = inline(bytes, 5 << 20);
      const etag = await quick.sendPart(1, { batch: 1000 });
      const digest = await quick.finish();
      expect(pool.feeds).toEqual([]);
      const viaWorker = new Upload(pool, dir, bytes, 5 << 20);
      expect(await viaWorker.sendPart(1, { batch: 1000 })).toBe(etag);
      expect(await viaWorker.finish()).toEqual(digest);
      expect(digest).toEqual({ md5: md5Hex(bytes), sha256: sha256Hex(bytes) });
      expect(etag).toBe(md5Hex(bytes));
    });

    it.each([
      ['a 0-byte file', 0],
      ['a 1-byte file', 1],
      ['a file of exactly the inline limit', 1 << 20],
    ])('digests %s inline', async (_what, size) => {
      const bytes = randomBytes(size);
      const upload = inline(bytes, 5 << 20);
      expect(await upload.sendPart(1, { batch: 65_536 })).toBe(md5Hex(bytes));
      expect(await upload.finish()).toEqual({ md5: md5Hex(bytes), sha256: sha256Hex(bytes) });
      expect(pool.feeds).toEqual([]);
    });

    it('takes the digest of the bytes PUT last, and forgets it when a PUT again fails half-way', async () => {
      const first = randomBytes(5000);
      const upload = inline(first, 5 << 20);
      await upload.sendPart(1);
      const second = randomBytes(5000);
      expect(await upload.sendPart(1, { content: second, batch: 999 })).toBe(md5Hex(second));
      await upload.sendPart(1, { content: randomBytes(5000), batch: 1000, failAfter: 3000 });
      // Nothing recorded now: what completion gets is whatever the file holds, read back by the worker.
      const digest = await upload.finish();
      expect(pool.feeds.length).toBeGreaterThan(0);
      const held = readFileSync(upload.layout.file);
      expect(digest).toEqual({ md5: md5Hex(held), sha256: sha256Hex(held) });
    });

    it('uses a known file digest once; a later finish (a retried completion, a restart) reads the file', async () => {
      const bytes = randomBytes(3000);
      const upload = inline(bytes, 5 << 20);
      await upload.sendPart(1);
      expect(await upload.finish()).toEqual({ md5: md5Hex(bytes), sha256: sha256Hex(bytes) });
      expect(pool.feeds).toEqual([]);
      expect(await upload.finish()).toEqual({ md5: md5Hex(bytes), sha256: sha256Hex(bytes) });
      expect(pool.bytesRead()).toBe(bytes.length);
    });

    it('keeps a small one-part upload\'s bytes until finish, and only bytes it recorded', async () => {
      const bytes = randomBytes(3000);
      const upload = inline(bytes, 5 << 20);
      expect(upload.digests.keptFile(upload.layout.uploadId)).toBeUndefined();
      await upload.sendPart(1, { batch: 1000 });
      expect(upload.digests.keptFile(upload.layout.uploadId)).toEqual(bytes);
      await upload.finish();
      expect(upload.digests.keptFile(upload.layout.uploadId)).toBeUndefined();

      const again = inline(bytes, 5 << 20);
      await again.sendPart(1);
      await again.sendPart(1, { content: randomBytes(3000), batch: 1000, failAfter: 2000 });
      expect(again.digests.keptFile(again.layout.uploadId)).toBeUndefined();
      await again.sendPart(1, { batch: 700 });
      expect(again.digests.keptFile(again.layout.uploadId)).toEqual(bytes);
      again.digests.drop(again.layout.uploadId);
      expect(again.digests.keptFile(again.layout.uploadId)).toBeUndefined();
    });

    it('keeps no bytes of a larger or multipart upload, or beyond its memory budget', async () => {
      const large = inline(randomBytes(KEEP_FILE_BYTES + 1), 5 << 20);
      await large.sendPart(1);
      expect(large.digests.keptFile(large.layout.uploadId)).toBeUndefined();
      const multipart = inline(randomBytes(3000), 2000);
      await multipart.sendPart(1);
      await multipart.sendPart(2);
      expect(multipart.digests.keptFile(multipart.layout.uploadId)).toBeUndefined();

      // One UploadDigests for many uploads: the first 512 of 64 KiB fill its 32 MiB.
      const shared = new UploadDigests(pool, () => false);
      const uploads = Array.from({ length: 513 }, () => new Upload(pool, dir, randomBytes(KEEP_FILE_BYTES), 5 << 20, shared, 1 << 20));
      for (const upload of uploads) await upload.sendPart(1, { batch: 1 << 20 });
      expect(uploads.filter((upload) => shared.keptFile(upload.layout.uploadId) !== undefined)).toHaveLength(512);
      // Finishing one frees its share for the next.
      await uploads[0]?.finish();
      const next = new Upload(pool, dir, randomBytes(KEEP_FILE_BYTES), 5 << 20, shared, 1 << 20);
      await next.sendPart(1);
      expect(shared.keptFile(next.layout.uploadId)).toEqual(next.bytes);
    });

    it('hashes a short last part inline while the worker keeps the file digest of a multipart upload', async () => {
      const upload = new Upload(pool, dir, randomBytes(3 * 40_000 + 500), 40_000, undefined, 1000);
      for (const partNumber of [4, 2, 1, 3]) {
        expect(await upload.sendPart(partNumber, { batch: 7000 })).toBe(md5Hex(upload.partBytes(partNumber)));
      }
      expect(await upload.finish()).toEqual({ md5: md5Hex(upload.bytes), sha256: sha256Hex(upload.bytes) });
      // Part 4's 500 bytes were read back only for the file digest.
      expect(pool.bytesRead()).toBeLessThanOrEqual(2 * upload.bytes.length - 500);
    });

    it('refuses an inline ETag for bytes it did not see', async () => {
      const upload = inline(randomBytes(2000), 5 << 20);
      upload.digests.partStarting(upload.layout, 1);
      upload.digests.partWritten(upload.layout, 1, 2000);
      await expect(upload.digests.partMd5(upload.layout, 1)).rejects.toThrow(/hashed from 0 bytes/);
      upload.digests.partEnded(upload.layout, 1, false);
    });
  });
});

describe('UploadDigests with the file digest in two lanes (two workers)', () => {
  let dir: string;
  let pool: RecordingPool;
  beforeEach(() => {
    dir = tempDir('upload-digests-lanes-');
    pool = new RecordingPool(2);
  });
  afterEach(async () => {
    await pool.close();
  });

  it('digests parts arriving side by side and out of order, and completion reads nothing new', async () => {
    const upload = new Upload(pool, dir, randomBytes(5 * 30_000 + 77), 30_000);
    const etags = await Promise.all([3, 1, 6, 2, 5, 4].map((partNumber) => upload.sendPart(partNumber, { batch: 6000 })));
    expect(etags).toEqual([3, 1, 6, 2, 5, 4].map((partNumber) => md5Hex(upload.partBytes(partNumber))));
    await new Promise((resolve) => setTimeout(resolve, 50));
    const feeds = pool.feeds.length;
    expect(await upload.finish()).toEqual({ md5: md5Hex(upload.bytes), sha256: sha256Hex(upload.bytes) });
    // Each byte read at most three times: for its part, the file MD5 and the file SHA-256.
    expect(pool.bytesRead()).toBeLessThanOrEqual(3 * upload.bytes.length);
    expect(pool.feeds.length).toBe(feeds);
  });

  it('keeps the file MD5 and SHA-256 on different workers, part 1 beside the MD5, the other parts off it', async () => {
    const upload = new Upload(pool, dir, randomBytes(3 * 20_000), 20_000);
    for (const partNumber of [1, 2, 3]) await upload.sendPart(partNumber, { batch: 5000 });
    expect(await upload.finish()).toEqual({ md5: md5Hex(upload.bytes), sha256: sha256Hex(upload.bytes) });
    const workerOf = (match: (open: RecordingPool['opens'][number]) => boolean): number[] => pool.opens.filter(match).map((open) => open.worker);
    const [md5Lane] = workerOf((open) => open.options.md5 === true && !open.options.sha256);
    const [shaLane] = workerOf((open) => open.options.md5 === false && open.options.sha256);
    expect(md5Lane).toBeDefined();
    expect(shaLane).toBeDefined();
    expect(shaLane).not.toBe(md5Lane);
    expect(workerOf((open) => open.options.md5From !== undefined)).toEqual([md5Lane]);
    const otherParts = workerOf((open) => open.at > 0);
    expect(otherParts).toHaveLength(2);
    expect(otherParts).not.toContain(md5Lane);
  });

  it('drops only the lanes that read a part sent again, and ends with the bytes the file holds', async () => {
    const upload = new Upload(pool, dir, randomBytes(3 * 25_000), 25_000);
    for (const partNumber of [1, 2, 3]) await upload.sendPart(partNumber, { batch: 4000 });
    const replacement = randomBytes(25_000);
    expect(await upload.sendPart(2, { content: replacement, batch: 4000 })).toBe(md5Hex(replacement));
    await upload.sendPart(3, { content: randomBytes(25_000), batch: 4000, failAfter: 9000 });
    const third = randomBytes(25_000);
    await upload.sendPart(3, { content: third });
    const expected = Buffer.concat([upload.partBytes(1), replacement, third]);
    expect(await upload.finish()).toEqual({ md5: md5Hex(expected), sha256: sha256Hex(expected) });
  });

  it('starts both lanes over after a lost worker, and after a restart', async () => {
    const bytes = randomBytes(4 * 15_000);
    const before = new Upload(pool, dir, bytes, 15_000);
    await before.sendPart(1);
    await before.sendPart(2);
    const restarted = new RecordingPool(2);
    try {
      const after = new Upload(restarted, dir, bytes, 15_000);
      after.recorded.add(1).add(2);
      await after.sendPart(3);
      await restarted.close();
      await after.sendPart(4);
      expect(await after.finish()).toEqual({ md5: md5Hex(bytes), sha256: sha256Hex(bytes) });
    } finally {
      await restarted.close();
    }
  });

  it('digests one large part with its MD5 borrowed from the file MD5 lane', async () => {
    const upload = new Upload(pool, dir, randomBytes(70_000), 5 << 20);
    expect(await upload.sendPart(1, { batch: 9000 })).toBe(md5Hex(upload.bytes));
    expect(await upload.finish()).toEqual({ md5: md5Hex(upload.bytes), sha256: sha256Hex(upload.bytes) });
    // Read once for the MD5 (part and file together) and once for the SHA-256.
    expect(pool.bytesRead()).toBe(2 * upload.bytes.length);
  });
});

