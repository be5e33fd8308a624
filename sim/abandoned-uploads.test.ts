/**
 * A new file's upload abandoned, then the file renamed in case only on a case-insensitive disk
 * (`logo.png` → `Logo.png`): run through the whole engine and the real service, every answer of the
 * first sync's calls lost after the service committed (so the job made its asset, or the one-part PUT
 * completed it, unheard). The abandoned-upload sweep looked for `logo.png` with an lstat, which
 * `Logo.png` answers on such a disk: the entry stayed for good, and the job's asset stayed live
 * without a file (seeds 5–7 here) or beside a second asset of the same bytes (seed 8).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { closeSimService, runSeed } from './run-seed.js';
import type { Step } from './scenario.js';

const scenario: Step[] = [
  { kind: 'sync', client: 0 },
  { kind: 'sync', client: 1 },
  { kind: 'local-write', client: 1, path: 'logo.png', content: 'the logo' },
  { kind: 'sync', client: 1 },
  { kind: 'local-rename', client: 1, from: 'logo.png', to: 'Logo.png' },
  { kind: 'sync', client: 1 },
  { kind: 'sync', client: 0 },
];
const rates = { network: 0.4, disk: 0, crash: 0, networkKinds: ['lost-after-commit'] as const };

describe('an abandoned upload of a file renamed in case only', { timeout: 300_000 }, () => {
  afterAll(closeSimService);

  it('ends the upload: no asset left without a file, no second asset of the same bytes', async () => {
    const failing: string[] = [];
    for (const seed of [5, 6, 7, 8]) {
      const result = await runSeed(seed, { scenario, classic: true, rates, names: ['exact', 'case-insensitive'] });
      // The rename ran (a case-only rename is not skipped as a taken name).
      expect(result.trace).toContain('client 1 renames logo.png → Logo.png');
      expect(result.trace[result.trace.indexOf('client 1 renames logo.png → Logo.png') + 1]).not.toBe('  skipped');
      if (result.failures.length > 0) failing.push(`seed ${seed}: ${result.failures.join('; ')}`);
    }
    expect(failing).toEqual([]);
  });
});
