/**
 * Benchmark: one large multipart upload to the asset service (job → parts → completion, including the
 * whole-file MD5/SHA-256 and the move into the blob store) beside the same bytes in the same parts PUT
 * to a bare Node server that only hashes and writes (bench/support/raw-put-server.ts). Both servers run
 * in their own process. The order of the sides alternates, each run starts after a pause, and each
 * round starts both sides with nothing received (support/fair-rounds.ts): the baseline's file of the
 * round before is removed, and the service is a new one on an empty data directory. Kept instead, each
 * side would write into ever less used memory (on a VM that hands freed memory back to its host, a
 * fresh page-cache page costs more the longer ago that memory was last used), so the figures drifted
 * up round after round in favour of whichever side ran first.
 * The service's answer is checked (every ETag equals the baseline's, checksum and sha256 the source's):
 * a fast wrong answer must not count.
 *
 * BENCH_SIZE_MIB (default 1024) and BENCH_ROUNDS (default 4) size the run; BENCH_NODE_ARGS passes Node
 * flags to both servers (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` to profile them).
 */
import { mkdtempSync, openSync, rmSync, writeSync, closeSync } from 'node:fs';
import { createHash, randomFillSync } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { partRange } from '../src/shared/api/part-layout.js';
import { cpuMs, peakRss, startChild } from './support/processes.js';
import { alternatingRounds } from './support/fair-rounds.js';
import { putParts, type PartToSend } from './support/put-parts.js';
import { startServiceChild, type ServiceChild } from './support/service-child.js';

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

export async function benchLargeUpload(sizeMiB = Number(process.env.BENCH_SIZE_MIB ?? 1024), partMiB = 64, concurrency = 4, rounds = Number(process.env.BENCH_ROUNDS ?? 4)): Promise<UploadBenchResult> {
  const dir = mkdtempSync(join(tmpdir(), 'asset-sync-bench-'));
  const size = sizeMiB * MiB;
  const partSize = partMiB * MiB;
  const source = join(dir, 'source.bin');
  const expected = makeFile(source, size);
  const layout: PartToSend[] = Array.from({ length: Math.ceil(size / partSize) }, (_, index) => {
    const range = partRange(size, partSize, index + 1);
    return { partNumber: index + 1, url: '', start: range.start, end: range.end };
  });

  const rawTarget = join(dir, 'raw-target.bin');
  const raw = await startChild('bench/support/raw-put-server.ts', [rawTarget]);
  let service: ServiceChild | undefined;
  let serviceRssBytes: number | undefined;
  let baselineBest = Infinity;
  let serviceBest = Infinity;
  let phases = { jobMs: 0, partsMs: 0, completionMs: 0 };
  const cpu = { baselineClientMs: 0, baselineServerMs: 0, serviceClientMs: 0, serviceServerMs: 0 };
  const serverCpu = async (child: { process: { pid?: number | undefined } }): Promise<number> => (await cpuMs(child.process.pid)) ?? 0;
  const baselineEtags = new Map<number, Map<number, string>>();
  try {
    await alternatingRounds(rounds, {
      baseline: async (round) => {
        const clientBefore = clientCpuMs();
        const serverBefore = await serverCpu(raw);
        const started = performance.now();
        baselineEtags.set(round, await putParts(source, layout.map((part) => ({ ...part, url: `${raw.url}/?round=${round}&offset=${part.start}` })), concurrency));
        const baselineMs = performance.now() - started;
        if (baselineMs < baselineBest) {
          baselineBest = baselineMs;
          cpu.baselineClientMs = clientCpuMs() - clientBefore;
          cpu.baselineServerMs = (await serverCpu(raw)) - serverBefore;
        }
        rmSync(`${rawTarget}.${round}`, { force: true });
      },
      ours: async (round) => {
        if (service !== undefined) {
          const old = service;
          service = undefined;
          serviceRssBytes = Math.max(serviceRssBytes ?? 0, (await peakRss(old.child.process.pid)) ?? 0);
          await old.child.stop();
          rmSync(old.dataDir, { recursive: true, force: true });
        }
        const current = await startServiceChild(dir, `service-${round}`);
        service = current;
        const { child, token } = current;
        const clientBefore = clientCpuMs();
        const serverBefore = await serverCpu(child);
        const started = performance.now();
        const job = await api(child.url, token, 'POST', '/asset-and-upload-batch-jobs', { items: [{ batchItemId: 'big', path: `/bench-round-${round}.bin`, size, partSize }] });
        let state = job.result;
        while (state.state === 'QUEUED' || state.state === 'RUNNING') {
          await new Promise((resolve) => setTimeout(resolve, 5));
          state = (await api(child.url, token, 'GET', `/asset-and-upload-batch-jobs/${job.result.id}`)).result;
        }
        const { assetId, upload } = state.successes.big;
        const partsStarted = performance.now();
        const etags = await putParts(source, upload.parts.map((part: any) => ({ partNumber: part.partNumber, url: part.url, start: part.byteRange.start, end: part.byteRange.end })), concurrency);
        const parts = [...etags].map(([partNumber, eTag]) => ({ partNumber, eTag }));
        const completionStarted = performance.now();
        const asset = await api(child.url, token, 'POST', '/asset-upload-completions', { assetId, uploadId: upload.uploadId, parts });
        const total = performance.now() - started;
        if (total < serviceBest) {
          serviceBest = total;
          phases = { jobMs: partsStarted - started, partsMs: completionStarted - partsStarted, completionMs: performance.now() - completionStarted };
          cpu.serviceClientMs = clientCpuMs() - clientBefore;
          cpu.serviceServerMs = (await serverCpu(child)) - serverBefore;
        }
        const stored = asset.result.currentAssetFile;
        if (stored.size !== size || stored.checksum !== expected.md5 || stored.sha256 !== expected.sha256) throw new Error(`completed file is wrong: ${JSON.stringify(stored)}`);
        // The baseline of round 0 ran first; its ETags are each part's MD5.
        const reference = baselineEtags.get(0);
        for (const [partNumber, eTag] of etags) if (reference !== undefined && reference.get(partNumber) !== eTag) throw new Error(`part ${partNumber}: ETag ${eTag}, the baseline's ${reference.get(partNumber)}`);
      },
    });
    if (service !== undefined) serviceRssBytes = Math.max(serviceRssBytes ?? 0, (await peakRss(service.child.process.pid)) ?? 0);
    const mbps = (ms: number): number => size / MiB / (ms / 1000);
    return { sizeBytes: size, baselineMBps: mbps(baselineBest), serviceMBps: mbps(serviceBest), ratio: baselineBest / serviceBest, serviceRssBytes, phases, cpu };
  } finally {
    await Promise.all([raw.stop(), service?.child.stop()]);
    rmSync(dir, { recursive: true, force: true });
  }
}
