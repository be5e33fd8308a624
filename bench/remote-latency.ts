/**
 * Benchmark: how long a change made in the service (a colleague uploading a file in the web app) takes
 * to appear on disk while `asset-sync sync` watches, and what the waiting costs: requests per minute
 * to the service while nothing changes. Measured following the service's change feed [ours], and
 * polling (as against a service without the feed, such as the hosted one) at the default interval and
 * a shorter one, so the trade-off is visible. The service runs in its own process; the engine runs
 * here, in watch mode.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApiClient, staticTokenProvider, type AssetApi } from '../src/main/api/index.js';
import { createEngine } from '../src/main/engine/index.js';
import { NodeFileSystem, systemClock } from '../src/main/local/index.js';
import { DEFAULT_POLL_MS } from '../src/main/remote/remote-feed.js';
import { mintToken } from '../src/service/auth/mint-token.js';
import { startChild } from './support/processes.js';

export interface LatencyRun {
  /** Following the change feed, or polling every pollIntervalMs. */
  mode: 'feed' | 'poll';
  pollIntervalMs: number;
  samples: number[];
  p50Ms: number;
  p95Ms: number;
  idleRequestsPerMinute: number;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
const percentile = (values: number[], p: number): number => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((p / 100) * values.length))] ?? NaN;

async function call(base: string, token: string, method: string, path: string, body?: unknown): Promise<any> {
  const response = await fetch(`${base}${path}`, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: body === undefined ? null : JSON.stringify(body) });
  const json = (await response.json()) as any;
  if (response.status !== 200) throw new Error(`${method} ${path}: ${JSON.stringify(json)}`);
  return json;
}

/** What a colleague's upload in the web app does: asset-and-upload job, the part, the completion. */
async function colleagueUpload(base: string, token: string, path: string, content: string): Promise<void> {
  const bytes = Buffer.from(content);
  const job = await call(base, token, 'POST', '/asset-and-upload-batch-jobs', { items: [{ batchItemId: 'one', path, size: bytes.length }] });
  let state = job.result;
  while (state.state === 'QUEUED' || state.state === 'RUNNING') {
    await sleep(5);
    state = (await call(base, token, 'GET', `/asset-and-upload-batch-jobs/${job.result.id}`)).result;
  }
  const { assetId, upload } = state.successes.one;
  const part = upload.parts[0];
  const put = await fetch(part.url, { method: 'PUT', body: bytes });
  await call(base, token, 'POST', '/asset-upload-completions', { assetId, uploadId: upload.uploadId, parts: [{ partNumber: 1, eTag: put.headers.get('etag') ?? '' }] });
}

/** Counts the engine's calls to the service (one call is one request, except multi-page listings). */
function counting(api: AssetApi): { api: AssetApi; count: () => number } {
  let calls = 0;
  const wrapped = new Proxy(api, {
    get(target, key, receiver) {
      const value: unknown = Reflect.get(target, key, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        calls++;
        return (value as (...rest: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { api: wrapped, count: () => calls };
}

/** The client as it sees a service without the change feed (the hosted one): it polls. */
function withoutFeed(api: AssetApi): AssetApi {
  return new Proxy(api, { get: (target, key, receiver) => (key === 'serviceFeatures' ? async () => ({}) : Reflect.get(target, key, receiver)) });
}

async function measure(base: string, token: string, dir: string, mode: 'feed' | 'poll', pollIntervalMs: number, samples: number, idleMs: number): Promise<LatencyRun> {
  const name = mode === 'feed' ? 'feed' : `poll ${pollIntervalMs}`;
  const folder = join(dir, `root-${name}`);
  mkdirSync(folder);
  const client = createApiClient({ server: base, tokens: staticTokenProvider(token) });
  const { api, count } = counting(mode === 'feed' ? client : withoutFeed(client));
  const engine = createEngine({ stateDir: join(dir, `state-${name}`), server: base, remote: { pollIntervalMs } }, { api, fs: new NodeFileSystem(), clock: systemClock });
  const remotePath = `/Latency ${name}`;
  await engine.addRoot({ path: folder, remotePath, publishLive: false });
  const controller = new AbortController();
  const watching = engine.watch(controller.signal);
  try {
    // The first listing, and with the feed its discovery and first catch-up, are not idle.
    await sleep(3000);
    const before = count();
    await sleep(idleMs);
    const idleRequestsPerMinute = ((count() - before) / idleMs) * 60_000;
    const latencies: number[] = [];
    for (let index = 0; index < samples; index++) {
      // A change lands anywhere in the poll cycle (with the feed: at a random moment too).
      await sleep(Math.random() * (mode === 'feed' ? 2000 : pollIntervalMs));
      const name = `change ${index}.txt`;
      await colleagueUpload(base, token, `${remotePath}/${name}`, `change ${index}`);
      const started = performance.now();
      while (!existsSync(join(folder, name))) {
        if (performance.now() - started > pollIntervalMs * 3 + 30_000) throw new Error(`${name} never arrived`);
        await sleep(5);
      }
      latencies.push(performance.now() - started);
    }
    return { mode, pollIntervalMs, samples: latencies, p50Ms: percentile(latencies, 50), p95Ms: percentile(latencies, 95), idleRequestsPerMinute };
  } finally {
    controller.abort();
    await watching;
    engine.close();
    client.close();
  }
}

export async function benchRemoteLatency(
  samples = Number(process.env.BENCH_LATENCY_SAMPLES ?? 12),
  idleMs = Number(process.env.BENCH_IDLE_MS ?? 30_000),
  // Long enough to see the feed's own cost: one stream, renewed every 15 minutes at most.
  feedIdleMs = Number(process.env.BENCH_FEED_IDLE_MS ?? 120_000),
): Promise<LatencyRun[]> {
  const dir = mkdtempSync(join(tmpdir(), 'asset-sync-bench-latency-'));
  const dataDir = join(dir, 'service');
  const service = await startChild('bench/support/cli-entry.ts', ['serve', '--data', dataDir, '--port', '0', '--admin-password', 'bench-password']);
  try {
    const token = await mintToken({ dataDir, ttlSeconds: 3600 });
    const runs: LatencyRun[] = [];
    runs.push(await measure(service.url, token, dir, 'feed', DEFAULT_POLL_MS, samples, feedIdleMs));
    for (const interval of [DEFAULT_POLL_MS, 2_000]) runs.push(await measure(service.url, token, dir, 'poll', interval, samples, idleMs));
    return runs;
  } finally {
    await service.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

export function formatRemoteLatencyBench(runs: LatencyRun[]): string[] {
  return [
    `a file uploaded in the service, until it is on disk (sync watching; ${runs[0]?.samples.length ?? 0} changes at random points of the poll cycle)`,
    ...runs.map((run) => {
      const how = run.mode === 'feed' ? 'change feed [ours]  ' : `poll every ${(run.pollIntervalMs / 1000).toFixed(0)} s${run.pollIntervalMs === DEFAULT_POLL_MS ? ' (default)' : '    '}`;
      const target = run.mode === 'feed' && (run.p50Ms >= 1000 || run.idleRequestsPerMinute > 1) ? '  BELOW TARGET (p50 < 1 s, ≤ 1 idle request/min)' : '';
      return `  ${how}: p50 ${(run.p50Ms / 1000).toFixed(2)} s, p95 ${(run.p95Ms / 1000).toFixed(2)} s; idle cost ${run.idleRequestsPerMinute.toFixed(1)} requests/min${target}`;
    }),
    '  (idle cost leaves out the full listing every 10 min, the same for both: about 2 requests per root)',
  ];
}
