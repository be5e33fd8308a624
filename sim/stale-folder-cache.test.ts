/**
 * A new file's upload job answered into the void while the client's folder cache was behind: the
 * colleague renamed the file's folder `A` → `D` on the service, and client 0, which made `A` itself,
 * had not listed it since. The job's path `/A/b.txt` made a new option `A` on the service and filed the
 * asset there, while the journal kept the option the cache named (now `D`). The search for the job's
 * asset looked in `D`, found nothing, and the file went up again: the job's empty asset stayed live in
 * the new `A` (seed 80824, `--steps 30 --disk 15 --case-folders --names case-insensitive`, where the
 * folder was respelled `B` → `b` by the other client).
 * - Seed 6: the cache kept `A` beside `D` for the one option once a walk met it as a new folder `D`
 *   (src/main/db/folders-repo.test.ts); the seed's own failure.
 * - Seed 17: no walk came between the rename and the job, so nothing could tell the cache was behind;
 *   the asset is looked for where the path names a folder on the service now, too.
 * - Seed 2, no faults at all: the job's path filed the asset in a new `A`, and the completion's
 *   folder check added the option the cache named too: the file in `A` and `D`, on every disk.
 * Run through the whole engine and the real service, answers lost after the service committed.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { closeSimService, runSeed } from './run-seed.js';
import { NO_FAULTS } from './faults.js';
import type { Step } from './scenario.js';
import { remoteOf, syncs } from './scenario-trace.js';

const rates = { network: 0.3, disk: 0, crash: 0, networkKinds: ['lost-after-commit'] as const };
const WRITE = 'client 0 writes A/b.txt = second';
const JOB_LOST = '  [c0] fault lost-after-commit on POST /asset-and-upload-batch-jobs';

const scenario: Step[] = [
  ...syncs(0, 1),
  { kind: 'local-write', client: 0, path: 'A/a.txt', content: 'first' },
  ...syncs(0),
  { kind: 'remote-folder-rename', path: 'A', name: 'D' },
  { kind: 'local-write', client: 0, path: 'A/b.txt', content: 'second' },
  ...syncs(0, 0, 1, 0, 1),
];

describe('a lost upload job filed by a folder cache that was behind', { timeout: 300_000 }, () => {
  afterAll(closeSimService);

  it('files the new file in one folder, where its path put it, without faults (seed 2)', async () => {
    const result = await runSeed(2, { scenario, rates: NO_FAULTS, names: ['exact', 'exact'] });
    expect(result.failures).toEqual([]);
    // Client 0's cache still named the renamed option for `A`: added to the asset, it put the file in `A` and `D`.
    expect(remoteOf(result.trace)).toEqual(['A/b.txt', 'D/a.txt']);
  });

  for (const seed of [6, 17]) {
    it(`leaves no asset without a file, and the file in one folder (seed ${String(seed)})`, async () => {
      const result = await runSeed(seed, { scenario, rates, names: ['exact', 'exact'] });
      const written = result.trace.indexOf(WRITE);
      expect(written).toBeGreaterThan(result.trace.indexOf('colleague renames folder /A → D'));
      expect(result.trace.indexOf(JOB_LOST, written)).toBeGreaterThan(written);
      expect(result.failures).toEqual([]);
      const remote = remoteOf(result.trace);
      expect(remote.filter((path) => path.includes('b.txt'))).toHaveLength(1);
      expect(remote.some((path) => path.includes('|'))).toBe(false);
    });
  }
});
