/**
 * Shrinks a failing seed's scenario: drops steps one at a time (the first syncs stay) and keeps a drop
 * when the seed still fails the same way, so what is printed is the few steps that matter. Bounded by
 * a number of runs; fault draws follow the steps, so a shrunk scenario is replayed with its steps, and
 * the full seed always replays exactly.
 */
import { runSeed, type SeedOptions, type SeedResult } from './run-seed.js';

/** The kind of a failure (`duplicate assets`, `data loss`, …), which a shrunk run must keep. */
export function failureKind(failure: string): string {
  return failure.split(':')[0] ?? failure;
}

export async function shrink(failed: SeedResult, options: SeedOptions = {}, maxRuns = 40): Promise<SeedResult> {
  const kind = failed.failures.map(failureKind)[0];
  let best = failed;
  let runs = 0;
  const clients = options.clients ?? 2;
  for (let index = best.steps.length - 1; index >= clients && runs < maxRuns; index--) {
    const candidate = best.steps.filter((_, at) => at !== index);
    runs++;
    const result = await runSeed(failed.seed, { ...options, scenario: candidate });
    if (result.failures.some((failure) => failureKind(failure) === kind)) best = result;
  }
  return best;
}
