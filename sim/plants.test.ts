/**
 * The harness catches bugs planted in the engine (plants.ts), each by the invariant
 * that guards against it: a harness whose seeds all pass proves nothing unless it fails when the engine
 * is wrong. For each plant, some seed of a small range must fail with that invariant alone, and the
 * same seed must pass without the plant. The ranges start at a seed that catches it, so a test runs one
 * or two seeds; the rest of the range is slack for when an engine change moves what a seed does.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { PlantedBug } from './plants.js';
import type { FaultRates } from './faults.js';
import { closeSimService, runSeed } from './run-seed.js';

const QUIET: FaultRates = { network: 0, disk: 0, crash: 0, commit: 0 };

/** The first seed of `seeds` that the plant makes fail, with the names of the invariants it broke. */
async function caught(plant: PlantedBug, seeds: readonly number[], rates: FaultRates): Promise<{ seed: number; broken: string[] } | undefined> {
  for (const seed of seeds) {
    const result = await runSeed(seed, { plant, rates });
    if (result.failures.length > 0) return { seed, broken: [...new Set(result.failures.map((failure) => failure.split(':')[0] ?? failure))] };
  }
  return undefined;
}

async function passesWithout(seed: number, rates: FaultRates): Promise<string[]> {
  return (await runSeed(seed, { rates })).failures;
}

describe('the simulation catches bugs planted in the engine', { timeout: 600_000 }, () => {
  afterAll(closeSimService);

  it('the conflict rule skipped (the service\'s edit overwrites ours): no data loss', async () => {
    // No faults at all: a local edit and a colleague's edit of one file between two syncs is enough.
    const found = await caught('no-conflict-copy', [14, 15, 16, 17], QUIET);
    expect(found?.broken).toEqual(['data loss']);
    expect(await passesWithout(found?.seed ?? 0, QUIET)).toEqual([]);
  });

  it('the mass-delete guard off: the guards held', async () => {
    const found = await caught('no-delete-guard', [2, 3, 4, 5], QUIET);
    expect(found?.broken).toEqual(['guard']);
    expect(await passesWithout(found?.seed ?? 0, QUIET)).toEqual([]);
  });

  it('new files journalled after their job is created: a crash in between leaves its assets behind', async () => {
    // Crashes only (at service calls and file system steps): one lands between the job's POST and the late journal.
    const rates = { ...QUIET, crash: 0.04 };
    const found = await caught('journal-after-job', [29, 31, 35, 44], rates);
    expect(found?.broken).toEqual(['duplicate assets']);
    expect(await passesWithout(found?.seed ?? 0, rates)).toEqual([]);
  });

  it('an upload\'s journal cleared outside the transaction that records it: a commit crash forgets the upload', async () => {
    // A crash inside the commit that records the file as synced rolls it back; the journal entry,
    // cleared in a commit of its own before, is gone. The file's folder is then renamed: the restarted
    // client uploads it anew, a second asset beside the forgotten one. Network faults keep the listings
    // from settling it at once; without commit faults the seed passes with the plant too.
    const rates = { ...QUIET, network: 0.2, commit: 0.2 };
    const found = await caught('journal-outside-commit', [20, 21, 22, 23], rates);
    expect(found?.broken).toEqual(['duplicate assets']);
    expect(await passesWithout(found?.seed ?? 0, rates)).toEqual([]);
    expect((await runSeed(found?.seed ?? 0, { plant: 'journal-outside-commit', rates: { ...rates, commit: 0 } })).failures).toEqual([]);
  });
});
