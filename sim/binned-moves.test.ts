/**
 * A synced file moved on two clients while the colleague binned its asset, run through the whole engine
 * and the real service without faults (seeds 81430, 81450, 81507 reduced: there, each client renamed
 * the file's folder). Each client applied "a local move beats a deletion on the service" by uploading
 * the file as a new asset: two clients, two assets of one file. The move wins on the asset itself,
 * brought back from the bin with its history; the second client then finds it live and moved, and
 * follows the service's name. A folder renamed with the file in it is no move of the file's: the
 * removal wins there, as for a file left where it was (seed 108329).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { NO_FAULTS } from './faults.js';
import { closeSimService, runSeed } from './run-seed.js';
import type { Step } from './scenario.js';
import { remoteOf, syncs, treeOf } from './scenario-trace.js';
import { md5Hex } from '../test/support/checksums.js';

/** Seeds that failed before the fix (seed 3's draws had client 1 sync first and missed the bug). */
const SEEDS = [1, 2, 4];

/** The call that takes an asset out of the bin (or into it). */
const TRANSITION = 'POST /asset-lifecycle-transition-batch-jobs';

/** `A/a.txt` and a file that stays in `A` (so a move of `a.txt` is the file's, not its folder's), synced on both clients. */
const syncedPair: Step[] = [
  ...syncs(0, 1),
  { kind: 'local-write', client: 0, path: 'A/a.txt', content: 'first' },
  { kind: 'local-write', client: 0, path: 'A/keep.txt', content: 'kept' },
  ...syncs(0, 1, 0, 1),
];

/** Seed 73408 reduced, the clients syncing on after the moves (while faults are on). */
const movedAfterEditAndBin: Step[] = [
  ...syncedPair,
  { kind: 'remote-write', path: 'A/a.txt', content: 'second' },
  { kind: 'remote-bin', path: 'A/a.txt' },
  { kind: 'local-rename', client: 0, from: 'A/a.txt', to: 'B/E/a.txt' },
  { kind: 'local-rename', client: 1, from: 'A/a.txt', to: 'D/a.txt' },
  ...syncs(0, 0, 1, 0, 1),
];

/**
 * Runs `scenario` on each of SEEDS, with an exact-name second client and a case-insensitive one, and
 * checks every run did all its steps and passed every invariant before `check` looks further.
 */
async function onEachRun(scenario: Step[], check: (result: Awaited<ReturnType<typeof runSeed>>, label: string) => void): Promise<void> {
  for (const seed of SEEDS) {
    for (const names of [['exact', 'exact'], ['exact', 'case-insensitive']] as const) {
      const label = `seed ${String(seed)}, ${names.join('/')}`;
      const result = await runSeed(seed, { scenario, rates: NO_FAULTS, names: [...names] });
      expect(result.trace.filter((line) => line.startsWith('  skipped')), label).toEqual([]);
      expect(result.failures, label).toEqual([]);
      check(result, label);
    }
  }
}

/** The live paths other than `A/keep.txt`, which every scenario here leaves alone. */
const movedOf = (trace: readonly string[]): string[] => remoteOf(trace).filter((path) => path !== 'A/keep.txt');

