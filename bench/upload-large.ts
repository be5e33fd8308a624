/**
 * Benchmark: one large multipart upload to the asset service (job → parts → completion, including the
 * whole-file MD5/SHA-256 and the move into the blob store) beside the same bytes in the same parts PUT
 * to a bare Node server that only hashes and writes (bench/support/raw-put-server.ts). Both servers run
 * in their own process; rounds alternate so machine noise hits both. Target: ratio ≥ 0.8.
 */
import { mkdtempSync, openSync, rmSync, writeSync, closeSync } from 'node:fs';
import { randomFillSync } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mintToken } from '../src/service/auth/mint-token.js';
import { partRange } from '../src/shared/api/part-layout.js';
import { peakRss, startChild } from './support/processes.js';
import { putParts, type PartToSend } from './support/put-parts.js';

const MiB = 1024 * 1024;

export interface UploadBenchResult {
  sizeBytes: number;
  baselineMBps: number;
  serviceMBps: number;
  ratio: number;
  serviceRssBytes: number | undefined;
  /** Where the service's best round spent its time. */
  phases: { jobMs: number; partsMs: number; completionMs: number };
}

function makeFile(path: string, size: number): void {
  const fd = openSync(path, 'w');
  const chunk = Buffer.allocUnsafe(MiB);
  for (let written = 0; written < size; written += chunk.length) {
    randomFillSync(chunk);
    writeSync(fd, chunk, 0, Math.min(chunk.length, size - written));
  }
  closeSync(fd);
}

async function api(base: string, token: string, method: string, path: string, body?: unknown): Promise<any> {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? null : JSON.stringify(body),
  });
  const json = (await response.json()) as any;
  if (response.status !== 200) throw new Error(`${method} ${path}: ${JSON.stringify(json)}`);
  return json;
}

export async function benchLargeUpload(sizeMiB = Number(process.env.BENCH_SIZE_MIB ?? 1024), partMiB = 64, concurrency = 4, rounds = 2): Promise<UploadBenchResult> {
  const dir = mkdtempSync(join(tmpdir(), 'asset-sync-bench-'));
  const size = sizeMiB * MiB;
  const partSize = partMiB * MiB;
  const source = join(dir, 'source.bin');
  makeFile(source, size);
  const layout: PartToSend[] = Array.from({ length: Math.ceil(size / partSize) }, (_, index) => {
    const range = partRange(size, partSize, index + 1);
    return { partNumber: index + 1, url: '', start: range.start, end: range.end };
  });

  const dataDir = join(dir, 'service');
  const raw = await startChild('bench/support/raw-put-server.ts', [join(dir, 'raw-target.bin')]);
  const service = await startChild('bench/support/cli-entry.ts', ['serve', '--data', dataDir, '--port', '0', '--admin-password', 'bench-password']).catch(async (error: unknown) => {
    await raw.stop();
    throw error;
  });
  let baselineBest = Infinity;
  let serviceBest = Infinity;
  let phases = { jobMs: 0, partsMs: 0, completionMs: 0 };
  try {
    const token = await mintToken({ dataDir, ttlSeconds: 3600 });
    for (let round = 0; round < rounds; round++) {
      let started = performance.now();
      await putParts(source, layout.map((part) => ({ ...part, url: `${raw.url}/?offset=${part.start}` })), concurrency);
      baselineBest = Math.min(baselineBest, performance.now() - started);

      started = performance.now();
      const job = await api(service.url, token, 'POST', '/asset-and-upload-batch-jobs', { items: [{ batchItemId: 'big', path: `/bench-round-${round}.bin`, size, partSize }] });
      let state = job.result;
      while (state.state === 'QUEUED' || state.state === 'RUNNING') {
        await new Promise((resolve) => setTimeout(resolve, 5));
        state = (await api(service.url, token, 'GET', `/asset-and-upload-batch-jobs/${job.result.id}`)).result;
      }
      const { assetId, upload } = state.successes.big;
      const partsStarted = performance.now();
      const etags = await putParts(source, upload.parts.map((part: any) => ({ partNumber: part.partNumber, url: part.url, start: part.byteRange.start, end: part.byteRange.end })), concurrency);
      const parts = [...etags].map(([partNumber, eTag]) => ({ partNumber, eTag }));
      const completionStarted = performance.now();
      const asset = await api(service.url, token, 'POST', '/asset-upload-completions', { assetId, uploadId: upload.uploadId, parts });
      const total = performance.now() - started;
      if (total < serviceBest) {
        serviceBest = total;
        phases = { jobMs: partsStarted - started, partsMs: completionStarted - partsStarted, completionMs: performance.now() - completionStarted };
      }
      if (asset.result.currentAssetFile.size !== size) throw new Error('completed file has the wrong size');
    }
    const rss = await peakRss(service.process.pid);
    const mbps = (ms: number): number => size / MiB / (ms / 1000);
    return { sizeBytes: size, baselineMBps: mbps(baselineBest), serviceMBps: mbps(serviceBest), ratio: baselineBest / serviceBest, serviceRssBytes: rss, phases };
  } finally {
    await Promise.all([raw.stop(), service.stop()]);
    rmSync(dir, { recursive: true, force: true });
  }
}
