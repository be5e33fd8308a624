/**
 * A synced file moved on two clients while the colleague binned its asset, run through the whole engine
 * and the real service without faults: client 0 renamed folder `A` to `B/E`, the colleague binned
 * `A/a.txt`, client 1 renamed `A` to `D` (seeds 81430, 81450, 81507 reduced). Each client applied "a
 * local move beats a deletion on the service" by uploading the file as a new asset: two clients, two
 * assets of one file. The move wins on the asset itself, brought back from the bin with its history;
 * the second client then finds it live and moved, and follows the service's name.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { NO_FAULTS } from './faults.js';
import { md5Hex } from './remote-view.js';
import { closeSimService, runSeed } from './run-seed.js';
import type { Step } from './scenario.js';
import { remoteOf, syncs, treeOf } from './scenario-trace.js';

/** Seeds that failed before the fix (seed 3's draws had client 1 sync first and missed the bug). */
const SEEDS = [1, 2, 4];

/** The call that takes an asset out of the bin (or into it). */
const TRANSITION = 'POST /asset-lifecycle-transition-batch-jobs';

/** Seed 73408 reduced, the clients syncing on after the moves (while faults are on). */
const movedAfterEditAndBin: Step[] = [
  ...syncs(0, 1),
  { kind: 'local-write', client: 0, path: 'A/a.txt', content: 'first' },
  ...syncs(0, 1, 0, 1),
  { kind: 'remote-write', path: 'A/a.txt', content: 'second' },
  { kind: 'remote-bin', path: 'A/a.txt' },
  { kind: 'local-dir-rename', client: 0, from: 'A', to: 'B/E' },
  { kind: 'local-dir-rename', client: 1, from: 'A', to: 'D' },
  ...syncs(0, 0, 1, 0, 1),
];

