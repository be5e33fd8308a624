/**
 * Names one disk holds as one (DESIGN.md §3: paths compared NFC, case-folded on case-insensitive
 * disks), run through the whole engine and the real service without faults: what seeds 17 and 4001
 * found, and 20980, each reduced to the steps that matter, on the disks that matter.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { NO_FAULTS } from './faults.js';
import { closeSimService, runSeed } from './run-seed.js';
import type { Step } from './scenario.js';
import { syncs, treeOf, write } from './scenario-trace.js';

const NFC = 'A/caf\u00e9.txt';
const NFD = NFC.normalize('NFD');

describe('names a disk holds as one', { timeout: 120_000 }, () => {
  afterAll(closeSimService);

  it('on a case-insensitive disk, keeps both of two names that differ only in case, one numbered (seed 4001)', async () => {
    const scenario = [...syncs(0, 1), write(0, 'logo.png', 'lower'), write(0, 'Logo.png', 'upper'), ...syncs(0, 1, 0, 1)];
    const result = await runSeed(4001, { scenario, rates: NO_FAULTS, names: ['exact', 'case-insensitive'] });
    expect(result.failures).toEqual([]);
    const names = treeOf(result.trace, 1);
    expect(Object.values(names).sort()).toEqual(['lower', 'upper']);
    expect(Object.keys(names).map((name) => name.toLowerCase()).sort()).toEqual(['logo (2).png', 'logo.png']);
  });

  it('on a case-insensitive disk, makes room for a name that arrives beside its own file in another case', async () => {
    const scenario = [...syncs(0, 1), write(1, 'Logo.png', 'mine'), ...syncs(1), write(0, 'logo.png', 'theirs'), ...syncs(0, 1, 0, 1)];
    const result = await runSeed(4002, { scenario, rates: NO_FAULTS, names: ['exact', 'case-insensitive'] });
    expect(result.failures).toEqual([]);
    expect(Object.values(treeOf(result.trace, 1)).sort()).toEqual(['mine', 'theirs']);
  });

  it('on a case-insensitive disk, respells a file a colleague renamed in case only (seed 20980)', async () => {
    const scenario: Step[] = [...syncs(0, 1), { kind: 'remote-write', path: 'Logo.png', content: 'upper' }, ...syncs(1), { kind: 'remote-rename', path: 'Logo.png', name: 'logo.png' }, ...syncs(0, 1, 0, 1)];
    const result = await runSeed(20980, { scenario, rates: NO_FAULTS, names: ['exact', 'case-insensitive'] });
    expect(result.failures).toEqual([]);
    expect(treeOf(result.trace, 1)).toEqual({ 'logo.png': 'upper' });
    expect(result.trace.filter((line) => line.includes('LOCAL_FILE_CHANGED'))).toEqual([]);
  });

  it('on a case-insensitive disk, sends a respelling made with an edit as the asset\'s new name, its version keeping it', async () => {
    // The move renames the asset, the version follows: sent under the name the listing knew before
    // the move, the version renamed it back, and the user's respelling was undone everywhere.
    const scenario = [...syncs(0, 1), write(0, 'logo.png', 'v1'), ...syncs(0, 1), write(1, 'Logo.png', 'v2'), ...syncs(1, 0, 1, 0)];
    const result = await runSeed(4003, { scenario, rates: NO_FAULTS, names: ['exact', 'case-insensitive'] });
    expect(result.failures).toEqual([]);
    expect(treeOf(result.trace, 0)).toEqual({ 'Logo.png': 'v2' });
    expect(treeOf(result.trace, 1)).toEqual({ 'Logo.png': 'v2' });
  });

  it('on a case-insensitive disk, keeps the asset of a file rewritten as Logo.png over logo.png while a colleague names another file Logo.png (seed 50031)', async () => {
    // The rewrite respells the entry (same inode, new bytes); read as a deletion and a new file, the
    // asset was binned and a second one uploaded, and the clash numbering of the two `Logo.png` turned
    // over: each file's move waited for the other's path, and the colleague's new bytes never came.
    const scenario: Step[] = [
      ...syncs(0, 1),
      write(0, 'B/logo.png', 'ours-1'),
      ...syncs(0),
      { kind: 'remote-write', path: 'B/café.txt', content: 'theirs-1' },
      ...syncs(0, 1),
      { kind: 'remote-write', path: 'B/café.txt', content: 'theirs-2' },
      write(1, 'B/Logo.png', 'ours-2'),
      { kind: 'remote-rename', path: 'B/café.txt', name: 'Logo.png' },
      // As in the seed: the client sees the rewrite and the rename in one pass, in the settle.
      { kind: 'unmount', client: 1 },
    ];
    const result = await runSeed(50031, { scenario, rates: NO_FAULTS, names: ['exact', 'case-insensitive'] });
    expect(result.failures).toEqual([]);
    expect(treeOf(result.trace, 1)).toEqual({ 'B/Logo.png': 'ours-2', 'B/Logo (2).png': 'theirs-2' });
    expect(result.trace.findLast((line) => line.startsWith('remote: '))).toMatch(/^remote: \["B\/Logo\.png=[0-9a-f]+","B\/Logo\.png=[0-9a-f]+"\]$/u);
  });

  it('on a case-insensitive disk, brings down a new version of a file whose clash numbering turned over (seed 50031\'s class)', async () => {
    // `logo.png` and `Logo.png` on the service, `Logo.png` numbered `Logo (2).png` here; the user
    // replaces `logo.png` with a new `LOGO.png`: the service now numbers that one instead. Each
    // file's move waited for the other's place on disk, every pass, and the colleague's edit of
    // `Logo.png` never came down.
    const scenario: Step[] = [
      ...syncs(0, 1),
      write(0, 'logo.png', 'lower'),
      ...syncs(0),
      write(0, 'Logo.png', 'upper-1'),
      ...syncs(0, 1, 0, 1),
      { kind: 'local-delete', client: 1, path: 'logo.png' },
      write(1, 'LOGO.png', 'mine'),
      ...syncs(1, 0, 1),
      { kind: 'remote-write', path: 'Logo.png', content: 'upper-2' },
    ];
    const result = await runSeed(50032, { scenario, rates: NO_FAULTS, names: ['exact', 'case-insensitive'] });
    expect(result.failures).toEqual([]);
    expect(treeOf(result.trace, 1)).toEqual({ 'Logo.png': 'upper-2', 'LOGO (2).png': 'mine' });
  });

  it('on a Linux disk, syncs the composed one of NFC and NFD spellings and reports the other (seed 17)', async () => {
    const scenario = [...syncs(0, 1), write(0, NFD, 'decomposed'), write(0, NFC, 'composed'), ...syncs(0, 1, 0, 1)];
    const result = await runSeed(17, { scenario, rates: NO_FAULTS, names: ['exact', 'nfd'] });
    expect(result.failures).toEqual([]);
    expect(result.trace).toContain(`c0 not synced: ${NFD}: NAME_CLASH`);
    expect(treeOf(result.trace, 1)).toEqual({ [NFC.normalize('NFD')]: 'composed' });
  });
});
