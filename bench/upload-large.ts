/**
 * Benchmark: one large multipart upload to the asset service (job → parts → completion, including the
 * whole-file MD5/SHA-256 and the move into the blob store) beside the same bytes in the same parts PUT
 * to a bare Node server that only hashes and writes (bench/support/raw-put-server.ts). Both servers run
 * in their own process; rounds alternate so machine noise hits both. Target: ratio ≥ 0.8.
 *
 * Both sides must write alike. Each round each server writes a new file and the earlier rounds' files
 * stay (the service keeps its blobs): on a VM that hands freed memory back to the host, writing into
 * fresh page-cache pages costs ~1.5 s of CPU per GiB more than reusing pages freed a moment ago, so a
 * baseline that rewrote (or deleted and recreated) one file would skip a cost every real upload pays.
 * The service's answer is checked (every ETag equals the baseline's, checksum and sha256 the source's):
 * a fast wrong answer must not count.
 *
 * BENCH_SIZE_MIB (default 1024) and BENCH_ROUNDS (default 2) size the run; BENCH_NODE_ARGS passes Node
 * flags to both servers (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` to profile them).
 */
import { mkdtempSync, openSync, rmSync, writeSync, closeSync } from 'node:fs';
import { createHash, randomFillSync } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mintToken } from '../src/service/auth/mint-token.js';
import { partRange } from '../src/shared/api/part-layout.js';
import { cpuMs, peakRss, startChild } from './support/processes.js';
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
  /** CPU time (user + system) of each process during the best round of each side, in ms. */
  cpu: { baselineClientMs: number; baselineServerMs: number; serviceClientMs: number; serviceServerMs: number };
}

/** CPU used by the bench process itself (the client) so far, in ms. */
function clientCpuMs(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
}

/** Writes `size` random bytes to `path`; answers their MD5 and SHA-256 hex. */
function makeFile(path: string, size: number): { md5: string; sha256: string } {
  const fd = openSync(path, 'w');
  const chunk = Buffer.allocUnsafe(MiB);
  const md5 = createHash('md5');
  const sha256 = createHash('sha256');
  for (let written = 0; written < size; written += chunk.length) {
    randomFillSync(chunk);
    const bytes = chunk.subarray(0, Math.min(chunk.length, size - written));
    writeSync(fd, bytes);
    md5.update(bytes);
    sha256.update(bytes);
  }
  closeSync(fd);
  return { md5: md5.digest('hex'), sha256: sha256.digest('hex') };
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

export async function benchLargeUpload(sizeMiB = Number(process.env.BENCH_SIZE_MIB ?? 1024), partMiB = 64, concurrency = 4, rounds = Number(process.env.BENCH_ROUNDS ?? 2)): Promise<UploadBenchResult> {
  const dir = mkdtempSync(join(tmpdir(), 'asset-sync-bench-'));
  const size = sizeMiB * MiB;
  const partSize = partMiB * MiB;
  const source = join(dir, 'source.bin');
  const expected = makeFile(source, size);
  const layout: PartToSend[] = Array.from({ length: Math.ceil(size / partSize) }, (_, index) => {
    const range = partRange(size, partSize, index + 1);
    return { partNumber: index + 1, url: '', start: range.start, end: range.end };
  });

  const dataDir = join(dir, 'service');
  const rawTarget = join(dir, 'raw-target.bin');
  const raw = await startChild('bench/support/raw-put-server.ts', [rawTarget]);
  const service = await startChild('bench/support/cli-entry.ts', ['serve', '--data', dataDir, '--port', '0', '--admin-password', 'bench-password']).catch(async (error: unknown) => {
    await raw.stop();
    throw error;
  });
  let baselineBest = Infinity;
  let serviceBest = Infinity;
  let phases = { jobMs: 0, partsMs: 0, completionMs: 0 };
  const cpu = { baselineClientMs: 0, baselineServerMs: 0, serviceClientMs: 0, serviceServerMs: 0 };
  const serverCpu = async (child: { process: { pid?: number | undefined } }): Promise<number> => (await cpuMs(child.process.pid)) ?? 0;
  try {
    const token = await mintToken({ dataDir, ttlSeconds: 3600 });
    for (let round = 0; round < rounds; round++) {
      let clientBefore = clientCpuMs();
      let serverBefore = await serverCpu(raw);
      let started = performance.now();
      const baselineEtags = await putParts(source, layout.map((part) => ({ ...part, url: `${raw.url}/?round=${round}&offset=${part.start}` })), concurrency);
      const baselineMs = performance.now() - started;
      if (baselineMs < baselineBest) {
        baselineBest = baselineMs;
        cpu.baselineClientMs = clientCpuMs() - clientBefore;
        cpu.baselineServerMs = (await serverCpu(raw)) - serverBefore;
      }

      clientBefore = clientCpuMs();
      serverBefore = await serverCpu(service);
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
        cpu.serviceClientMs = clientCpuMs() - clientBefore;
        cpu.serviceServerMs = (await serverCpu(service)) - serverBefore;
      }
      const stored = asset.result.currentAssetFile;
      if (stored.size !== size || stored.checksum !== expected.md5 || stored.sha256 !== expected.sha256) throw new Error(`completed file is wrong: ${JSON.stringify(stored)}`);
      for (const [partNumber, eTag] of etags) if (baselineEtags.get(partNumber) !== eTag) throw new Error(`part ${partNumber}: ETag ${eTag}, the baseline's ${baselineEtags.get(partNumber)}`);
    }
    const rss = await peakRss(service.process.pid);
    const mbps = (ms: number): number => size / MiB / (ms / 1000);
    return { sizeBytes: size, baselineMBps: mbps(baselineBest), serviceMBps: mbps(serviceBest), ratio: baselineBest / serviceBest, serviceRssBytes: rss, phases, cpu };
  } finally {
    await Promise.all([raw.stop(), service.stop()]);
    rmSync(dir, { recursive: true, force: true });
  }
}
