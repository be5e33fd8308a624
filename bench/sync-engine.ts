/**
 * Benchmarks: an initial sync through the engine (`createEngine` in this process, the asset service in
 * its own, on 127.0.0.1), beside a raw loopback baseline for the same bytes in the same run.
 *   (a) 10,000 small files (4 KiB): the baseline PUTs each file, read from disk, over one keep-alive
 *       agent to a bare server that hashes and writes (and syncs) each one (raw-put-server.ts, one file per PUT).
 *       Target: engine files/s ≥ 0.8 × baseline.
 *   (b) one 1 GiB file: the baseline PUTs the engine's own part layout (16 MiB parts, 8 in flight) to
 *       a bare server that hashes and writes at offsets (raw-put-server.ts). Target ≥ 0.95.
 * The engine's figure is the whole of `syncOnce` on a fresh state dir: scan and hash, folder lookups,
 * asset-and-upload jobs, parts, completions and the state database. Each side's best round counts;
 * the order of the sides alternates and each run starts after a pause (support/fair-rounds.ts). Run
 * alone: `node --import tsx bench/sync-engine.ts [small|large]`.
 *
 * What each round starts from matters as much as the order, on a VM that hands memory freed for about
 * 2 s back to its host and an ext4 without a journal that skips inodes freed in the last minutes:
 * - SMALL FILES: both sides keep what they received until the bench ends (deleting 10,000 files makes
 *   every file created for minutes after cost several times more, on whichever side comes next). The
 *   files get new bytes before each round, so the service stores every round's files as new blobs; with
 *   the same bytes again it would only find them stored already, a different (dedup) path.
 * - ONE LARGE FILE (FRESH ROUNDS): a round's 1 GiB is removed after it (the baseline's file; the
 *   service, with its whole data directory, replaced by a new one before the engine's next round).
 *   Kept instead, each side writes into ever less used memory: a fresh page-cache page costs more the
 *   longer ago the memory was last used (1 GiB measured 0.23 s of system CPU right after a delete,
 *   0.9 s three seconds later, up to 3 s into memory never used), so both sides' figures drifted up
 *   round after round, in favour of whichever side ran first.
 */
import { randomFillSync } from 'node:crypto';
import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createApiClient, staticTokenProvider } from '../src/main/api/index.js';
import { createEngine } from '../src/main/engine/index.js';
import { NodeFileSystem, systemClock } from '../src/main/local/index.js';
import { defaultPartSize, partRange } from '../src/shared/api/part-layout.js';
import { measuredRun as measured, startChild, type Child, type MeasuredRun } from './support/processes.js';
import { alternatingRounds } from './support/fair-rounds.js';
import { noisePng } from './support/noise-png.js';
import { profiledWhenAsked } from './support/cpu-profile.js';
import { putParts } from './support/put-parts.js';
import { startServiceChild, type ServiceChild } from './support/service-child.js';
import { InlineCalls } from '../src/main/disk/inline-calls.js';

const MiB = 1024 * 1024;
/** The engine's default part and file concurrency; the baselines use the same. */
const IN_FLIGHT = 8;

/** Wall time, and CPU (user + system) of this process and of the server process during the run, ms. */
export type SyncRun = MeasuredRun;

export interface SyncBenchResult {
  files: number;
  bytes: number;
  baseline: SyncRun;
  engine: SyncRun;
  /** Engine throughput / baseline throughput (higher is better). */
  ratio: number;
  /** The engine's passes in its best round: what each did and when it ended (ms from the start). */
  passes: { atMs: number; uploaded: number; settling: number }[];
}

/** PUTs each file whole over one keep-alive agent, `IN_FLIGHT` at a time. */
async function putFiles(base: string, paths: string[]): Promise<void> {
  const agent = new Agent({ keepAlive: true, maxSockets: IN_FLIGHT });
  const queue = [...paths];
  const putOne = async (path: string): Promise<void> => {
    const body = await readFile(path);
    await new Promise<void>((resolve, reject) => {
      const outgoing = request(`${base}/`, { method: 'PUT', agent, headers: { 'content-length': body.length, 'content-type': 'application/octet-stream' } }, (response) => {
        response.resume();
        response.on('end', () => (response.statusCode === 200 ? resolve() : reject(new Error(`HTTP ${response.statusCode}`))));
      });
      outgoing.on('error', reject);
      outgoing.end(body);
    });
  };
  const worker = async (): Promise<void> => {
    for (let path = queue.shift(); path !== undefined; path = queue.shift()) await putOne(path);
  };
  try {
    await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  } finally {
    agent.destroy();
  }
}

/**
 * One initial sync of `folder` on a fresh state dir into a new remote folder; throws unless it
 * converged with `files` synced. `passes` gets what each pass did and when it ended.
 */
