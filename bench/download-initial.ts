/**
 * Benchmark: the initial download of 10,000 small files (1–32 KiB, in 100 folders) by the sync engine
 * (`syncOnce` on an empty folder: full listing, folder tree, download jobs, signed GETs, MD5 check,
 * fsync, rename, state database) beside a raw loopback baseline: the same bytes GET from a bare Node
 * server with the same 8 in flight, each written to a temp file, fsynced and renamed into place (the
 * least a downloader that never leaves a partial file may do). Both servers run in their own process;
 * each side's best of 4 rounds counts, the order alternating and each run after a pause
 * (support/fair-rounds.ts: this machine is noisy, and the order alone moves its figures). Target: ratio ≥ 0.9.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { open, rename } from 'node:fs/promises';
import { Agent, get } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createApiClient, staticTokenProvider } from '../src/main/api/index.js';
import { createEngine } from '../src/main/engine/index.js';
import { NodeFileSystem, systemClock } from '../src/main/local/index.js';
import { mintToken } from '../src/service/auth/mint-token.js';
import { profiledWhenAsked } from './support/cpu-profile.js';
import { alternatingRounds } from './support/fair-rounds.js';
import { measuredRun, startChild, type MeasuredRun } from './support/processes.js';
import { seedServiceFiles } from './support/seed-service-files.js';

const IN_FLIGHT = 8;

export interface InitialDownloadResult {
  files: number;
  bytes: number;
  /** Each side's best round, with the CPU of this process (the client) and of its server in it. */
  baseline: MeasuredRun;
  engine: MeasuredRun;
  ratio: number;
}

/** GET every file from the raw server with IN_FLIGHT at a time: temp file, fsync, rename. */
async function baselineRound(url: string, count: number, target: string): Promise<void> {
  const agent = new Agent({ keepAlive: true, maxSockets: IN_FLIGHT });
  for (let folder = 0; folder < 100; folder++) mkdirSync(join(target, `Folder ${String(folder).padStart(3, '0')}`), { recursive: true });
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < count) {
      const index = next++;
      const final = join(target, `Folder ${String(index % 100).padStart(3, '0')}`, `file ${String(index).padStart(5, '0')}.bin`);
      const temp = join(target, `.${index}.part`);
      await new Promise<void>((resolve, reject) => {
        get(`${url}/${index}`, { agent }, (response) => {
          void (async () => {
            // `flush`: fsync before the stream closes, as the engine does before its rename.
            const handle = await open(temp, 'w');
            await pipeline(response, handle.createWriteStream({ flush: true }));
            await rename(temp, final);
          })().then(resolve, reject);
        }).on('error', reject);
      });
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  agent.destroy();
}

async function engineRound(server: string, token: string, folder: string, stateDir: string, count: number): Promise<void> {
  const api = createApiClient({ server, tokens: staticTokenProvider(token) });
  const engine = createEngine({ stateDir, server, limits: { filesInFlight: IN_FLIGHT } }, { api, fs: new NodeFileSystem(), clock: systemClock });
  try {
    await engine.addRoot({ path: folder, remotePath: '/', publishLive: false });
    const result = await engine.syncOnce();
    const downloaded = result.reports.reduce((sum, report) => sum + report.downloaded, 0);
    if (!result.converged || downloaded !== count) throw new Error(`the engine downloaded ${downloaded} of ${count} files (converged: ${result.converged})`);
  } finally {
    engine.close();
    api.close();
  }
}

export async function benchInitialDownload(count = Number(process.env.BENCH_FILES ?? 10_000), rounds = Number(process.env.BENCH_ROUNDS ?? 4)): Promise<InitialDownloadResult> {
  const dir = mkdtempSync(join(tmpdir(), 'asset-sync-bench-dl-'));
  const dataDir = join(dir, 'service');
  const service = await startChild('bench/support/cli-entry.ts', ['serve', '--data', dataDir, '--port', '0', '--admin-password', 'bench-password']);
  let raw: Awaited<ReturnType<typeof startChild>> | undefined;
  try {
    const seeded = await seedServiceFiles(dataDir, join(dir, 'raw'), count, 100);
    // Write the seeded bytes back now, so that neither side pays for the other's dirty pages.
    execFileSync('sync');
    const rawServer = await startChild('bench/support/raw-get-server.ts', [join(dir, 'raw')]);
    raw = rawServer;
    const token = await mintToken({ dataDir, ttlSeconds: 3600 });
    let baseline: MeasuredRun | undefined;
    let engine: MeasuredRun | undefined;
    // Each round's files stay until the end, on both sides: deleting 10,000 files just before the
    // other side creates its own would make it pay for them (ext4 without a journal skips inodes freed
    // in the last minute or more, scanning past each one on every create). Each run starts with
    // nothing left to write back from the other (fsync waits for that too).
    await alternatingRounds(rounds, {
      baseline: async (round) => {
        execFileSync('sync');
        const run = await measuredRun(rawServer, () => baselineRound(rawServer.url, count, join(dir, `baseline-${round}`)));
        if (baseline === undefined || run.ms < baseline.ms) baseline = run;
      },
      ours: async (round) => {
        const folder = join(dir, `engine-${round}`);
        mkdirSync(folder);
        execFileSync('sync');
        const run = await profiledWhenAsked(`download-engine-${round}`, () => measuredRun(service, () => engineRound(service.url, token, folder, join(dir, `state-${round}`), count)));
        if (engine === undefined || run.ms < engine.ms) engine = run;
      },
    });
    if (baseline === undefined || engine === undefined) throw new Error('no rounds');
    return { files: seeded.count, bytes: seeded.bytes, baseline, engine, ratio: baseline.ms / engine.ms };
  } finally {
    await Promise.all([service.stop(), raw?.stop()]);
    rmSync(dir, { recursive: true, force: true });
  }
}

export function formatInitialDownloadBench(r: InitialDownloadResult): string[] {
  const rate = (ms: number): string => `${(r.files / (ms / 1000)).toFixed(0)} files/s, ${(r.bytes / 1024 / 1024 / (ms / 1000)).toFixed(1)} MB/s`;
  const cpu = (run: MeasuredRun): string => `CPU ${(run.clientCpuMs / 1000).toFixed(1)} s client (${(run.clientMainCpuMs / 1000).toFixed(1)} s its main thread) + ${(run.serverCpuMs / 1000).toFixed(1)} s server`;
  return [
    `${r.files} files (${(r.bytes / 1024 / 1024).toFixed(0)} MB, 1–32 KiB, 100 folders), ${IN_FLIGHT} in flight, initial download into an empty folder`,
    `  baseline (bare GET server; temp file, fsync, rename): ${(r.baseline.ms / 1000).toFixed(1)} s (${rate(r.baseline.ms)}); ${cpu(r.baseline)}`,
    `  sync engine (listing, jobs, GET, MD5, fsync, rename, state): ${(r.engine.ms / 1000).toFixed(1)} s (${rate(r.engine.ms)}); ${cpu(r.engine)}`,
    `  ratio ${r.ratio.toFixed(2)} (target ≥ 0.90)${r.ratio >= 0.9 ? '' : '  BELOW TARGET'}`,
  ];
}
