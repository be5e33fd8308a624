/**
 * The invariant checks on their own, on hand-made end states (the seeds reach them through the engine;
 * sim/plants.test.ts shows them catching planted bugs).
 */
import { describe, expect, it } from 'vitest';
import { MemoryFileSystem } from '../src/main/local/memory-file-system.js';
import { BinnedVersions, checkInvariants, TwinSpellings } from './invariants.js';
import type { RemoteAsset } from './remote-view.js';
import { UserWrites } from './user-writes.js';
import { md5Hex } from '../test/support/checksums.js';

function asset(versions: readonly string[]): RemoteAsset {
  const current = versions.at(-1);
  return { id: 'a1', paths: ['A/logo.png'], state: 'LIVE', checksum: current === undefined ? undefined : md5Hex(current), versions: versions.map((content) => md5Hex(content)) };
}

function written(...contents: string[]): UserWrites {
  const writes = new UserWrites();
  for (const content of contents) writes.wrote(content);
  return writes;
}

describe('no version goes back', () => {
  it('fails an asset whose older bytes came back as a version after a newer one', () => {
    const failures = checkInvariants({ clients: [], remote: [asset(['v1', 'v2', 'v1'])], writes: written('v1', 'v2') });
    expect(failures).toEqual(['version went back: asset A/logo.png got "v1" again after a newer version']);
  });

  it('passes older bytes put on top of the version the asset was seen binned holding (a move brought it back), and only there', () => {
    const binned = new BinnedVersions();
    binned.note([{ ...asset(['v1', 'v2']), state: 'BINNED' }]);
    expect(checkInvariants({ clients: [], remote: [asset(['v1', 'v2', 'v1'])], writes: written('v1', 'v2'), binned })).toEqual([]);
    const failures = checkInvariants({ clients: [], remote: [asset(['v1', 'v2', 'v3', 'v1'])], writes: written('v1', 'v2', 'v3'), binned });
    expect(failures).toEqual(['version went back: asset A/logo.png got "v1" again after a newer version']);
  });

  it('passes older bytes a disk held behind the composed spelling of their name, and only those (seed 87352)', () => {
    // `café.txt` written decomposed and synced (v1); another file renamed to the composed spelling beside
    // it is the name's file (v2); once that one leaves, the decomposed one is read at the name (v1 again).
    const disk = new MemoryFileSystem();
    disk.mkdirpSync('/root');
    disk.writeFile('/root/cafe\u0301.txt', 'v1');
    disk.writeFile('/root/caf\u00e9.txt', 'v2');
    disk.writeFile('/root/other\u0301.txt', 'v3');
    const twins = new TwinSpellings();
    twins.note([{ disk, root: '/root' }]);
    expect(checkInvariants({ clients: [], remote: [asset(['v1', 'v2', 'v1'])], writes: written('v1', 'v2'), twins })).toEqual([]);
    // Bytes under a decomposed spelling with no composed twin beside them hid behind nothing.
    const failures = checkInvariants({ clients: [], remote: [asset(['v3', 'v2', 'v3'])], writes: written('v2', 'v3'), twins });
    expect(failures).toEqual(['version went back: asset A/logo.png got "v3" again after a newer version']);
  });

  it('passes versions that only move forward, and the same bytes sent twice in a row', () => {
    expect(checkInvariants({ clients: [], remote: [asset(['v1', 'v2', 'v2', 'v3'])], writes: written('v1', 'v2', 'v3') })).toEqual([]);
  });
});

describe('convergence', () => {
  /** A client whose disk holds `A/café.txt` (its synced `A/b.txt` renamed to the decomposed spelling) beside the composed one. */
  function clashingClient(heldBehindClash: ReadonlySet<string>) {
    const disk = new MemoryFileSystem();
    disk.mkdirpSync('/root/A');
    disk.writeFile('/root/A/caf\u00e9.txt', 'composed');
    disk.writeFile('/root/A/cafe\u0301.txt', 'renamed b');
    const notSynced = [{ relPath: 'A/cafe\u0301.txt', reason: 'NAME_CLASH' }];
    return { index: 1, disk, root: '/root', trash: '/trash', names: 'exact' as const, breaches: [], notSynced, conflictCopies: [], heldBehindClash };
  }
  const remote: RemoteAsset[] = [
    { id: 'composed', paths: ['A/café.txt'], state: 'LIVE', checksum: md5Hex('composed'), versions: [md5Hex('composed')] },
    { id: 'b', paths: ['A/b.txt'], state: 'LIVE', checksum: md5Hex('renamed b'), versions: [md5Hex('renamed b')] },
  ];

  it('leaves out an asset whose synced file waits behind a name the service cannot hold (seeds 87171, 87199), and only that one', () => {
    expect(checkInvariants({ clients: [clashingClient(new Set(['b']))], remote, writes: written('composed', 'renamed b') })).toEqual([]);
    const failures = checkInvariants({ clients: [clashingClient(new Set())], remote, writes: written('composed', 'renamed b') });
    expect(failures).toEqual([expect.stringMatching(/^convergence: client 1 holds \["A\/café.txt=[0-9a-f]+"\] but the service \["A\/b.txt=[0-9a-f]+","A\/café.txt=[0-9a-f]+"\]$/) as unknown]);
  });
});

describe('no number leaks onto the service', () => {
  const at = (paths: string[]): RemoteAsset => ({ ...asset(['v1']), paths });

  it('fails a name numbered apart from a namesake, which only a disk needs (seed 100767)', () => {
    expect(checkInvariants({ clients: [], remote: [at(['A/café (2).txt'])], writes: written('v1') })).toEqual(['number leaked: A/café (2).txt is on the service, a name no user gave']);
    expect(checkInvariants({ clients: [], remote: [at(['A (2)/logo.png'])], writes: written('v1') })).toEqual(['number leaked: A (2)/logo.png is on the service, a name no user gave']);
  });

  it('passes the names users give, a conflict copy\'s among them', () => {
    expect(checkInvariants({ clients: [], remote: [at(['A2/logo.png'])], writes: written('v1') })).toEqual([]);
    expect(checkInvariants({ clients: [], remote: [at(['A/logo (conflict 2026-01-01 120000).png'])], writes: written('v1') }).filter((failure) => failure.startsWith('number'))).toEqual([]);
  });
});
