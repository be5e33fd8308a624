/**
 * Renders documents' first pages on a worker thread (page-worker-source.ts), so a large PDF never
 * blocks the service's event loop: requests are answered while MuPDF works. One worker, started on
 * first use and kept (loading MuPDF's WASM costs a few hundred ms); pages render one at a time in the
 * order asked. It holds the process open only while a page is under way. A worker that dies fails the
 * pages it had, and the next page starts a new one.
 */
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { BlobSource } from '../blobs/blob-store.js';
import { pageWorkerSource } from './page-worker-source.js';

/** A rendered page: tightly packed RGB pixels. */
export interface RenderedPage {
  pixels: Buffer;
  width: number;
  height: number;
}

type Answer = { seq: number; started: true } | { seq: number; error: string } | { seq: number; width: number; height: number; pixels: Uint8Array };

interface Pending {
  resolve(page: RenderedPage): void;
  reject(error: Error): void;
  started?: () => void;
}

export class DocumentRenderer {
  private worker: Worker | undefined;
  private readonly pending = new Map<number, Pending>();
  private sequence = 0;
  private closed = false;

  /**
   * The first page of the document, scaled so its longer side is `size` px. `started` is called when
   * the worker begins on it (MuPDF loaded, the page next): from then on the page is off this thread.
   */
  render(source: BlobSource, mediaType: string, size: number, started?: () => void): Promise<RenderedPage> {
    if (this.closed) return Promise.reject(new Error('the document renderer is closed'));
    const worker = this.ensureWorker();
    const seq = ++this.sequence;
    return new Promise<RenderedPage>((resolve, reject) => {
      this.pending.set(seq, { resolve, reject, ...(started === undefined ? {} : { started }) });
      if (this.pending.size === 1) worker.ref();
      // Inline blobs are small: a copy goes over. Files are read by the worker, off this thread.
      worker.postMessage('bytes' in source ? { seq, bytes: new Uint8Array(source.bytes), mediaType, size } : { seq, path: source.path, mediaType, size });
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    const worker = this.worker;
    this.worker = undefined;
    this.failAll(new Error('the document renderer closed'));
    await worker?.terminate();
  }

  private ensureWorker(): Worker {
    if (this.worker !== undefined) return this.worker;
    const mupdfUrl = pathToFileURL(createRequire(import.meta.url).resolve('mupdf')).href;
    const worker = new Worker(pageWorkerSource, { eval: true, workerData: { mupdfUrl } });
    worker.unref();
    worker.on('message', (answer: Answer) => this.answered(worker, answer));
    const fail = (error: Error): void => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      this.failAll(error);
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`the page worker exited with ${code}`)));
    this.worker = worker;
    return worker;
  }

  private answered(worker: Worker, answer: Answer): void {
    const waiting = this.pending.get(answer.seq);
    if (waiting === undefined) return;
    if ('started' in answer) {
      waiting.started?.();
      return;
    }
    this.pending.delete(answer.seq);
    if (this.pending.size === 0) worker.unref();
    if ('error' in answer) waiting.reject(new Error(answer.error));
    else waiting.resolve({ pixels: Buffer.from(answer.pixels.buffer, answer.pixels.byteOffset, answer.pixels.byteLength), width: answer.width, height: answer.height });
  }

  private failAll(error: Error): void {
    const waiting = [...this.pending.values()];
    this.pending.clear();
    for (const page of waiting) page.reject(error);
  }
}