describe('a synced file moved on two clients while the colleague binned it', { timeout: 300_000 }, () => {
  afterAll(closeSimService);

  it('brings the binned asset back and moves it: one asset, both clients on its path (seed 81430)', async () => {
    const scenario: Step[] = [
      ...syncedPair,
      { kind: 'local-rename', client: 0, from: 'A/a.txt', to: 'B/E/a.txt' },
      { kind: 'remote-bin', path: 'A/a.txt' },
      { kind: 'local-rename', client: 1, from: 'A/a.txt', to: 'D/a.txt' },
    ];
    await onEachRun(scenario, (result, label) => {
      const [moved = ''] = movedOf(result.trace);
      expect(movedOf(result.trace), label).toEqual([moved]);
      expect(['B/E/a.txt', 'D/a.txt'], label).toContain(moved);
      for (const client of [0, 1]) expect(treeOf(result.trace, client), `${label}, client ${String(client)}`).toEqual({ [moved]: 'first', 'A/keep.txt': 'kept' });
    });
  });

  it('lets the removal win over a folder renamed on both clients with the file in it: no asset brought back, the files trashed (seeds 81430, 108329)', async () => {
    // A folder rename is one option change, which leaves the asset as it is: the file was not moved
    // by its user. Brought back, the asset outlived its removal for no user's doing, and where another
    // client had moved its bytes into another asset, two live assets held them (seed 108329).
    const scenario: Step[] = [
      ...syncs(0, 1),
      { kind: 'local-write', client: 0, path: 'A/a.txt', content: 'first' },
      ...syncs(0, 1, 0, 1),
      { kind: 'local-dir-rename', client: 0, from: 'A', to: 'B/E' },
      { kind: 'remote-bin', path: 'A/a.txt' },
      { kind: 'local-dir-rename', client: 1, from: 'A', to: 'D' },
    ];
    await onEachRun(scenario, (result, label) => {
      expect(remoteOf(result.trace), label).toEqual([]);
      for (const client of [0, 1]) expect(treeOf(result.trace, client), `${label}, client ${String(client)}`).toEqual({});
      expect(result.remote.filter((asset) => asset.versions.includes(md5Hex('first'))).map(({ state }) => state), label).toEqual(['BINNED']);
    });
  });
  it('brings back an asset the colleague edited and then binned, the file\'s bytes on top: one asset (seed 73408)', async () => {
    // Neither client ever had the colleague's `second`. Bringing the asset back as it was would
    // resurrect it; uploading the file as new made two assets of one file, one per client.
    const scenario: Step[] = [
      ...syncedPair,
      { kind: 'remote-write', path: 'A/a.txt', content: 'second' },
      { kind: 'remote-bin', path: 'A/a.txt' },
      { kind: 'local-rename', client: 0, from: 'A/a.txt', to: 'B/E/a.txt' },
      { kind: 'local-rename', client: 1, from: 'A/a.txt', to: 'D/a.txt' },
    ];
    await onEachRun(scenario, (result, label) => {
      const [moved = ''] = movedOf(result.trace);
      expect(movedOf(result.trace), label).toEqual([moved]);
      for (const client of [0, 1]) expect(treeOf(result.trace, client), `${label}, client ${String(client)}`).toEqual({ [moved]: 'first', 'A/keep.txt': 'kept' });
      // One asset, the file's bytes current and the colleague's edit beneath them, never current again.
      const holding = result.remote.filter((asset) => asset.versions.includes(md5Hex('second')));
      expect(holding.map(({ state, checksum, versions }) => ({ state, checksum, versions })), label).toEqual([
        { state: 'STAGED', checksum: md5Hex('first'), versions: [md5Hex('first'), md5Hex('second'), md5Hex('first')] },
      ]);
    });
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
      const [moved = ''] = movedOf(result.trace);
      expect(movedOf(result.trace), label).toEqual([moved]);
      const content = treeOf(result.trace, 0)[moved] ?? '';
      expect(content, label).toMatch(/^first~*$/);
      for (const client of [0, 1]) {
        const tree = treeOf(result.trace, client);
        expect(Object.keys(tree).sort(), `${label}, client ${String(client)}`).toEqual(['A/keep.txt', moved].sort());
        expect(tree[moved], `${label}, client ${String(client)}`).toBe(content);
      }
      expect(result.remote.filter((asset) => asset.versions.includes(md5Hex('second'))).map(({ checksum }) => checksum), label).toEqual([md5Hex(content)]);
    }
  });
  it('brings back an asset another client\'s folder rename carried into a folder this client has not resolved: filed once', async () => {
    // Client 0 had not heard of the bin: its rename of `A` to `B/E` (an option rename) carried the
    // binned asset, its file's row followed, and the removal trashed the file. Client 1 moved the file
    // itself and brings the asset back: its folder cache knows no directory for the option now named
    // `B/E` (only the service's tree does), and the move to `D` left the asset in `B/E` too.
    const scenario: Step[] = [
      ...syncedPair,
      { kind: 'remote-write', path: 'A/a.txt', content: 'second' },
      { kind: 'remote-bin', path: 'A/a.txt' },
      { kind: 'local-dir-rename', client: 0, from: 'A', to: 'B/E' },
      { kind: 'local-rename', client: 1, from: 'A/a.txt', to: 'D/a.txt' },
      ...syncs(0, 0, 1, 0, 1),
    ];
    const result = await runSeed(2, { scenario, rates: NO_FAULTS, names: ['exact', 'exact'] });
    expect(result.trace.filter((line) => line.startsWith('  skipped'))).toEqual([]);
    expect(result.failures).toEqual([]);
    expect(remoteOf(result.trace).sort()).toEqual(['B/E/keep.txt', 'D/a.txt']);
    // `first`, or `first~`: the seed's user may append while the engine hashes it.
    const content = treeOf(result.trace, 1)['D/a.txt'] ?? '';
    expect(content).toMatch(/^first~*$/);
    for (const client of [0, 1]) expect(treeOf(result.trace, client), `client ${String(client)}`).toEqual({ 'B/E/keep.txt': 'kept', 'D/a.txt': content });
  });
  it('leaves the asset binned when two clients\' folder renames carried it (seed 73514)', async () => {
    // Client 1 deleted its copy (which held the first version only), and its folder rename, an option
    // rename that `c.txt` makes, carries the binned asset into `A2`. Client 0 holds the second and
    // renames `A` to `A2`. Until seed 108329 the folder rename brought the asset back, and the restored
    // asset was filed in `A2` and `A2/C` both (the seed). A folder rename moves no file of its own:
    // the removal wins, and client 0's second goes to its trash (it is in the asset's history too).
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
      expect(result.remote.filter((asset) => asset.versions.includes(md5Hex('first'))).map(({ state }) => state), label).toEqual(['BINNED']);
    }
  });

  it('leaves the asset binned when a folder renamed where another client maps no directory carried it (seed 86183)', async () => {
    // Client 0 renames `A/C` to `B/E` (the option keeps its id and carries the binned asset under `B`);
    // client 1 holds a file named `B`, so no directory of its maps that option, and renames `A/C` to
    // `D`. Until seed 108329 that rename brought the asset back, and it stayed filed in `B/E` too (the
    // seed); now the removal wins over both folder renames.
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
      expect(result.remote.filter((asset) => asset.versions.includes(md5Hex('first'))).map(({ state }) => state), label).toEqual(['BINNED']);
    }
  });
});
