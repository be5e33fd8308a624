/**
 * Folder renames issue 19's fourth round brought into the scenario (withFolderSteps), each reduced to
 * the steps that matter and run through the whole engine and the real service without faults: a
 * folder renamed in case only, on a disk that keeps case and by the colleague, seen by a disk that
 * ignores case; and a folder renamed while a conflict in it waits (the conflict follows its original).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { NO_FAULTS } from './faults.js';
import { closeSimService, runSeed } from './run-seed.js';
import type { Step } from './scenario.js';
import { remoteOf, syncs, treeOf, write } from './scenario-trace.js';

describe('folder renames', { timeout: 120_000 }, () => {
  afterAll(closeSimService);

  it('a folder renamed in case only on a disk that keeps case: one folder on the service, respelled on a disk that ignores case (seed 30000)', async () => {
    const scenario: Step[] = [...syncs(0, 1), write(0, 'A/x.txt', 'x'), write(0, 'A/C/y.txt', 'y'), ...syncs(0, 1), { kind: 'local-dir-rename', client: 0, from: 'A', to: 'a' }, ...syncs(0, 1, 0, 1)];
    const result = await runSeed(30000, { scenario, rates: NO_FAULTS, names: ['exact', 'case-insensitive'] });
    expect(result.failures).toEqual([]);
    expect(remoteOf(result.trace).sort()).toEqual(['a/C/y.txt', 'a/x.txt']);
    // Keys only: a user may edit a file while the engine hashes it (hash-faults.ts), faults or not.
    expect(Object.keys(treeOf(result.trace, 1)).sort()).toEqual(['a/C/y.txt', 'a/x.txt']);
    expect(result.trace).toContain('  [c1] info a: folder respelled as on the service: A → a');
  });

  it('a folder the colleague renamed in case only is respelled in place on a disk that ignores case', async () => {
    const scenario: Step[] = [...syncs(0, 1), { kind: 'remote-write', path: 'A/x.txt', content: 'x' }, ...syncs(0, 1), { kind: 'remote-folder-rename', path: 'A', name: 'a' }, ...syncs(0, 1, 0, 1)];
    const result = await runSeed(30001, { scenario, rates: NO_FAULTS, names: ['exact', 'case-insensitive'] });
    expect(result.failures).toEqual([]);
    expect(Object.keys(treeOf(result.trace, 0))).toEqual(['a/x.txt']);
    expect(Object.keys(treeOf(result.trace, 1))).toEqual(['a/x.txt']);
    expect(result.trace).toContain('  [c1] info a: folder moved on the service: A → a');
  });

  it('a folder renamed here is one option renamed on the service, though a binned asset still uses it (seed 30244)', async () => {
    const scenario: Step[] = [...syncs(0, 1), write(0, 'A/x.txt', 'x'), write(0, 'A/y.txt', 'y'), ...syncs(0, 1), { kind: 'remote-bin', path: 'A/y.txt' }, ...syncs(0, 1), { kind: 'local-dir-rename', client: 0, from: 'A', to: 'a' }, ...syncs(0, 1, 0, 1)];
    const result = await runSeed(30244, { scenario, rates: NO_FAULTS, names: ['exact', 'case-insensitive'] });
    expect(result.failures).toEqual([]);
    // One PATCH of the option, no per-file move into a new option `a` beside the old `A`.
    expect(result.trace).toContain('  [c0] info a: folder renamed on the service: A → a');
    expect(remoteOf(result.trace)).toEqual(['a/x.txt']);
    expect(Object.keys(treeOf(result.trace, 1))).toEqual(['a/x.txt']);
  });

  it('twin options A and a share one directory on a disk that ignores case, spelled as the disk has it, whatever their ids', async () => {
    // The colleague renames A to a, then files a new upload under /A: the service makes a second option A.
    const scenario: Step[] = [...syncs(0, 1), { kind: 'remote-write', path: 'A/x.txt', content: 'x' }, ...syncs(0, 1), { kind: 'remote-folder-rename', path: 'A', name: 'a' }, { kind: 'remote-write', path: 'A/n.txt', content: 'n' }, ...syncs(0, 1, 0, 1)];
    for (const seed of [1, 2, 3]) {
      const result = await runSeed(seed, { scenario, rates: NO_FAULTS, names: ['exact', 'case-insensitive'] });
      expect(result.failures).toEqual([]);
      expect(remoteOf(result.trace).sort()).toEqual(['A/n.txt', 'a/x.txt']);
      expect(Object.keys(treeOf(result.trace, 0)).sort()).toEqual(['A/n.txt', 'a/x.txt']);
      // The case-insensitive client held `A` (the colleague's rename came with the twin): no `a (2)`.
      expect(Object.keys(treeOf(result.trace, 1)).sort()).toEqual(['A/n.txt', 'A/x.txt']);
    }
  });

  it.each([
    ['D', ['exact', 'exact']],
    ['a', ['exact', 'case-insensitive']],
    ['a', ['case-insensitive', 'exact']],
  ] as const)('a conflict follows its original and its copy when their folder is renamed to %s (%s disks; seeds 30004, 30034)', async (to, names) => {
    const scenario: Step[] = [...syncs(0, 1), { kind: 'conflict-folder-rename', client: 0, path: 'A/x.txt', content: 'c', to }, ...syncs(0, 1, 0, 1)];
    const result = await runSeed(30004, { scenario, rates: NO_FAULTS, names });
    // strayConflicts (folder-steps.ts) fails a conflict that names a path its file left.
    expect(result.failures).toEqual([]);
    const copy = Object.keys(treeOf(result.trace, 0)).find((path) => path.includes('(conflict'));
    expect(copy?.startsWith(`${to}/x (conflict `)).toBe(true);
    expect(result.trace).toContain(`c0 conflict copy: ${copy ?? ''}`);
    expect(remoteOf(result.trace)).toEqual([`${to}/x.txt`]);
  });
});
