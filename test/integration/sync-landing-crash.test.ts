/**
 * DESIGN.md §4.5 "no duplicates" for downloads: the engine stops right after a download's rename into
 * place, before the batch's record (found by the simulation, seed 223). The download journal, written
 * before the rename, lets the restarted engine record what landed; a landed file the user moved
 * meanwhile moves its asset, a landed file the restart could not read waits for a pass that can (seed
 * 40130), and a rename that never happened resumes its download. Real service on
 * 127.0.0.1, real temp folders; the stop is a rename that never answers, so nothing after it runs.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NodeFileSystem } from '../../src/main/local/index.js';
import { serviceForBlock, startSyncHarness, type SyncHarness, type SyncHarnessOptions } from '../support/sync-harness.js';
import { colleague, total, treeOf } from '../support/two-way.js';
import { DenyingFileSystem } from '../support/denying-file-system.js';

/** The real disk, but the first rename out of the downloads folder stops the engine: before or after it happens. */
class StoppingAtLanding extends NodeFileSystem {
  readonly stopped: Promise<void>;
  private stop: () => void = () => undefined;
  private done = false;

  constructor(private readonly when: 'before' | 'after') {
    super();
    this.stopped = new Promise<void>((resolve) => (this.stop = resolve));
  }

  override async rename(from: string, to: string): Promise<void> {
    if (this.done || !from.includes('/.asset-sync/downloads/')) return super.rename(from, to);
    this.done = true;
    if (this.when === 'after') await super.rename(from, to);
    this.stop();
    // The process is gone: nothing after this point runs.
    return new Promise<void>(() => undefined);
  }
}

describe('a download interrupted at its landing', () => {
  const block = serviceForBlock();
  const { harnesses } = block;

  /** An engine that stops at its first download's landing, then a fresh one on the same folder and state. */
  async function interrupted(remotePath: string, when: 'before' | 'after', meanwhile: (folder: string) => void, restart: Pick<SyncHarnessOptions, 'fs'> = {}): Promise<SyncHarness> {
    const fs = new StoppingAtLanding(when);
    const first = await startSyncHarness(block.service, { remotePath, fs });
    void first.once();
    await fs.stopped;
    first.engine.close();
    first.api.close();
    meanwhile(first.folder);
    const second = await startSyncHarness(block.service, { remotePath, folder: first.folder, stateDir: first.stateDir, ...restart });
    harnesses.push(second);
    return second;
  }

  it('moves the asset of a landed file the user moved before the restart, and uploads nothing', async () => {
    const scratch = await startSyncHarness(block.service, { remotePath: '/Scratch1' });
    harnesses.push(scratch);
    const assetId = await colleague(block.service, scratch.api).upload('/Landed/Brand/b.txt', 'bravo');

    const sync = await interrupted('/Landed', 'after', (folder) => {
      expect(readFileSync(join(folder, 'Brand/b.txt'), 'utf8')).toBe('bravo');
      renameSync(join(folder, 'Brand'), join(folder, 'Logos'));
    });
    const result = await sync.once();

    expect(result.converged, JSON.stringify(result.reports)).toBe(true);
    expect(total(result, 'uploaded')).toBe(0);
    expect(total(result, 'moved')).toBe(1);
    const remote = (await sync.assets()).filter((asset) => asset.path.startsWith('/Landed/'));
    expect(remote.map((asset) => [asset.path, asset.id])).toEqual([['/Landed/Logos/b.txt', assetId]]);
    expect(existsSync(join(sync.folder, 'Brand/b.txt'))).toBe(false);
    expect(readFileSync(join(sync.folder, 'Logos/b.txt'), 'utf8')).toBe('bravo');
  });

  it('downloads again a file whose rename never happened, with one asset still', async () => {
    const scratch = await startSyncHarness(block.service, { remotePath: '/Scratch2' });
    harnesses.push(scratch);
    const assetId = await colleague(block.service, scratch.api).upload('/Unlanded/a.txt', 'alpha');

    const sync = await interrupted('/Unlanded', 'before', (folder) => {
      expect(existsSync(join(folder, 'a.txt'))).toBe(false);
      mkdirSync(join(folder, 'Empty'));
    });
    const result = await sync.once();

    expect(result.converged, JSON.stringify(result.reports)).toBe(true);
    expect(total(result, 'downloaded')).toBe(1);
    expect(total(result, 'uploaded')).toBe(0);
    const remote = (await sync.assets()).filter((asset) => asset.path.startsWith('/Unlanded/'));
    expect(remote.map((asset) => [asset.path, asset.id])).toEqual([['/Unlanded/a.txt', assetId]]);
    expect(readFileSync(join(sync.folder, 'a.txt'), 'utf8')).toBe('alpha');
  });

  it('records a landed file the restart could not read once it can, so a colleague\'s file of its name takes no second asset of it (seed 40130)', async () => {
    const scratch = await startSyncHarness(block.service, { remotePath: '/Scratch3' });
    harnesses.push(scratch);
    const theirs = colleague(block.service, scratch.api);
    // The older asset keeps the plain name when two share it: the colleague's, made first, elsewhere.
    const older = await theirs.upload('/Elsewhere/a.txt', 'yankee');
    const landedId = await theirs.upload('/Unreadable/a.txt', 'xray');

    const fs = new DenyingFileSystem(new NodeFileSystem());
    const sync = await interrupted(
      '/Unreadable',
      'after',
      (folder) => {
        // The restart comes an hour later: the landed file is no longer settling, so the restart's
        // scan opens it at once (a file still settling is compared by its signature instead).
        const hourAgo = new Date(Date.now() - 3_600_000);
        utimesSync(join(folder, 'a.txt'), hourAgo, hourAgo);
        fs.deny(join(folder, 'a.txt'));
      },
      { fs },
    );
    // The restart's scan cannot open the landed file: present, unreadable, known by its signature
    // only (seed 61160), which names the landed file: it is recorded where it landed, nothing sent.
    const blocked = await sync.once();
    expect(total(blocked, 'uploaded')).toBe(0);
    // Recorded, it is still reported: the report has the scan look at it again (seed 131802).
    expect(sync.engine.store.status().flatMap((root) => root.notSynced.map(({ relPath, reason }) => ({ relPath, reason })))).toEqual([{ relPath: 'a.txt', reason: 'UNREADABLE' }]);

    await theirs.move(older, '/Unreadable');
    fs.allow(join(sync.folder, 'a.txt'));
    const result = await sync.once();

    expect(result.converged, JSON.stringify(result.reports)).toBe(true);
    // Dropping the landing made a.txt a new file here beside two assets of its name, neither of them
    // taking the plain name with its bytes: a conflict copy of the service's own file here (hashed),
    // a third asset of it in the simulation (left unread, so uploaded as it was).
    expect(total(result, 'conflicts')).toBe(0);
    expect(total(result, 'uploaded')).toBe(0);
    const remote = (await sync.assets()).filter((asset) => asset.path.startsWith('/Unreadable/'));
    expect(remote.map((asset) => asset.id).sort()).toEqual([older, landedId].sort());
    expect(treeOf(sync.folder)).toEqual({ 'a.txt': 'yankee', 'a (2).txt': 'xray' });
  });
});