describe('a synced file moved on two clients while the colleague binned it', { timeout: 300_000 }, () => {
  afterAll(closeSimService);

  it('brings the binned asset back and moves it: one asset, both clients on its path (seed 81430)', async () => {
    const scenario: Step[] = [
      ...syncs(0, 1),
      { kind: 'local-write', client: 0, path: 'A/a.txt', content: 'first' },
      ...syncs(0, 1, 0, 1),
      { kind: 'local-dir-rename', client: 0, from: 'A', to: 'B/E' },
      { kind: 'remote-bin', path: 'A/a.txt' },
      { kind: 'local-dir-rename', client: 1, from: 'A', to: 'D' },
    ];
    for (const seed of SEEDS) {
      for (const names of [['exact', 'exact'], ['exact', 'case-insensitive']] as const) {
        const label = `seed ${String(seed)}, ${names.join('/')}`;
        const result = await runSeed(seed, { scenario, rates: NO_FAULTS, names: [...names] });
        expect(result.trace.filter((line) => line.startsWith('  skipped')), label).toEqual([]);
        expect(result.failures, label).toEqual([]);
        expect(remoteOf(result.trace), label).toEqual(['B/E/a.txt']);
        for (const client of [0, 1]) expect(treeOf(result.trace, client), `${label}, client ${String(client)}`).toEqual({ 'B/E/a.txt': 'first' });
      }
    }
  });
  it('brings back an asset the colleague edited and then binned, the file\'s bytes on top: one asset (seed 73408)', async () => {
    // Neither client ever had the colleague's `second`. Bringing the asset back as it was would
    // resurrect it; uploading the file as new made two assets of one file, one per client.
    const scenario: Step[] = [
      ...syncs(0, 1),
      { kind: 'local-write', client: 0, path: 'A/a.txt', content: 'first' },
      ...syncs(0, 1, 0, 1),
      { kind: 'remote-write', path: 'A/a.txt', content: 'second' },
      { kind: 'remote-bin', path: 'A/a.txt' },
      { kind: 'local-dir-rename', client: 0, from: 'A', to: 'B/E' },
      { kind: 'local-dir-rename', client: 1, from: 'A', to: 'D' },
    ];
    for (const seed of SEEDS) {
      for (const names of [['exact', 'exact'], ['exact', 'case-insensitive']] as const) {
        const label = `seed ${String(seed)}, ${names.join('/')}`;
        const result = await runSeed(seed, { scenario, rates: NO_FAULTS, names: [...names] });
        expect(result.trace.filter((line) => line.startsWith('  skipped')), label).toEqual([]);
        expect(result.failures, label).toEqual([]);
        const [moved] = remoteOf(result.trace);
        expect(remoteOf(result.trace), label).toHaveLength(1);
        for (const client of [0, 1]) expect(treeOf(result.trace, client), `${label}, client ${String(client)}`).toEqual({ [moved ?? '']: 'first' });
        // One asset, the file's bytes current and the colleague's edit beneath them, never current again.
        const holding = result.remote.filter((asset) => asset.versions.includes(md5Hex('second')));
        expect(holding.map(({ state, checksum, versions }) => ({ state, checksum, versions })), label).toEqual([
          { state: 'STAGED', checksum: md5Hex('first'), versions: [md5Hex('first'), md5Hex('second'), md5Hex('first')] },
        ]);
      }
    }
  });
  it('dies once the asset is live again, before the file\'s bytes are on it: the restart sends them, and never brings the edit down (seed 73408)', async () => {
    // The asset holds the colleague's bytes from the transition on: a restart that still had the file's
    // bytes as the synced ones read the service's side as changed and downloaded them over the file.
    const rates = { ...NO_FAULTS, crashAt: [`${TRANSITION} (after)`] };
    // Seeds whose first restore runs while faults are on (client 0's in 1 and 4, client 1's in 7).
    for (const seed of [1, 4, 7]) {
      const label = `seed ${String(seed)}`;
      const result = await runSeed(seed, { scenario: movedAfterEditAndBin, rates, names: ['exact', 'exact'] });
      expect(result.trace.filter((line) => line.startsWith('  skipped')), label).toEqual([]);
      expect(result.trace.filter((line) => line.includes('CRASH')).map((line) => line.slice(line.indexOf(']') + 2)), label).toEqual([`CRASH at ${TRANSITION} (after)`]);
      expect(result.failures, label).toEqual([]);
      // The user's file, `first` (or `first~`: the seed's user may append while the engine hashes it).
      const [moved = ''] = remoteOf(result.trace);
      expect(remoteOf(result.trace), label).toHaveLength(1);
      const content = treeOf(result.trace, 0)[moved] ?? '';
      expect(content, label).toMatch(/^first~*$/);
      for (const client of [0, 1]) expect(treeOf(result.trace, client), `${label}, client ${String(client)}`).toEqual({ [moved]: content });
      expect(result.remote.filter((asset) => asset.versions.includes(md5Hex('second'))).map(({ checksum }) => checksum), label).toEqual([md5Hex(content)]);
    }
  });
  it('brings back an asset another client\'s folder rename carried into a folder this client has not resolved: filed once', async () => {
    // Seed 2: client 0 had not heard of the bin; its rename of `A` to `B/E` (an option rename) carried
    // the binned asset, and it recorded a plain move. Client 1 brings the asset back: its folder cache
    // knows no directory for the option now named `B/E` (only the service's tree does), and the move to
    // `D` left the asset in `B/E` too.
    const result = await runSeed(2, { scenario: movedAfterEditAndBin, rates: NO_FAULTS, names: ['exact', 'exact'] });
    expect(result.trace.filter((line) => line.startsWith('  skipped'))).toEqual([]);
    expect(result.failures).toEqual([]);
    expect(remoteOf(result.trace)).toHaveLength(1);
  });
  it('moves the restored asset out of the folder another client renamed it with: one folder, not two (seed 73514)', async () => {
    // Client 1 deleted its copy (which held the first version only), and its folder rename, an option
    // rename that `c.txt` makes, carries the binned asset into `A2`. Client 0 holds the second, brings
    // it back and moves it to `A2/C` — out of `A2` too, not only out of the new, empty option its
    // `A/C` now maps to. (In the seed client 1 moved its copy too; since seed 73408's fix it brings the
    // asset back itself, and client 0 follows it.)
    const scenario: Step[] = [
      ...syncs(0, 1),
      { kind: 'local-write', client: 0, path: 'A/C/b.txt', content: 'first' },
      { kind: 'local-write', client: 0, path: 'A/C/c.txt', content: 'other' },
      ...syncs(0, 1, 0, 1),
      { kind: 'remote-write', path: 'A/C/b.txt', content: 'second' },
      ...syncs(0),
      { kind: 'remote-bin', path: 'A/C/b.txt' },
      { kind: 'local-delete', client: 1, path: 'A/C/b.txt' },
      { kind: 'local-dir-rename', client: 1, from: 'A/C', to: 'A2' },
      ...syncs(1),
      { kind: 'local-dir-rename', client: 0, from: 'A', to: 'A2' },
    ];
    for (const seed of SEEDS) {
      const label = `seed ${String(seed)}`;
      const result = await runSeed(seed, { scenario, rates: NO_FAULTS, names: ['exact', 'exact'] });
      expect(result.trace.filter((line) => line.startsWith('  skipped')), label).toEqual([]);
      expect(result.failures, label).toEqual([]);
    }
  });

  it('moves the restored asset out of a folder renamed where this client maps no directory: one folder, not two (seed 86183)', async () => {
    // Client 0 renames `A/C` to `B/E` (the option keeps its id and carries the binned asset under `B`);
    // client 1 holds a file named `B`, so no directory of its maps that option, and its own rename of
    // `A/C` brings the asset back and moves it to `D`: out of `B/E` too, though its cache never saw it.
    const scenario: Step[] = [
      ...syncs(0, 1),
      { kind: 'local-write', client: 0, path: 'A/C/b.txt', content: 'first' },
      ...syncs(0, 1, 0, 1),
      { kind: 'local-write', client: 1, path: 'B', content: 'a file where a folder will be' },
      { kind: 'remote-bin', path: 'A/C/b.txt' },
      { kind: 'local-dir-rename', client: 0, from: 'A/C', to: 'B/E' },
      ...syncs(0),
      { kind: 'local-dir-rename', client: 1, from: 'A/C', to: 'D' },
      ...syncs(1),
    ];
    for (const seed of SEEDS) {
      const label = `seed ${String(seed)}`;
      const result = await runSeed(seed, { scenario, rates: NO_FAULTS, names: ['exact', 'exact'] });
      expect(result.trace.filter((line) => line.startsWith('  skipped')), label).toEqual([]);
      expect(result.failures, label).toEqual([]);
    }
  });
});
