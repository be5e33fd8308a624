/**
 * Runs a range of seeds in several worker processes (`npm run sim -- --jobs N`). Each worker is the CLI
 * again, started with `--worker`, and is handed seeds a chunk at a time, so a worker busy shrinking a
 * failure does not hold back the seeds left for the others. Workers answer one report per seed (its
 * printed lines and what it cost); the lead prints each failing seed's report as it arrives.
 * A worker that dies takes only its chunk down: those seeds are reported failed, naming the exit.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { z } from 'zod';

export interface SeedReport {
  seed: number;
  failed: boolean;
  /** What the CLI prints for the seed: its failures, the replay line, the shrunk trace. */
  lines: string[];
  wallMs: number;
  cpuMs: number;
  /** False for a process's first seed, which also starts its service (left out of the per-seed figures). */
  timed: boolean;
}

const seedReport = z.object({ seed: z.number(), failed: z.boolean(), lines: z.array(z.string()), wallMs: z.number(), cpuMs: z.number(), timed: z.boolean() });
const fromWorker = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('seed'), report: seedReport }),
  z.object({ kind: z.literal('ready') }),
  z.object({ kind: z.literal('done'), cpuMs: z.number() }),
]);
const toWorker = z.union([z.object({ seeds: z.array(z.number().int()) }), z.object({ stop: z.literal(true) })]);

export interface PoolOutcome {
  /** CPU time of the workers, whole processes (starting services and shrinking included). */
  cpuMs: number;
}

/**
 * Runs `seeds` in `jobs` workers forked from `script` with `args` (plus `--worker`), calling `onReport`
 * for each seed as it finishes. Chunks are small enough that every worker gets several.
 */
export async function runPool(options: { script: string; args: readonly string[]; seeds: readonly number[]; jobs: number; onReport: (report: SeedReport) => void }): Promise<PoolOutcome> {
  const { seeds, onReport } = options;
  const chunkSize = Math.max(1, Math.min(25, Math.ceil(seeds.length / (options.jobs * 4))));
  let next = 0;
  const takeChunk = (): number[] => {
    const chunk = seeds.slice(next, next + chunkSize);
    next += chunk.length;
    return chunk;
  };
  let cpuMs = 0;

  const runWorker = (): Promise<void> =>
    new Promise((resolve) => {
      const child: ChildProcess = fork(options.script, [...options.args, '--worker'], { execArgv: process.execArgv, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
      let chunk: number[] = [];
      const pending = new Set<number>();
      const handOut = (): void => {
        chunk = takeChunk();
        for (const seed of chunk) pending.add(seed);
        child.send(chunk.length > 0 ? { seeds: chunk } : { stop: true });
      };
      child.on('message', (raw: unknown) => {
        const parsed = fromWorker.safeParse(raw);
        // Not one of ours: the worker is not what the pool started, and its seeds count as failed.
        if (!parsed.success) {
          child.kill();
          return;
        }
        const message = parsed.data;
        if (message.kind === 'seed') {
          pending.delete(message.report.seed);
          onReport(message.report);
        } else if (message.kind === 'ready') {
          handOut();
        } else {
          cpuMs += message.cpuMs;
        }
      });
      child.on('exit', (code, signal) => {
        for (const seed of pending) {
          onReport({ seed, failed: true, lines: [`\nseed ${String(seed)} FAILED: its worker died (${signal ?? `exit code ${String(code)}`}) before reporting it`], wallMs: 0, cpuMs: 0, timed: false });
        }
        resolve();
      });
    });

  await Promise.all(Array.from({ length: Math.min(options.jobs, Math.max(1, seeds.length)) }, runWorker));
  // Every worker died: what was never handed out is reported, not dropped.
  for (const seed of seeds.slice(next)) onReport({ seed, failed: true, lines: [`\nseed ${String(seed)} FAILED: no worker was left to run it`], wallMs: 0, cpuMs: 0, timed: false });
  return { cpuMs };
}

/** The worker's side: asks for seeds, runs them one by one with `run`, reports each, and stops when told. */
export function serveSeeds(run: (seed: number, first: boolean) => Promise<SeedReport>, close: () => Promise<void>): void {
  const send = (message: z.infer<typeof fromWorker>): void => {
    process.send?.(message);
  };
  let first = true;
  process.on('message', (raw: unknown) => {
    const message = toWorker.parse(raw);
    void (async () => {
      if ('stop' in message) {
        await close();
        const { user, system } = process.cpuUsage();
        send({ kind: 'done', cpuMs: (user + system) / 1000 });
        process.disconnect();
        return;
      }
      for (const seed of message.seeds) {
        send({ kind: 'seed', report: await run(seed, first) });
        first = false;
      }
      send({ kind: 'ready' });
    })();
  });
  send({ kind: 'ready' });
}
