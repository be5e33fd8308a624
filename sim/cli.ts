/**
 * `npm run sim -- --seeds N [--seed S] [--from F] [--steps K] [--network|--disk|--crash|--commit PERCENT] [--classic]`: runs seeds F…F+N-1 (or the one seed S,
 * printing its whole trace), prints each failing seed with a shrunk, readable trace and how to replay
 * it, and the seeds per second. Exits 1 when a seed failed.
 */
import { describeStep } from './scenario.js';
import { DEFAULT_RATES, closeSimService, runSeed, type SeedOptions } from './run-seed.js';
import { shrink } from './shrink.js';

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
const options: SeedOptions = { ...(steps === undefined ? {} : { steps }), rates, classic };
const seeds = single === undefined ? Array.from({ length: count }, (_, index) => from + index) : [single];

const started = Date.now();
let failed = 0;
for (const seed of seeds) {
  const result = await runSeed(seed, options);
  if (single !== undefined) console.log(result.trace.join('\n'));
  if (result.failures.length === 0) {
    if (single !== undefined) console.log(`seed ${seed}: ok (trace ${result.traceHash.slice(0, 12)})`);
    continue;
  }
  failed++;
  console.log(`\nseed ${seed} FAILED (trace ${result.traceHash.slice(0, 12)}):`);
  for (const failure of result.failures) console.log(`  ${failure}`);
  const shrunk = await shrink(result, options);
  console.log(`shrunk to ${shrunk.steps.length} of ${result.steps.length} steps:`);
  for (const step of shrunk.steps) console.log(`  ${describeStep(step)}`);
  console.log('its trace:');
  for (const line of shrunk.trace) console.log(`  ${line}`);
  console.log(`replay: npm run sim -- --seed ${seed}${steps === undefined ? '' : ` --steps ${steps}`}${rateFlags}${classic ? ' --classic' : ''}`);
}
await closeSimService();
const seconds = (Date.now() - started) / 1000;
console.log(`\n${seeds.length} seeds, ${failed} failed, ${seconds.toFixed(1)} s (${(seeds.length / seconds).toFixed(2)} seeds/s)`);
process.exitCode = failed > 0 ? 1 : 0;
