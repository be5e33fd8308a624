/**
 * DESIGN.md §4 (no empty asset left behind): a new file's upload whose path came to sync another
 * asset (a colleague's file took the name, ours became a conflict copy) while its journal entry still
 * named the empty asset its job had made. The tests stage that state by hand: a file synced to one
 * asset, and the journal's entry for the same path naming another, empty one.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { uploadJournal } from '../../src/main/db/upload-journal.js';
import { NodeFileSystem } from '../../src/main/local/index.js';
import { serviceForBlock, startSyncHarness, type SyncHarness } from '../support/sync-harness.js';
import { waitForJob } from '../support/upload-helpers.js';
import { md5Hex } from '../support/checksums.js';

describe('an upload whose path syncs another asset now', () => {
  const block = serviceForBlock();
  const { harnesses } = block;

  /** What a job made before its answer was used: an empty STAGED asset filed at `path`. */
  async function emptyAsset(path: string): Promise<string> {
    const created = await block.service.api('POST', '/asset-and-upload-batch-jobs', { items: [{ batchItemId: 'i0', path, size: 1 }] });
    const job = await waitForJob(block.service, '/asset-and-upload-batch-jobs', created.body.result.id);
    return String(job.successes.i0.assetId);
  }

  /** The journal's entry of a new file's upload to `assetId`, begun when the file held `content`. */
  async function journalUpload(sync: SyncHarness, relPath: string, content: string, assetId: string): Promise<void> {
    const stat = await new NodeFileSystem().stat(join(sync.folder, relPath));
    const rootId = sync.engine.roots()[0]?.id ?? '';
    const local = { relPath, size: content.length, mtimeMs: stat.mtimeMs - 1000, ino: stat.ino, dev: stat.dev, md5: md5Hex(content) };
    uploadJournal(sync.db).begin(rootId, 'NEW', 'f0', local, assetId, new Date().toISOString());
  }

  /** A synced `a.txt` (from another device) and the journal's upload of an older `a.txt` to an empty asset. */
  async function staged(remotePath: string): Promise<{ sync: SyncHarness; synced: string; empty: string }> {
    const other = await startSyncHarness(block.service, { remotePath });
    harnesses.push(other);
    writeFileSync(join(other.folder, 'a.txt'), 'theirs');
    expect((await other.once()).converged).toBe(true);
    const sync = await startSyncHarness(block.service, { remotePath });
    harnesses.push(sync);
    expect((await sync.once()).converged).toBe(true);
    const synced = (await sync.assets()).find((asset) => asset.path === `${remotePath}/a.txt`)?.id ?? '';
    const empty = await emptyAsset(`${remotePath}/a.txt`);
    await journalUpload(sync, 'a.txt', 'ours, the conflict copy now', empty);
    return { sync, synced, empty };
  }

  it("bins the empty asset before the synced asset's version takes the journal entry (simulation seed 87048)", async () => {
    const { sync, synced, empty } = await staged('/Version');
    writeFileSync(join(sync.folder, 'a.txt'), 'theirs, edited here');

    const result = await sync.once();
    expect(result.converged, JSON.stringify(result.reports)).toBe(true);
    expect((await sync.api.getAsset(empty)).lifecycleStatus.state).toBe('BINNED');
    const remote = (await sync.assets()).filter((asset) => asset.path.startsWith('/Version/'));
    expect(remote.map((asset) => [asset.path, asset.id, asset.checksum])).toEqual([['/Version/a.txt', synced, md5Hex('theirs, edited here')]]);
    expect(uploadJournal(sync.db).all(sync.engine.roots()[0]?.id ?? '')).toEqual([]);
  });

  it('bins the empty asset of an upload the resume hands over when the pass plans nothing (simulation seed 87055)', async () => {
    const { sync: first, synced, empty } = await staged('/Resumed');

    const sync = await first.restart();
    harnesses.push(sync);
    const result = await sync.once();
    expect(result.converged, JSON.stringify(result.reports)).toBe(true);
    expect((await sync.api.getAsset(empty)).lifecycleStatus.state).toBe('BINNED');
    expect((await sync.assets()).filter((asset) => asset.path.startsWith('/Resumed/')).map((asset) => asset.id)).toEqual([synced]);
    expect(uploadJournal(sync.db).all(sync.engine.roots()[0]?.id ?? '')).toEqual([]);
  });
});
