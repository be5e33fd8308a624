/**
 * `npm run sim -- --seeds N [--seed S] [--from F] [--steps K] [--network|--disk|--crash|--commit PERCENT] [--classic] [--plant BUG] [--names exact|case-insensitive|nfd] [--case-folders] [--no-shrink] [--jobs N]`: runs seeds
 * F…F+N-1 (or the one seed S, printing its whole trace), prints each failing seed with a shrunk, readable
 * trace (unless --no-shrink) and how to replay it, and the seeds per second and CPU milliseconds per seed
 * (seeds only: the service's start and the shrinking are counted apart). Exits 1 when a seed failed.
 * `--names MODE` gives every client but the first (a Linux disk) that kind of disk instead of the seed's draw.
 * `--jobs N` runs the seeds in N worker processes (seed-pool.ts): one per free core for long hunts.
 */
import { describeStep } from './scenario.js';
import { DEFAULT_RATES, closeSimService, runSeed, type SeedOptions } from './run-seed.js';
import { shrink } from './shrink.js';
import { runPool, serveSeeds, type SeedReport } from './seed-pool.js';
import { PLANTED_BUGS } from './plants.js';
import type { NameMode } from '../src/main/local/index.js';

function flag(name: string): number | undefined {
  const at = process.argv.indexOf(`--${name}`);
  if (at < 0) return undefined;
  const value = Number(process.argv[at + 1]);
  if (!Number.isSafeInteger(value)) throw new Error(`--${name} needs a whole number`);
  return value;
}

const single = flag('seed');
const from = flag('from') ?? 1;
const count = flag('seeds') ?? 100;
const steps = flag('steps');
const percent = (name: string, fallback: number): number => {
  const value = flag(name);
  return value === undefined ? fallback : value / 100;
};
const rates = { network: percent('network', DEFAULT_RATES.network), disk: percent('disk', DEFAULT_RATES.disk), crash: percent('crash', DEFAULT_RATES.crash), commit: percent('commit', percent('crash', DEFAULT_RATES.crash)) };
const rateFlags = (['network', 'disk', 'crash', 'commit'] as const).map((name) => (flag(name) === undefined ? '' : ` --${name} ${String(flag(name))}`)).join('');
// As seeds ran before event-driven clients, commit crashes and guard steps (to replay a seed found then).
const classic = process.argv.includes('--classic');
// A bug planted in the engine (plants.ts), to replay what plants.test.ts shows.
const plantAt = process.argv.indexOf('--plant');
const plant = plantAt < 0 ? undefined : PLANTED_BUGS.find((bug) => bug === process.argv[plantAt + 1]);
if (plantAt >= 0 && plant === undefined) throw new Error(`--plant needs one of ${PLANTED_BUGS.join(', ')}`);
const NAME_MODES: readonly NameMode[] = ['exact', 'case-insensitive', 'nfd'];
const namesAt = process.argv.indexOf('--names');
const nameMode = namesAt < 0 ? undefined : NAME_MODES.find((mode) => mode === process.argv[namesAt + 1]);
if (namesAt >= 0 && nameMode === undefined) throw new Error(`--names needs one of ${NAME_MODES.join(', ')}`);
// The first client keeps its Linux disk; the others (two by default) get the mode asked for.
const names = nameMode === undefined ? {} : { names: ['exact', nameMode, nameMode] satisfies NameMode[] };
// The case-only folder renames of withFolderSteps, which reach an open bug (scenario.ts).
const caseFolders = process.argv.includes('--case-folders');
const options: SeedOptions = { ...(steps === undefined ? {} : { steps }), rates, classic, caseFolders, ...names, ...(plant === undefined ? {} : { plant }) };
const seeds = single === undefined ? Array.from({ length: count }, (_, index) => from + index) : [single];
const shrinking = !process.argv.includes('--no-shrink');

const jobs = flag('jobs') ?? 1;
if (jobs < 1 || jobs > 256) throw new Error('--jobs needs a number of worker processes from 1 to 256');

const cpuMs = (): number => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

