/**
 * The 1 MiB buffers large part PUTs read the file into (send-file-range.ts), kept between parts: one
 * set per API client (ClientContext.chunkBuffers). Each part in flight uses two; allocated afresh per
 * part, a 1 GiB upload made 128 MiB of short-lived external memory, and V8 answered the pressure with
 * full garbage collections of the engine's heap every few parts. A part takes its buffers when it needs
 * them and gives them back once every write that used them has been flushed; at most `kept` wait here
 * (by default two for each of the eight parts the engine sends at once), the rest are left to the
 * collector.
 *
 * Must never: hand out a buffer a request may still be sending from. A part that fails gives nothing
 * back (a write of it may still be queued on a socket being torn down).
 */

/** Bytes per buffer: one read and one write of a part. */
export const CHUNK_BYTES = 1024 * 1024;

export class ChunkBuffers {
  private readonly free: Buffer[] = [];

  constructor(private readonly kept = 16) {}

  /** A CHUNK_BYTES buffer, reused when one is free; it holds whatever was read into it last. */
  take(): Buffer {
    return this.free.pop() ?? Buffer.allocUnsafeSlow(CHUNK_BYTES);
  }

  /** Takes back buffers nothing reads into or sends from any more; only whole CHUNK_BYTES buffers are kept. */
  give(buffers: readonly Buffer[]): void {
    for (const buffer of buffers) {
      if (this.free.length >= this.kept) return;
      if (buffer.length === CHUNK_BYTES && buffer.byteOffset === 0 && buffer.buffer.byteLength === CHUNK_BYTES && !this.free.includes(buffer)) this.free.push(buffer);
    }
  }

  /** How many buffers wait to be reused. */
  get waiting(): number {
    return this.free.length;
  }
}
