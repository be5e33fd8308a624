/**
 * Streams one part's request body into its byte range of the upload file (or, for a small whole file
 * kept inline, into memory: `receivePartInMemory`). The body is read chunk by
 * chunk and written in batches with `writev`, one batch on its way to the disk while the next one fills,
 * so memory stays at two batches per part whatever the part's size. `onChunk` sees every chunk as it
 * arrives (small parts are hashed from there, on the event loop); after every batch `onWritten` learns
 * how many bytes of the part are in the file (large parts are hashed from there by the digest worker).
 *
 * Must never: write a byte beyond the part's range, or return before the bytes are durable: the ETag
 * the caller answers with promises they are stored, so the file is `fdatasync`ed first (data and the
 * metadata needed to read it back; the same durability as `fsync` for the bytes). A part that fits in
 * one batch is written with O_DSYNC instead, which gives the same guarantee for that one write without
 * a separate `fdatasync` round trip to the thread pool.
 */
import { constants } from 'node:fs';
import type { Readable } from 'node:stream';
import { ServiceError } from '../errors/service-error.js';
import { syncData, withCreatedDescriptor, writevAt } from '../io/descriptor-calls.js';

/** Bytes gathered before one `writev`: big enough to keep syscalls rare, small enough to stay in cache. */
const BATCH_BYTES = 1 << 20;

export interface PartTarget {
  file: string;
  /** Offset of the part's first byte in the file. */
  start: number;
  /** The part's exact size. */
  size: number;
}

export interface PartWriteHooks {
  /** A chunk of the body, before it is written (chunks come in order, and never beyond the range). */
  onChunk?: (chunk: Buffer) => void;
  /** The first `bytes` bytes of the part are in the file. */
  onWritten?: (bytes: number) => void;
}

/** Writes the body to `target`; resolves once every byte is written and synced. */
export function writePart(target: PartTarget, body: Readable, hooks: PartWriteHooks = {}): Promise<void> {
  // One batch, one write: O_DSYNC makes that write durable by itself (a 0-byte part has no write to lean on).
  const oneWrite = target.size > 0 && target.size <= BATCH_BYTES;
  const flags = constants.O_WRONLY | constants.O_CREAT | (oneWrite ? constants.O_DSYNC : 0);
  return withCreatedDescriptor(target.file, flags, 0o600, (fd) => writeBody(fd, target, body, hooks, oneWrite), oneWrite);
}

/**
 * Reads a small part's whole body into memory instead of a file (a blob kept inline, inline-blobs.ts),
 * with the same checks as `writePart`; `onChunk` sees every chunk, and `onWritten` the whole part once
 * every byte is held.
 */
export async function receivePartInMemory(size: number, body: Readable, hooks: PartWriteHooks = {}): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let received = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    received = checkReceived(received + chunk.length, size);
    hooks.onChunk?.(chunk);
    chunks.push(chunk);
  }
  checkComplete(received, size);
  hooks.onWritten?.(size);
  return Buffer.concat(chunks, size);
}

function checkReceived(received: number, size: number): number {
  if (received > size) throw new ServiceError('INVALID_PART_SIZE', `The part is larger than its ${size}-byte range.`);
  return received;
}

function checkComplete(received: number, size: number): void {
  if (received !== size) throw new ServiceError('INVALID_PART_SIZE', `The part has ${received} bytes; its range needs ${size}.`);
}

async function writeBody(fd: number, target: PartTarget, body: Readable, hooks: PartWriteHooks, oneWrite: boolean): Promise<void> {
  const writer = new BatchWriter(fd, target.start, (bytes) => hooks.onWritten?.(bytes));
  let received = 0;
  try {
    let batch: Buffer[] = [];
    let batchBytes = 0;
    for await (const chunk of body as AsyncIterable<Buffer>) {
      received = checkReceived(received + chunk.length, target.size);
      hooks.onChunk?.(chunk);
      batch.push(chunk);
      batchBytes += chunk.length;
      if (batchBytes >= BATCH_BYTES) {
        await writer.write(batch, batchBytes);
        batch = [];
        batchBytes = 0;
      }
    }
    checkComplete(received, target.size);
    if (batchBytes > 0) await writer.write(batch, batchBytes);
    await writer.drain();
    if (!oneWrite) await syncData(fd);
  } finally {
    // A failed part may still have a batch on its way: let it land before the descriptor closes.
    await writer.settle();
  }
}

/** Writes batches in order at increasing positions, one in flight while the caller gathers the next. */
class BatchWriter {
  private inFlight: Promise<void> = Promise.resolve();
  private position: number;
  private written = 0;

  constructor(
    private readonly fd: number,
    start: number,
    private readonly onWritten: (bytes: number) => void,
  ) {
    this.position = start;
  }

  /** Waits for the previous batch (surfacing its failure), then starts this one. */
  async write(batch: Buffer[], bytes: number): Promise<void> {
    await this.inFlight;
    const position = this.position;
    this.position += bytes;
    const landing = this.writeAll(batch, position).then(() => {
      this.written += bytes;
      this.onWritten(this.written);
    });
    // Observed here so a failure is never "unhandled" while the caller is still reading the body; the
    // caller sees it at its next write() or drain().
    landing.catch(() => undefined);
    this.inFlight = landing;
  }

  /** Resolves when every batch is written; rejects with the first failure. */
  drain(): Promise<void> {
    return this.inFlight;
  }

  /** Resolves when nothing is in flight, whatever happened. */
  async settle(): Promise<void> {
    await this.inFlight.catch(() => undefined);
  }

  private async writeAll(batch: Buffer[], position: number): Promise<void> {
    let buffers = batch;
    let at = position;
    // writev may write less than asked (rarely, for regular files): continue with what is left.
    while (buffers.length > 0) {
      const bytesWritten = await writevAt(this.fd, buffers, at);
      if (bytesWritten === 0) throw new Error(`could not write at ${at}`);
      at += bytesWritten;
      buffers = remainder(buffers, bytesWritten);
    }
  }
}

/** The buffers left after the first `skip` bytes. */
function remainder(buffers: Buffer[], skip: number): Buffer[] {
  let left = skip;
  let index = 0;
  while (index < buffers.length && left >= (buffers[index]?.length ?? 0)) {
    left -= buffers[index]?.length ?? 0;
    index++;
  }
  const rest = buffers.slice(index);
  const first = rest[0];
  if (first !== undefined && left > 0) rest[0] = first.subarray(left);
  return rest;
}