/** Runs one seed and answers what to print for it (its failures, replay line and shrunk trace); the timing leaves the shrinking out. */
async function runOne(seed: number, first: boolean): Promise<SeedReport> {
  const before = { wall: Date.now(), cpu: cpuMs() };
  const result = await runSeed(seed, options);
  const cost = { wallMs: Date.now() - before.wall, cpuMs: cpuMs() - before.cpu, timed: !first || seeds.length === 1 };
  const lines: string[] = single === undefined ? [] : [result.trace.join('\n')];
  if (result.failures.length === 0) {
    if (single !== undefined) lines.push(`seed ${seed}: ok (trace ${result.traceHash.slice(0, 12)})`);
    return { seed, failed: false, lines, ...cost };
  }
  lines.push(`\nseed ${seed} FAILED (trace ${result.traceHash.slice(0, 12)}):`);
  for (const failure of result.failures) lines.push(`  ${failure}`);
  lines.push(`replay: npm run sim -- --seed ${seed}${steps === undefined ? '' : ` --steps ${steps}`}${rateFlags}${classic ? ' --classic' : ''}${caseFolders ? ' --case-folders' : ''}${nameMode === undefined ? '' : ` --names ${nameMode}`}${plant === undefined ? '' : ` --plant ${plant}`}`);
  if (shrinking) {
    const shrunk = await shrink(result, options);
    lines.push(`shrunk to ${shrunk.steps.length} of ${result.steps.length} steps:`);
    for (const step of shrunk.steps) lines.push(`  ${describeStep(step)}`);
    lines.push('its trace:');
    for (const line of shrunk.trace) lines.push(`  ${line}`);
  }
  return { seed, failed: true, lines, ...cost };
}

if (process.argv.includes('--worker')) {
  serveSeeds(runOne, closeSimService);
} else {
  const started = { wall: Date.now(), cpu: cpuMs() };
  /** Time spent running seeds, apart from each process's first (which starts its service) and from shrinking. */
  const inSeeds = { wall: 0, cpu: 0, count: 0 };
  const failedSeeds: number[] = [];
  const onReport = (report: SeedReport): void => {
    for (const line of report.lines) console.log(line);
    if (report.failed) failedSeeds.push(report.seed);
    if (!report.timed) return;
    inSeeds.wall += report.wallMs;
    inSeeds.cpu += report.cpuMs;
    inSeeds.count++;
  };
  let workersCpu = 0;
  if (jobs > 1 && seeds.length > 1) {
    const args = process.argv.slice(2).filter((arg, at, all) => arg !== '--jobs' && all[at - 1] !== '--jobs');
    workersCpu = (await runPool({ script: process.argv[1] ?? 'sim/cli.ts', args, seeds, jobs, onReport })).cpuMs;
  } else {
    for (const [at, seed] of seeds.entries()) onReport(await runOne(seed, at === 0));
    await closeSimService();
  }
  const timed = inSeeds.count;
  const seconds = (Date.now() - started.wall) / 1000;
  console.log(`\n${seeds.length} seeds, ${failedSeeds.length} failed, ${seconds.toFixed(1)} s in all, ${((cpuMs() - started.cpu + workersCpu) / 1000).toFixed(1)} s of CPU${jobs > 1 ? ` (${jobs} workers)` : ''}`);
  // Seeds per second of one process: with workers, the whole run's rate is about that times the free cores.
  if (timed > 0) console.log(`per seed (each process's first, which starts its service, aside): ${(inSeeds.wall / timed).toFixed(0)} ms, ${(inSeeds.cpu / timed).toFixed(0)} ms of CPU; ${((1000 * timed) / Math.max(1, inSeeds.wall)).toFixed(2)} seeds/s a process, ${(seeds.length / Math.max(0.001, seconds)).toFixed(2)} seeds/s in all`);
  if (failedSeeds.length > 0) console.log(`failed: ${failedSeeds.sort((a, b) => a - b).join(' ')}`);
  process.exitCode = failedSeeds.length > 0 ? 1 : 0;
}