export async function engineSync(service: Child, token: string, folder: string, files: number, passes: SyncBenchResult['passes']): Promise<SyncRun> {
  const stateDir = mkdtempSync(join(tmpdir(), 'asset-sync-bench-state-'));
  // Wired as `asset-sync sync` wires it: one budget of event-loop time for the scan's and the uploads' file calls.
  const inline = new InlineCalls();
  const api = createApiClient({ server: service.url, tokens: staticTokenProvider(token), inline });
  const engine = createEngine({ stateDir, server: service.url, stableMs: 0 }, { api, fs: new NodeFileSystem({ inline }), clock: systemClock });
  try {
    // A new remote folder each round, so every round uploads everything.
    await engine.addRoot({ path: folder, remotePath: `/bench-${Date.now()}`, publishLive: false });
    let started = 0;
    passes.length = 0;
    const run = await measured(service, async () => {
      started = performance.now();
      const result = await engine.syncOnce({
        onReport: (report) => passes.push({ atMs: performance.now() - started, uploaded: report.uploaded, settling: report.settling }),
      });
      const synced = engine.roots().reduce((count, row) => count + engine.store.synced(row.id).size, 0);
      if (!result.converged || synced !== files) throw new Error(`the engine did not converge (${synced} of ${files} synced): ${JSON.stringify(result.reports.at(-1))}`);
    });
    return run;
  } finally {
    engine.close();
    api.close();
    rmSync(join(folder, '.asset-sync'), { recursive: true, force: true });
    rmSync(stateDir, { recursive: true, force: true });
  }
}

interface CompareOptions {
  files: number;
  bytes: number;
  rounds: number;
  folder: string;
  baselineServer: [string, string[]];
  /** Prepares a round before either side runs (e.g. new bytes in the folder). */
  beforeRound?: (round: number) => void;
  baseline: (raw: Child, round: number) => Promise<void>;
  /**
   * When set, each round starts both sides with nothing received (FRESH ROUNDS above): this removes
   * what the baseline received, and the engine's round gets a new service on an empty data directory.
   */
  discardBaseline?: (round: number) => void;
}

