/**
 * `npm run sim -- --seeds N [--seed S] [--from F] [--steps K] [--network|--disk|--crash|--commit PERCENT] [--classic] [--plant BUG] [--names exact|case-insensitive|nfd] [--case-folders] [--no-shrink]`: runs seeds
 * F…F+N-1 (or the one seed S, printing its whole trace), prints each failing seed with a shrunk, readable
 * trace (unless --no-shrink) and how to replay it, and the seeds per second and CPU milliseconds per seed
 * (seeds only: the service's start and the shrinking are counted apart). Exits 1 when a seed failed.
 * `--names MODE` gives every client but the first (a Linux disk) that kind of disk instead of the seed's draw.
 */
import { describeStep } from './scenario.js';
import { DEFAULT_RATES, closeSimService, runSeed, type SeedOptions } from './run-seed.js';
import { shrink } from './shrink.js';
import { PLANTED_BUGS } from '../src/main/sync/planted-bug.js';
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
// A bug planted in the engine (src/main/sync/planted-bug.ts), to replay what sim/plants.test.ts shows.
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

const cpuMs = (): number => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};
const started = { wall: Date.now(), cpu: cpuMs() };
/** Time spent running seeds, apart from shrinking failures. */
const inSeeds = { wall: 0, cpu: 0 };
let failed = 0;
for (const seed of seeds) {
  const before = { wall: Date.now(), cpu: cpuMs() };
  const result = await runSeed(seed, options);
  // The first seed also starts the process's service (started once, then restored per seed).
  if (seed !== seeds[0] || seeds.length === 1) {
    inSeeds.wall += Date.now() - before.wall;
    inSeeds.cpu += cpuMs() - before.cpu;
  }
  if (single !== undefined) console.log(result.trace.join('\n'));
  if (result.failures.length === 0) {
    if (single !== undefined) console.log(`seed ${seed}: ok (trace ${result.traceHash.slice(0, 12)})`);
    continue;
  }
  failed++;
  console.log(`\nseed ${seed} FAILED (trace ${result.traceHash.slice(0, 12)}):`);
  for (const failure of result.failures) console.log(`  ${failure}`);
  console.log(`replay: npm run sim -- --seed ${seed}${steps === undefined ? '' : ` --steps ${steps}`}${rateFlags}${classic ? ' --classic' : ''}${caseFolders ? ' --case-folders' : ''}${nameMode === undefined ? '' : ` --names ${nameMode}`}${plant === undefined ? '' : ` --plant ${plant}`}`);
  if (!shrinking) continue;
  const shrunk = await shrink(result, options);
  console.log(`shrunk to ${shrunk.steps.length} of ${result.steps.length} steps:`);
  for (const step of shrunk.steps) console.log(`  ${describeStep(step)}`);
  console.log('its trace:');
  for (const line of shrunk.trace) console.log(`  ${line}`);
}
await closeSimService();
const timed = seeds.length === 1 ? 1 : seeds.length - 1;
const seconds = (Date.now() - started.wall) / 1000;
console.log(`\n${seeds.length} seeds, ${failed} failed, ${seconds.toFixed(1)} s in all, ${((cpuMs() - started.cpu) / 1000).toFixed(1)} s of CPU`);
console.log(`per seed (the first, which starts the service, aside): ${(inSeeds.wall / timed).toFixed(0)} ms, ${(inSeeds.cpu / timed).toFixed(0)} ms of CPU; ${((1000 * timed) / inSeeds.wall).toFixed(2)} seeds/s`);
process.exitCode = failed > 0 ? 1 : 0;
