/**
 * A file moved here while the colleague moved its asset to another folder, and the listing the plan read
 * was behind (a pass on the watcher's events does not ask the service each time): seed 74008 reduced.
 * The move's metadata edit took the asset out of the folder the file left, where it no longer was, and
 * filed it in the new one beside the colleague's: one asset in two folders. The move now waits for the
 * asset's read-back, and both sides' moves meet as in any move on both sides: the service's place wins.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { NO_FAULTS } from './faults.js';
import { closeSimService, runSeed } from './run-seed.js';
import type { Step } from './scenario.js';
import { remoteOf, syncs } from './scenario-trace.js';

/**
 * A seed whose draws make client 1 sync on its watcher's events without the service's feed, its plan
 * reading a listing from before the colleague's move (it failed before the fix; others of that mode
 * had client 1 download the file too late to rename it, or list the service first).
 */
const SEEDS = [17];

describe('a file moved here while the colleague moved its asset elsewhere', { timeout: 300_000 }, () => {
  afterAll(closeSimService);

  it('is filed in one folder, the service\'s, on both clients (seed 74008)', async () => {
    const scenario: Step[] = [
      ...syncs(0, 1),
      { kind: 'local-write', client: 0, path: 'a.txt', content: 'first' },
      { kind: 'local-write', client: 0, path: 'A/b.txt', content: 'beside' },
      ...syncs(0, 1, 0, 1),
      { kind: 'remote-move', path: 'a.txt', dir: 'A' },
      { kind: 'local-rename', client: 1, from: 'a.txt', to: 'B/Logo.png' },
      ...syncs(1),
    ];
    for (const seed of SEEDS) {
      const label = `seed ${String(seed)}`;
      const result = await runSeed(seed, { scenario, rates: NO_FAULTS, names: ['exact', 'exact'] });
      expect(result.trace.filter((line) => line.startsWith('  skipped')), label).toEqual([]);
      expect(result.failures, label).toEqual([]);
      // One asset for the file, where the service moved it, under its name there or the one given here.
      expect(remoteOf(result.trace).filter((path) => path !== 'A/b.txt'), label).toHaveLength(1);
      expect(remoteOf(result.trace).filter((path) => path.startsWith('B/')), label).toEqual([]);
    }
  });
});
