/**
 * DESIGN.md §4.5 "no duplicates" for the engine's own moves: a colleague renames an asset to a name
 * its folder already has, the engine renames the file to `café (2).txt` here, and stops right after
 * the rename, before its record (found by the simulation, seeds 100767 and 101094). Before the restart
 * the user edits the moved file and writes a new file at its old name. Left unrecorded, the synced row
 * stayed at the old name: the new file went to the asset as its edit, and the moved one up as a second
 * asset named `café (2).txt`, a number only this disk needed. The move is written ahead in the download
 * journal, and the restart records it where the file went. Real service on 127.0.0.1, real temp
 * folders; the stop is a rename that never answers, so nothing after it runs.
 */
import { appendFileSync, existsSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NodeFileSystem } from '../../src/main/local/index.js';
import { serviceForBlock, startSyncHarness } from '../support/sync-harness.js';
import { colleague, total, treeOf } from '../support/two-way.js';

/** The real disk, but the engine stops right after its first rename of a file named `name` in the root. */
class StoppingAfterMove extends NodeFileSystem {
  readonly stopped: Promise<void>;
  private stop: () => void = () => undefined;
  private done = false;

  constructor(private readonly name: string) {
    super();
    this.stopped = new Promise<void>((resolve) => (this.stop = resolve));
  }

  override async rename(from: string, to: string): Promise<void> {
    if (this.done || from.includes('/.asset-sync/') || !from.endsWith(`/${this.name}`)) return super.rename(from, to);
    this.done = true;
    await super.rename(from, to);
    this.stop();
    // The process is gone: nothing after this point runs.
    return new Promise<void>(() => undefined);
  }
}

describe('a move of the service\'s interrupted before its record', () => {
  const block = serviceForBlock();
  const { harnesses } = block;

  it('is recorded where the file went, its edit a version and the new file at its old name a new asset (seeds 100767, 101094)', async () => {
    const scratch = await startSyncHarness(block.service, { remotePath: '/Scratch' });
    harnesses.push(scratch);
    const them = colleague(block.service, scratch.api);
    const namesake = await them.upload('/Moved/A/café.txt', 'the namesake');
    const asset = await them.upload('/Moved/A/c.txt', 'the file');

    const fs = new StoppingAfterMove('c.txt');
    const first = await startSyncHarness(block.service, { remotePath: '/Moved', fs });
    expect((await first.once()).converged).toBe(true);
    expect(treeOf(first.folder)).toEqual({ 'A/c.txt': 'the file', 'A/café.txt': 'the namesake' });

    // The service's name for the asset is its namesake's: numbered apart here, the newer of the two.
    await them.rename(asset, 'café.txt');
    void first.once();
    await fs.stopped;
    first.engine.close();
    first.api.close();
    expect(treeOf(first.folder)).toEqual({ 'A/café (2).txt': 'the file', 'A/café.txt': 'the namesake' });

    // Before the restart: the moved file edited, a new file at its old name. An hour old, so the
    // restart's scan reads them at once rather than waiting for them to settle.
    appendFileSync(join(first.folder, 'A/café (2).txt'), ', edited');
    writeFileSync(join(first.folder, 'A/c.txt'), 'a new file');
    const hourAgo = new Date(Date.now() - 3_600_000);
    for (const relPath of ['A/café (2).txt', 'A/c.txt']) utimesSync(join(first.folder, relPath), hourAgo, hourAgo);

    const sync = await startSyncHarness(block.service, { remotePath: '/Moved', folder: first.folder, stateDir: first.stateDir });
    harnesses.push(sync);
    const result = await sync.once();

    expect(result.converged, JSON.stringify(result.reports)).toBe(true);
    expect([total(result, 'uploaded'), total(result, 'versions'), total(result, 'moved')]).toEqual([1, 1, 0]);
    const remote = (await sync.assets()).filter((entry) => entry.path.startsWith('/Moved/'));
    // The asset keeps its name and takes the edit; the new file is a third asset, named as written.
    expect(remote.find((entry) => entry.id === asset)?.path).toBe('/Moved/A/café.txt');
    expect(remote.find((entry) => entry.id === namesake)?.path).toBe('/Moved/A/café.txt');
    expect(remote.map((entry) => entry.path).sort()).toEqual(['/Moved/A/c.txt', '/Moved/A/café.txt', '/Moved/A/café.txt']);
    expect(treeOf(sync.folder)).toEqual({ 'A/c.txt': 'a new file', 'A/café (2).txt': 'the file, edited', 'A/café.txt': 'the namesake' });
    expect(existsSync(join(sync.folder, 'A/café (3).txt'))).toBe(false);
    expect(readFileSync(join(sync.folder, 'A/café (2).txt'), 'utf8')).toBe('the file, edited');
  });
});
