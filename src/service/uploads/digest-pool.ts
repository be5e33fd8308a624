/**
 * The worker threads that compute the digests of large parts (digest-worker-source.ts): the parts' MD5s
 * (ETags) and the whole files' MD5 and SHA-256 (small parts are hashed inline, upload-digests.ts).
 * Keeping that hashing here lets the event loop only move bytes, and digests on one thread can share a
 * read.
 *
 * Sizing: one worker per two CPUs (one hashing thread and one receiving thread per core), but never
 * fewer than two. A large upload needs three digests over every byte (each part's MD5, the file's MD5
 * and SHA-256), and the file digest can only follow the contiguous prefix of parts that arrive side by
 * side, so with one worker it queues behind the part ETags and trails the last part by over a second
 * per GiB. Even on two SMT siblings of one core, two workers (the file MD5 on one, the other parts and
 * the file SHA-256 on the other) cut that tail to 0.2–0.5 s and measured a 1 GiB upload (64 MiB parts,
 * 4 in flight) at 0.67–0.75 of a bare server's speed against 0.57–0.66 with one. Workers start on first
 * use: uploads of small files start none.
 *
 * This module only carries messages to the worker a caller names; which bytes go where and when a
 * digest can no longer be trusted is upload-digests.ts's job. Messages to one worker are handled in the
 * order sent. Digest state lives only in worker memory: when a worker dies, `epoch` changes and every
 * digest must be treated as lost.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { digestWorkerSource } from './digest-worker-source.js';

export interface DigestAnswer {
  /** How far the digest has hashed; -1 when the worker has no such digest (dropped, failed, never opened). */
  offset: number;
  md5?: string;
  sha256?: string;
  error?: string;
}

type Request =
  | { op: 'open'; key: string; at: number; md5?: boolean; sha256: boolean; md5From?: string }
  | { op: 'feed'; path: string; from: number; to: number; keys: string[] }
  | { op: 'finish'; key: string }
  | { op: 'drop'; key: string };

interface Pending {
  resolve(answer: DigestAnswer): void;
  reject(error: Error): void;
}

export class DigestPool {
  private readonly workers: (Worker | undefined)[];
  private sequence = 0;
  private readonly pending = new Map<number, Pending & { worker: number }>();
  private workerEpoch = 0;

  constructor(size = Math.max(2, Math.floor(availableParallelism() / 2))) {
    this.workers = Array.from({ length: Math.max(1, size) }, () => undefined);
  }

  /** Changes whenever a worker dies: digests opened before then are gone. */
  get epoch(): number {
    return this.workerEpoch;
  }

  /** How many workers there are (numbered from 0). */
  get size(): number {
    return this.workers.length;
  }

  /**
   * Starts a digest of the bytes from `at` on: an MD5 (unless `md5` is false) and a SHA-256 if asked;
   * `md5From` borrows that digest's MD5 instead of keeping one.
   */
  open(worker: number, key: string, at: number, options: { md5?: boolean; sha256: boolean; md5From?: string }): Promise<DigestAnswer> {
    return this.send(worker, { op: 'open', key, at, ...options });
  }

  /** Reads bytes [from, to) of `path` once into every digest in `keys` (all must stand at `from`). */
  feed(worker: number, path: string, from: number, to: number, keys: string[]): Promise<DigestAnswer> {
    return this.send(worker, { op: 'feed', path, from, to, keys });
  }

  /** The digest's hex values and offset; the worker forgets it. */
  finish(worker: number, key: string): Promise<DigestAnswer> {
    return this.send(worker, { op: 'finish', key });
  }

  /** Forgets a digest (after every earlier message about it). */
  drop(worker: number, key: string): Promise<DigestAnswer> {
    return this.send(worker, { op: 'drop', key });
  }

  async close(): Promise<void> {
    const running = this.workers.filter((worker) => worker !== undefined);
    this.workers.fill(undefined);
    await Promise.all(running.map((worker) => worker.terminate()));
  }

  private send(index: number, request: Request): Promise<DigestAnswer> {
    const worker = this.ensureWorker(index % this.workers.length);
    const seq = ++this.sequence;
    return new Promise<DigestAnswer>((resolve, reject) => {
      this.pending.set(seq, { resolve, reject, worker: index % this.workers.length });
      worker.postMessage({ ...request, seq });
    });
  }

  private ensureWorker(index: number): Worker {
    const existing = this.workers[index];
    if (existing !== undefined) return existing;
    const worker = new Worker(digestWorkerSource, { eval: true });
    worker.unref();
    worker.on('message', (answer: DigestAnswer & { seq: number }) => {
      const waiting = this.pending.get(answer.seq);
      this.pending.delete(answer.seq);
      waiting?.resolve(answer);
    });
    const fail = (error: Error): void => {
      if (this.workers[index] === worker) this.workers[index] = undefined;
      this.workerEpoch++;
      for (const [seq, waiting] of this.pending) {
        if (waiting.worker !== index) continue;
        this.pending.delete(seq);
        waiting.reject(error);
      }
    };
    worker.on('error', fail);
    worker.on('exit', (code) => {
      if (code !== 0) fail(new Error(`digest worker exited with ${code}`));
    });
    this.workers[index] = worker;
    return worker;
  }
}
