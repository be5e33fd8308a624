/**
 * `npm run sim:traces [-- --out FILE]`: one line per kept seed (every regression seed with its options,
 * then the suite's batch) with the hash of its trace. A change meant to keep behaviour compares this
 * list before and after (`diff`): a seed whose hash moved replays differently.
 */
import { writeFileSync } from 'node:fs';
import { closeSimService, runSeed } from './run-seed.js';
import { REGRESSIONS, regressionOptions } from './regressions.js';
import { BATCH_SEEDS, FIRST_SEED } from './seed-batch.js';

const outAt = process.argv.indexOf('--out');
const out = outAt < 0 ? undefined : process.argv[outAt + 1];
if (outAt >= 0 && (out === undefined || out.startsWith('--'))) throw new Error('--out needs a file path');

const lines: string[] = [];
const record = (name: string, hash: string, failures: readonly string[]): void => {
  const line = `${name} ${hash}${failures.length > 0 ? ` FAILED: ${failures.join('; ')}` : ''}`;
  lines.push(line);
  console.log(line);
};
try {
  for (const regression of REGRESSIONS) {
    const result = await runSeed(regression.seed, regressionOptions(regression));
    record(`regression ${String(regression.seed)}`, result.traceHash, result.failures);
  }
  for (let seed = FIRST_SEED; seed < FIRST_SEED + BATCH_SEEDS; seed += 1) {
    const result = await runSeed(seed, { steps: 16, caseFolders: true });
    record(`batch ${String(seed)}`, result.traceHash, result.failures);
  }
} finally {
  await closeSimService();
}
if (out !== undefined) writeFileSync(out, `${lines.join('\n')}\n`);