async function compare(options: CompareOptions): Promise<SyncBenchResult> {
  const dir = mkdtempSync(join(tmpdir(), 'asset-sync-bench-sync-'));
  const raw = await startChild(...options.baselineServer);
  let service: ServiceChild | undefined;
  try {
    service = await startServiceChild(dir, 'service-0');
    let baseline: SyncRun | undefined;
    let engine: SyncRun | undefined;
    let bestPasses: SyncBenchResult['passes'] = [];
    await alternatingRounds(options.rounds, {
      ...(options.beforeRound === undefined ? {} : { beforeRound: options.beforeRound }),
      baseline: async (round) => {
        const run = await measured(raw, () => options.baseline(raw, round));
        if (baseline === undefined || run.ms < baseline.ms) baseline = run;
        options.discardBaseline?.(round);
      },
      ours: async (round) => {
        if (options.discardBaseline !== undefined && round > 0 && service !== undefined) {
          const old = service;
          service = undefined;
          await old.child.stop();
          rmSync(old.dataDir, { recursive: true, force: true });
          service = await startServiceChild(dir, `service-${round}`);
        }
        if (service === undefined) throw new Error('no service');
        const passes: SyncBenchResult['passes'] = [];
        const { child, token } = service;
        const run = await profiledWhenAsked(`sync-engine-${round}`, () => engineSync(child, token, options.folder, options.files, passes));
        if (engine === undefined || run.ms < engine.ms) {
          engine = run;
          bestPasses = [...passes];
        }
      },
    });
    if (baseline === undefined || engine === undefined) throw new Error('no rounds');
    return { files: options.files, bytes: options.bytes, baseline, engine, ratio: baseline.ms / engine.ms, passes: bestPasses };
  } finally {
    await Promise.all([raw.stop(), service?.child.stop()]);
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Writes `count` PNGs of `size` bytes, their pixels noise, into 100 subfolders of `folder`
 * (image-N.png in folder-(N mod 100)); returns their paths. Real images, as a designer's folder holds:
 * the service reads each one's header (its dimensions) and serves it as its own preview, where random
 * bytes under a .png name would cost a failed render each.
 */
export function writeSmallFiles(folder: string, count: number, size: number): string[] {
  const paths: string[] = [];
  for (let index = 0; index < count; index++) {
    const sub = join(folder, `folder-${index % 100}`);
    if (index < 100) mkdirSync(sub);
    const path = join(sub, `image-${index}.png`);
    writeFileSync(path, noisePng(size));
    paths.push(path);
  }
  return paths;
}

/** New pixels in the same files: no inode freed or made (see SMALL FILES above). */
export function renewSmallFiles(paths: readonly string[], size: number): void {
  for (const path of paths) writeFileSync(path, noisePng(size));
}

/** (a) 10,000 files of 4 KiB in 100 folders. */
export async function benchSyncSmallFiles(count = Number(process.env.BENCH_SYNC_FILES ?? 10_000), size = 4096, rounds = Number(process.env.BENCH_ROUNDS ?? 4)): Promise<SyncBenchResult> {
  const folder = mkdtempSync(join(tmpdir(), 'asset-sync-bench-small-'));
  const sink = mkdtempSync(join(tmpdir(), 'asset-sync-bench-sink-'));
  try {
    const paths = writeSmallFiles(folder, count, size);
    return await compare({
      files: count,
      bytes: count * size,
      rounds,
      folder,
      baselineServer: ['bench/support/raw-put-server.ts', [`${sink}/`]],
      beforeRound: (round) => {
        if (round > 0) renewSmallFiles(paths, size);
      },
      // New file names each round (the server counts), kept until the end (see SMALL FILES above).
      baseline: (raw) => putFiles(raw.url, paths),
    });
  } finally {
    rmSync(folder, { recursive: true, force: true });
    rmSync(sink, { recursive: true, force: true });
  }
}

/** (b) One file of 1 GiB. */
export async function benchSyncLargeFile(sizeMiB = Number(process.env.BENCH_SIZE_MIB ?? 1024), rounds = Number(process.env.BENCH_ROUNDS ?? 4)): Promise<SyncBenchResult> {
  const folder = mkdtempSync(join(tmpdir(), 'asset-sync-bench-large-'));
  const sink = mkdtempSync(join(tmpdir(), 'asset-sync-bench-sink-'));
  try {
    const size = sizeMiB * MiB;
    const source = join(folder, 'video.bin');
    const fd = openSync(source, 'w');
    const chunk = Buffer.allocUnsafe(MiB);
    for (let written = 0; written < size; written += chunk.length) {
      randomFillSync(chunk);
      writeSync(fd, chunk, 0, Math.min(chunk.length, size - written));
    }
    closeSync(fd);
    const partSize = defaultPartSize(size);
    const target = join(sink, 'target.bin');
    return await compare({
      files: 1,
      bytes: size,
      rounds,
      folder,
      baselineServer: ['bench/support/raw-put-server.ts', [target]],
      baseline: async (raw, round) => {
        // A new target file each round, as each engine round makes a new upload file; removed after
        // the round (see FRESH ROUNDS above).
        const parts = Array.from({ length: Math.ceil(size / partSize) }, (_, index) => {
          const range = partRange(size, partSize, index + 1);
          return { partNumber: index + 1, url: `${raw.url}/?offset=${range.start}&round=${round}`, start: range.start, end: range.end };
        });
        await putParts(source, parts, IN_FLIGHT);
      },
      discardBaseline: (round) => rmSync(`${target}.${round}`, { force: true }),
    });
  } finally {
    rmSync(folder, { recursive: true, force: true });
    rmSync(sink, { recursive: true, force: true });
  }
}

export function formatSyncBench(what: string, result: SyncBenchResult, target: number): string[] {
  const perSecond = (run: SyncRun): string =>
    result.files > 1 ? `${(result.files / (run.ms / 1000)).toFixed(0)} files/s` : `${(result.bytes / MiB / (run.ms / 1000)).toFixed(0)} MB/s`;
  const cpu = (run: SyncRun): string => `CPU ${(run.clientCpuMs / 1000).toFixed(1)} s client (${(run.clientMainCpuMs / 1000).toFixed(1)} s its main thread) + ${(run.serverCpuMs / 1000).toFixed(1)} s server`;
  const passes = result.passes.map((pass) => `${pass.atMs.toFixed(0)} ms${pass.settling > 0 ? ` (${pass.settling} settling)` : ''}${pass.uploaded > 0 ? ` (${pass.uploaded} uploaded)` : ''}`);
  return [
    what,
    `  baseline (raw loopback PUTs, bare server):  ${(result.baseline.ms / 1000).toFixed(2)} s, ${perSecond(result.baseline)}; ${cpu(result.baseline)}`,
    `  engine (createEngine → syncOnce):           ${(result.engine.ms / 1000).toFixed(2)} s, ${perSecond(result.engine)}; ${cpu(result.engine)}`,
    `  ratio ${result.ratio.toFixed(2)} (target ≥ ${target.toFixed(2)})${result.ratio >= target ? '' : '  BELOW TARGET'}`,
    `  engine passes ended at: ${passes.join(', ')}`,
  ];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const which = process.argv[2] ?? 'all';
  if (which !== 'large') for (const line of formatSyncBench(`${process.env.BENCH_SYNC_FILES ?? 10_000} files of 4 KiB, initial sync`, await benchSyncSmallFiles(), 0.5)) process.stdout.write(`${line}\n`);
  if (which !== 'small') for (const line of formatSyncBench('one 1 GiB file, initial sync', await benchSyncLargeFile(), 0.8)) process.stdout.write(`${line}\n`);
}
