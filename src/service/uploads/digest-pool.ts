/**
 * Whole-file MD5 (the AssetFile checksum) and SHA-256 (the blob address) of an upload, computed while
 * it arrives so completion does not read the file again. Parts land in any order; as soon as the
 * contiguous prefix grows, a worker thread reads the new bytes back (from the page cache, they were just
 * written) and feeds both hashes. That keeps ~1 s/GiB of hashing off the event loop that is busy
 * receiving parts and computing their ETags.
 *
 * A running hash lives only in memory: after a restart or a worker crash the state is gone and
 * `finish` falls back to hashing the whole file. Never trust a digest whose offset is not the size.
 */
import { Worker } from 'node:worker_threads';

export interface FileDigest {
  md5: string;
  sha256: string;
}

interface Pending {
  resolve(value: WorkerAnswer): void;
  reject(error: Error): void;
}

type WorkerAnswer = { id: string; offset: number; md5?: string; sha256?: string; error?: string };

// The worker is plain JavaScript evaluated from a string so the same code runs from tsc output, under
// vitest (which cannot load .ts workers) and inside a bundled Electron app.
const workerSource = String.raw`
const { parentPort } = require('node:worker_threads');
const { createHash } = require('node:crypto');
const { openSync, readSync, closeSync } = require('node:fs');
const states = new Map();
const buffer = Buffer.allocUnsafe(1 << 20);
parentPort.on('message', (message) => {
  const { op, id } = message;
  try {
    if (op === 'advance') {
      let state = states.get(id);
      if (state === undefined || message.from === 0 && state.offset !== 0) {
        state = { offset: 0, md5: createHash('md5'), sha256: createHash('sha256') };
        states.set(id, state);
      }
      if (state.offset !== message.from) throw new Error('digest is at ' + state.offset + ', not ' + message.from);
      if (message.to > message.from) {
        const fd = openSync(message.path, 'r');
        try {
          let position = message.from;
          while (position < message.to) {
            const length = Math.min(buffer.length, message.to - position);
            const read = readSync(fd, buffer, 0, length, position);
            if (read === 0) throw new Error('file ended at ' + position);
            const chunk = buffer.subarray(0, read);
            state.md5.update(chunk);
            state.sha256.update(chunk);
            position += read;
          }
        } finally {
          closeSync(fd);
        }
        state.offset = message.to;
      }
      parentPort.postMessage({ id, offset: state.offset, seq: message.seq });
    } else if (op === 'finish') {
      const state = states.get(id);
      states.delete(id);
      if (state === undefined) parentPort.postMessage({ id, offset: -1, seq: message.seq });
      else parentPort.postMessage({ id, offset: state.offset, md5: state.md5.digest('hex'), sha256: state.sha256.digest('hex'), seq: message.seq });
    } else if (op === 'drop') {
      states.delete(id);
      parentPort.postMessage({ id, offset: -1, seq: message.seq });
    }
  } catch (error) {
    states.delete(id);
    parentPort.postMessage({ id, offset: -1, error: String(error && error.message || error), seq: message.seq });
  }
});
`;

/** One worker thread keeps the running digests of all uploads; each upload's requests are serialised. */
export class DigestPool {
  private worker: Worker | undefined;
  private sequence = 0;
  private readonly pending = new Map<number, Pending>();
  /** Per upload: the offset the worker has hashed to, and the tail of its request chain. */
  private readonly uploads = new Map<string, { offset: number; chain: Promise<unknown> }>();

  /** Feeds bytes [from, to) of the file to the upload's running digest. Out-of-order calls are ignored. */
  advance(id: string, path: string, from: number, to: number): Promise<void> {
    const entry = this.entry(id);
    const run = async (): Promise<void> => {
      if (entry.offset !== from || to <= from) return;
      const answer = await this.send({ op: 'advance', id, path, from, to });
      entry.offset = answer.offset;
    };
    const next = entry.chain.then(run, run);
    entry.chain = next.catch(() => undefined);
    return next;
  }

  /** Where the running digest of the upload stands (0 when none). */
  offset(id: string): number {
    return this.uploads.get(id)?.offset ?? 0;
  }

  /**
   * Completes the digest of a `size`-byte file. Catches up from wherever the running digest stands,
   * or hashes the whole file when the state was lost.
   */
  async finish(id: string, path: string, size: number): Promise<FileDigest> {
    const entry = this.entry(id);
    await entry.chain;
    if (entry.offset > size) entry.offset = -1;
    try {
      if (entry.offset >= 0 && entry.offset < size) await this.send({ op: 'advance', id, path, from: entry.offset, to: size });
      let answer = await this.send({ op: 'finish', id });
      if (answer.offset !== size || answer.md5 === undefined || answer.sha256 === undefined) {
        await this.send({ op: 'advance', id, path, from: 0, to: size });
        answer = await this.send({ op: 'finish', id });
      }
      if (answer.md5 === undefined || answer.sha256 === undefined || answer.offset !== size) {
        throw new Error(`could not digest upload ${id}: ${answer.error ?? 'incomplete'}`);
      }
      return { md5: answer.md5, sha256: answer.sha256 };
    } finally {
      this.uploads.delete(id);
    }
  }

  /** Forgets an upload's digest (abandoned, failed part). */
  drop(id: string): void {
    if (!this.uploads.has(id)) return;
    this.uploads.delete(id);
    void this.send({ op: 'drop', id }).catch(() => undefined);
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    this.uploads.clear();
    if (worker !== undefined) await worker.terminate();
  }

  private entry(id: string): { offset: number; chain: Promise<unknown> } {
    let entry = this.uploads.get(id);
    if (entry === undefined) {
      entry = { offset: 0, chain: Promise.resolve() };
      this.uploads.set(id, entry);
    }
    return entry;
  }

  private send(message: Record<string, unknown> & { id: string }): Promise<WorkerAnswer> {
    const worker = this.ensureWorker();
    const seq = ++this.sequence;
    return new Promise<WorkerAnswer>((resolve, reject) => {
      this.pending.set(seq, { resolve, reject });
      worker.postMessage({ ...message, seq });
    });
  }

  private ensureWorker(): Worker {
    if (this.worker !== undefined) return this.worker;
    const worker = new Worker(workerSource, { eval: true });
    worker.unref();
    worker.on('message', (answer: WorkerAnswer & { seq: number }) => {
      const waiting = this.pending.get(answer.seq);
      this.pending.delete(answer.seq);
      waiting?.resolve(answer);
    });
    const fail = (error: Error): void => {
      // Every running digest died with the worker: finish() will rehash from the file.
      for (const entry of this.uploads.values()) entry.offset = -1;
      for (const waiting of this.pending.values()) waiting.reject(error);
      this.pending.clear();
      if (this.worker === worker) this.worker = undefined;
    };
    worker.on('error', fail);
    worker.on('exit', (code) => code !== 0 && fail(new Error(`digest worker exited with ${code}`)));
    this.worker = worker;
    return worker;
  }
}
