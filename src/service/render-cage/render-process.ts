/**
 * The entry of a render process (render-cage.ts forks it): renders the service's previews and download
 * transformations one job at a time, with its own small libuv thread pool and one libvips thread, so
 * whatever a hostile file makes sharp or MuPDF do, it does it here, where the service can kill it.
 * MuPDF runs on a worker thread of this process (DocumentRenderer), so this thread stays free to report
 * usage while a page or an image renders: every USAGE_SAMPLE_MS and once more before the answer, the
 * processor time the job has used and the process's peak resident memory (its high-water mark, so a
 * spike between two samples counts), from which the cage decides to kill it.
 *
 * Sharp's own limits apply as well: no cache kept between jobs (each job's memory is freed), and the
 * default limit of input pixels (an image whose header claims more is refused before it is decoded).
 */
import sharp from 'sharp';
import { DocumentRenderer } from '../previews/document-renderer.js';
import { RenderFailure, runRenderJob, type FromRenderer, type ToRenderer } from './render-jobs.js';

export const USAGE_SAMPLE_MS = 50;

const send = (message: FromRenderer): void => {
  process.send?.(message);
};

sharp.cache(false);
sharp.concurrency(1);
const documents = new DocumentRenderer();

process.on('message', (message: ToRenderer) => {
  const { id } = message;
  // Inline bytes arrive as a plain Uint8Array: sharp and MuPDF take a Buffer view of the same memory.
  const { source } = message.job;
  const job = 'bytes' in source ? { ...message.job, source: { bytes: Buffer.from(source.bytes.buffer, source.bytes.byteOffset, source.bytes.byteLength) } } : message.job;
  const start = process.cpuUsage();
  const report = (): void => {
    const used = process.cpuUsage(start);
    send({ type: 'usage', id, cpuMicros: used.user + used.system, rssBytes: process.resourceUsage().maxRSS * 1024 });
  };
  const sampler = setInterval(report, USAGE_SAMPLE_MS);
  runRenderJob(job, documents).then(
    (output) => {
      clearInterval(sampler);
      // A last report before the answer: a peak between two samples still counts against the limits.
      report();
      send({ type: 'done', id, output });
    },
    (error: unknown) => {
      clearInterval(sampler);
      report();
      const failure = error instanceof RenderFailure ? error : new RenderFailure('UNREADABLE', String(error));
      send({ type: 'failed', id, reason: failure.reason, message: failure.message });
    },
  );
});
// The service went away: so does this process.
process.on('disconnect', () => process.exit(0));
send({ type: 'ready' });
