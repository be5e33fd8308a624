/**
 * A synced file moved away with a new file made at its old path, run through the whole engine and the
 * real service without faults: folder `B` renamed `A2` on client 0, `A2/a.txt` edited, a new `B/a.txt`
 * written, while the colleague moved the asset to `D` (seed 73069, reduced). Read by path, the new
 * file went to the asset (moved to `D/a.txt`) and the edited one, unread because nothing was synced at
 * its path, went up as a second asset; in the seed, whose edit happened to match the other client's, it
 * held the asset's own bytes. The asset follows its file: the edit reaches `D/a.txt`, the new file is
 * a new asset at `B/a.txt`.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { NO_FAULTS } from './faults.js';
import { closeSimService, runSeed } from './run-seed.js';
import type { Step } from './scenario.js';
import { remoteOf, syncs, treeOf } from './scenario-trace.js';

/** Seeds whose draws have client 0 see the colleague's file before the rename (checked below: no step skipped). */
const SEEDS = [1, 3, 4];

describe('a synced file moved away with a new file at its old path', { timeout: 300_000 }, () => {
  afterAll(closeSimService);

  it('moved and edited while the colleague moved its asset: the asset follows the edit, the new file is new (seed 73069)', async () => {
    const scenario: Step[] = [
      ...syncs(0, 1),
      { kind: 'remote-write', path: 'B/a.txt', content: 'the original' },
      ...syncs(0, 1, 0, 1),
      { kind: 'local-dir-rename', client: 0, from: 'B', to: 'A2' },
      { kind: 'local-write', client: 0, path: 'A2/a.txt', content: 'the original, edited' },
      { kind: 'remote-move', path: 'B/a.txt', dir: 'D' },
      { kind: 'local-write', client: 0, path: 'B/a.txt', content: 'a new file' },
      ...syncs(0, 1, 0, 1),
    ];
    for (const seed of SEEDS) {
      const result = await runSeed(seed, { scenario, rates: NO_FAULTS, names: ['exact', 'exact'] });
      expect(result.trace.filter((line) => line.startsWith('  skipped')), `seed ${String(seed)}`).toEqual([]);
      expect(result.failures, `seed ${String(seed)}`).toEqual([]);
      expect(remoteOf(result.trace), `seed ${String(seed)}`).toEqual(['B/a.txt', 'D/a.txt']);
      for (const client of [0, 1]) expect(treeOf(result.trace, client), `seed ${String(seed)}, client ${String(client)}`).toEqual({ 'B/a.txt': 'a new file', 'D/a.txt': 'the original, edited' });
    }
  });
});
