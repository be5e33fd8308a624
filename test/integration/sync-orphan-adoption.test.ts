/**
 * DESIGN.md §4.5: a crash between "the asset-and-upload job created the asset" and "the journal
 * recorded its id" must not leave a second asset behind. The test stages that moment by hand, the way
 * the engine reaches it: the journal intent (written before the job), then the job's empty STAGED asset
 * in the file's folder, and nothing else. The next sync must adopt that asset.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/main/api/index.js';
import { uploadJournal } from '../../src/main/db/upload-journal.js';
import { NodeFileSystem } from '../../src/main/local/index.js';
import { serviceForBlock, startSyncHarness, type SyncHarness } from '../support/sync-harness.js';
import { sendParts, waitForJob } from '../support/upload-helpers.js';
import { md5Hex } from '../support/checksums.js';

describe('orphans of an interrupted asset-and-upload job', () => {
  const block = serviceForBlock();
  const { harnesses } = block;

  const put = (sync: SyncHarness, relPath: string, content: string): void => {
    mkdirSync(join(sync.folder, relPath, '..'), { recursive: true });
    writeFileSync(join(sync.folder, relPath), content);
  };

  /** The journal row the engine writes before it creates the job: the file's identity, with `assetId` when known. */
  async function journalIntent(sync: SyncHarness, relPath: string, content: string, assetId: string | null): Promise<void> {
    const stat = await new NodeFileSystem().stat(join(sync.folder, relPath));
    const rootId = sync.engine.roots()[0]?.id ?? '';
    const local = { relPath, size: stat.size, mtimeMs: stat.mtimeMs, ino: stat.ino, dev: stat.dev, md5: md5Hex(content) };
    uploadJournal(sync.db).begin(rootId, 'NEW', 'f0', local, assetId, new Date().toISOString());
  }

  /** What the job did before the crash: empty STAGED assets filed at these remote paths. */
  async function jobAssets(paths: string[]): Promise<string[]> {
    const items = paths.map((path, index) => ({ batchItemId: `i${index}`, path, size: 1 }));
    const created = await block.service.api('POST', '/asset-and-upload-batch-jobs', { items });
    const job = await waitForJob(block.service, '/asset-and-upload-batch-jobs', created.body.result.id);
    return paths.map((_path, index) => String(job.successes[`i${index}`].assetId));
  }

  const assetCount = (): number => block.service.running.ctx.db.prepare<[], { n: number }>('SELECT count(*) AS n FROM assets').get()?.n ?? 0;

  it('adopts the empty assets after a restart, never taking one another upload already owns', async () => {
    const before = assetCount();
    const first = await startSyncHarness(block.service);
    harnesses.push(first);
    const contents = { 'Brand/a.txt': 'alpha', 'Brand/b.txt': 'bravo', 'Brand/c.txt': 'charlie' };
    for (const [relPath, content] of Object.entries(contents)) put(first, relPath, content);

    // c.txt's upload was under way: its asset is in the journal but has no file yet. It is the oldest
    // empty asset in the folder, so a search for "any empty asset of mine" finds it first.
    const [cAsset] = await jobAssets(['/Brand/c.txt']);
    await journalIntent(first, 'Brand/c.txt', contents['Brand/c.txt'], cAsset ?? null);
    await sleep(5);
    // a.txt and b.txt: the job ran, then the engine died before it recorded the answer.
    const orphans = await jobAssets(['/Brand/a.txt', '/Brand/b.txt']);
    await journalIntent(first, 'Brand/a.txt', contents['Brand/a.txt'], null);
    await journalIntent(first, 'Brand/b.txt', contents['Brand/b.txt'], null);
    expect(assetCount() - before).toBe(3);

    const sync = await first.restart();
    harnesses.push(sync);
    const result = await sync.once();
    expect(result.converged, JSON.stringify(result.reports)).toBe(true);

    const remote = await sync.assets();
    expect(remote.map((asset) => [asset.path, asset.checksum])).toEqual(Object.entries(contents).map(([relPath, content]) => [`/${relPath}`, md5Hex(content)]));
    expect(remote.find((asset) => asset.path === '/Brand/c.txt')?.id).toBe(cAsset);
    expect(new Set(remote.map((asset) => asset.id))).toEqual(new Set([cAsset, ...orphans]));
    expect(assetCount() - before).toBe(3);
    expect(uploadJournal(sync.db).all(sync.engine.roots()[0]?.id ?? '')).toEqual([]);
  });

  it('adopts on the next pass of a running engine, not only after a restart', async () => {
    const sync = await startSyncHarness(block.service, { remotePath: '/Running' });
    harnesses.push(sync);
    put(sync, 'first.txt', 'first');
    expect((await sync.once()).converged).toBe(true);
    const before = assetCount();

    // A batch whose answer was lost (the engine keeps the intent when the job may exist), in the
    // root's top folder, which maps to /Running.
    put(sync, 'late.txt', 'late');
    const [orphan] = await jobAssets(['/Running/late.txt']);
    await journalIntent(sync, 'late.txt', 'late', null);

    const result = await sync.once();
    expect(result.converged, JSON.stringify(result.reports)).toBe(true);
    expect(assetCount() - before).toBe(1);
    const remote = await sync.assets();
    expect(remote.find((asset) => asset.path === '/Running/late.txt')).toMatchObject({ id: orphan, checksum: md5Hex('late') });
  });

  it('keeps the intent when the job answer is lost while polling, and the retry adopts what the job made', async () => {
    const made: string[] = [];
    let losing = true;
    const sync = await startSyncHarness(block.service, {
      remotePath: '/Lost',
      wrapApi: (api) => ({
        ...api,
        async createAssetsWithUploads(items) {
          const outcome = await api.createAssetsWithUploads(items);
          if (!losing) return outcome;
          // The job ran (its assets exist) but the poll that would have said so failed. Every job of
          // the first sync loses its answer: files that settle a few milliseconds apart go up in
          // passes of their own.
          made.push(...Object.values(outcome.successes).map((success) => success.assetId));
          throw new ApiError({ code: 'NETWORK', message: 'GET /asset-and-upload-batch-jobs/… failed: ECONNRESET', method: 'GET', retryable: true });
        },
      }),
    });
    harnesses.push(sync);
    const before = assetCount();
    put(sync, 'a.txt', 'alpha');
    put(sync, 'b.txt', 'bravo');
    const lost = await sync.once();
    expect(lost.converged).toBe(false);
    losing = false;
    expect(made).toHaveLength(2);
    const rootId = sync.engine.roots()[0]?.id ?? '';
    expect(uploadJournal(sync.db).all(rootId).map((entry) => [entry.relPath, entry.assetId])).toEqual([
      ['a.txt', null],
      ['b.txt', null],
    ]);

    // The retry time comes (the failure backs off for seconds; the test does not wait for it).
    sync.db.prepare('UPDATE not_synced SET retry_at = 0').run();
    const retried = await sync.once();
    expect(retried.converged, JSON.stringify(retried.reports)).toBe(true);
    expect(assetCount() - before).toBe(2);
    const remote = await sync.assets();
    expect(remote.filter((asset) => asset.path.startsWith('/Lost/')).map((asset) => [asset.path, asset.checksum])).toEqual([
      ['/Lost/a.txt', md5Hex('alpha')],
      ['/Lost/b.txt', md5Hex('bravo')],
    ]);
    expect(new Set(remote.filter((asset) => asset.path.startsWith('/Lost/')).map((asset) => asset.id))).toEqual(new Set(made));
  });

  it('adopts by the job it heard of, not another client\'s empty asset in the folder (simulation seed 7342)', async () => {
    let made: string[] | undefined;
    const sync = await startSyncHarness(block.service, {
      remotePath: '/Twins',
      wrapApi: (api) => ({
        ...api,
        async createAssetsWithUploads(items, onCreated) {
          const outcome = await api.createAssetsWithUploads(items, onCreated);
          if (made !== undefined) return outcome;
          made = Object.values(outcome.successes).map((success) => success.assetId);
          throw new ApiError({ code: 'NETWORK', message: 'GET /asset-and-upload-batch-jobs/… failed: ECONNRESET', method: 'GET', retryable: true });
        },
      }),
    });
    harnesses.push(sync);
    // Another client of the same user began an upload of its own a.txt first: an empty STAGED asset of
    // the same user in the same folder, older than ours, which a search for "an empty asset of mine" finds first.
    const [theirs] = await jobAssets(['/Twins/a.txt']);
    await sleep(5);
    put(sync, 'a.txt', 'ours');
    expect((await sync.once()).converged).toBe(false);
    const rootId = sync.engine.roots()[0]?.id ?? '';
    const [entry] = uploadJournal(sync.db).all(rootId);
    expect(entry).toMatchObject({ relPath: 'a.txt', assetId: null });
    expect(entry?.jobId).toEqual(expect.any(String));

    sync.db.prepare('UPDATE not_synced SET retry_at = 0').run();
    const retried = await sync.once();
    expect(retried.converged, JSON.stringify(retried.reports)).toBe(true);
    const ours = (await block.service.api('GET', `/assets/${made?.[0] ?? ''}`)).body.result;
    expect(ours.currentAssetFile?.checksum).toBe(md5Hex('ours'));
    const other = (await block.service.api('GET', `/assets/${theirs ?? ''}`)).body.result;
    expect(other.currentAssetFile ?? null).toBeNull();
    expect(uploadJournal(sync.db).all(rootId)).toEqual([]);
  });

  it('waits while another device of the user has an empty asset in the folder, then adopts its own (simulation seed 40178)', async () => {
    const first = await startSyncHarness(block.service, { remotePath: '/Devices' });
    harnesses.push(first);
    expect((await first.once()).converged).toBe(true);
    // Another device of the same user is uploading theirs.txt: its job made an empty STAGED asset in
    // the folder, and its upload has not completed yet.
    const created = await block.service.api('POST', '/asset-and-upload-batch-jobs', { items: [{ batchItemId: 't', path: '/Devices/theirs.txt', size: 6, partUrlsRequest: { urlRequests: [] } }] });
    const theirs = (await waitForJob(block.service, '/asset-and-upload-batch-jobs', created.body.result.id)).successes.t;
    await sleep(5);
    // This device journalled ours.txt, its job made the asset, and the engine died before any answer:
    // no job id to ask, only a search for an empty asset of this user in the folder, which finds both.
    put(first, 'ours.txt', 'ours');
    await journalIntent(first, 'ours.txt', 'ours', null);
    const [orphan] = await jobAssets(['/Devices/ours.txt']);

    const sync = await first.restart();
    harnesses.push(sync);
    expect((await sync.once()).converged).toBe(false);
    const rootId = sync.engine.roots()[0]?.id ?? '';
    const waiting = sync.db.prepare<[string], { reason: string }>('SELECT reason FROM not_synced WHERE rel_path = ?').get('ours.txt');
    expect(waiting?.reason).toBe('UPLOAD_UNDECIDED');
    expect(uploadJournal(sync.db).all(rootId)).toMatchObject([{ relPath: 'ours.txt', assetId: null }]);
    const filesOf = async (assetId: string): Promise<unknown[]> => (await block.service.api('GET', `/assets/${assetId}/files`)).body.results;
    expect(await filesOf(theirs.assetId)).toEqual([]);
    expect(await filesOf(orphan ?? '')).toEqual([]);

    // The other device completes its upload: its asset has a file now, and only ours is left empty.
    const parts = await sendParts(theirs.upload, Buffer.from('theirs'));
    expect((await block.service.api('POST', '/asset-upload-completions', { assetId: theirs.assetId, uploadId: theirs.upload.uploadId, parts })).status).toBe(200);
    sync.db.prepare('UPDATE not_synced SET retry_at = 0').run();
    const retried = await sync.once();
    expect(retried.converged, JSON.stringify(retried.reports)).toBe(true);
    expect((await sync.api.getAsset(orphan ?? '')).currentAssetFile?.checksum).toBe(md5Hex('ours'));
    expect(await filesOf(theirs.assetId)).toHaveLength(1);
    expect((await sync.api.getAsset(theirs.assetId)).currentAssetFile?.checksum).toBe(md5Hex('theirs'));
    expect(uploadJournal(sync.db).all(rootId)).toEqual([]);
  });

  it('counts the upload a restart finished as work done, so whoever waits for a quiet pass looks again', async () => {
    // Simulation seed 23: the restarted client finished the upload in a pass that said "0 operations";
    // the simulation's settle loop (like any caller that reads 0 as "at rest") stopped there, before
    // the other client had a pass that could see the file.
    const first = await startSyncHarness(block.service, { remotePath: '/Reported' });
    harnesses.push(first);
    put(first, 'a.txt', 'alpha');
    const [orphan] = await jobAssets(['/Reported/a.txt']);
    await journalIntent(first, 'a.txt', 'alpha', null);

    const sync = await first.restart();
    harnesses.push(sync);
    const result = await sync.once();
    expect(result.converged, JSON.stringify(result.reports)).toBe(true);
    expect(result.reports[0]).toMatchObject({ uploaded: 1, operations: 1, failed: 0 });
    expect(result.reports.at(-1)).toMatchObject({ operations: 0 });

    const other = await startSyncHarness(block.service, { remotePath: '/Reported' });
    harnesses.push(other);
    expect((await other.once()).converged).toBe(true);
    expect(readFileSync(join(other.folder, 'a.txt'), 'utf8')).toBe('alpha');
    expect((await other.assets()).filter((asset) => asset.path.startsWith('/Reported/')).map((asset) => asset.id)).toEqual([orphan]);
  });

  it('bins the empty assets of uploads whose files were deleted while the engine was down, and converges', async () => {
    const first = await startSyncHarness(block.service, { remotePath: '/Deleted' });
    harnesses.push(first);
    put(first, 'kept.txt', 'kept');
    put(first, 'known.txt', 'known');
    put(first, 'orphan.txt', 'orphan');
    const [known, orphan] = await jobAssets(['/Deleted/known.txt', '/Deleted/orphan.txt']);
    await journalIntent(first, 'known.txt', 'known', known ?? null);
    await journalIntent(first, 'orphan.txt', 'orphan', null);
    rmSync(join(first.folder, 'known.txt'));
    rmSync(join(first.folder, 'orphan.txt'));

    const sync = await first.restart();
    harnesses.push(sync);
    const result = await sync.once();
    expect(result.converged, JSON.stringify(result.reports)).toBe(true);
    expect(result.reports.reduce((sum, report) => sum + report.failed, 0)).toBe(0);
    expect((await sync.api.getAsset(known ?? '')).lifecycleStatus.state).toBe('BINNED');
    expect((await sync.api.getAsset(orphan ?? '')).lifecycleStatus.state).toBe('BINNED');
    expect((await sync.assets()).filter((asset) => asset.path.startsWith('/Deleted/')).map((asset) => asset.path)).toEqual(['/Deleted/kept.txt']);
  });
  it('bins the empty assets of uploads that no upload will finish, in a running engine', async () => {
    // Simulation seeds 1121 and 1233: a new file's upload failed (or its job's answer was lost), then
    // the file was renamed, or a colleague's file took its path and ours became a conflict copy. Only
    // a restart looked at such journal entries: the running engine left the job's asset live, empty.
    const sync = await startSyncHarness(block.service, { remotePath: '/Abandoned' });
    harnesses.push(sync);
    put(sync, 'taken.txt', 'theirs');
    expect((await sync.once()).converged).toBe(true);
    const taken = (await sync.assets()).find((asset) => asset.path === '/Abandoned/taken.txt');

    put(sync, 'renamed.txt', 'renamed');
    put(sync, 'deleted.txt', 'deleted');
    const [renamed, deleted, ours] = await jobAssets(['/Abandoned/renamed.txt', '/Abandoned/deleted.txt', '/Abandoned/taken.txt']);
    await journalIntent(sync, 'renamed.txt', 'renamed', renamed ?? null);
    await journalIntent(sync, 'deleted.txt', 'deleted', null);
    // The entry of our own upload to taken.txt, whose path the synced asset now holds.
    await journalIntent(sync, 'taken.txt', 'theirs', ours ?? null);
    rmSync(join(sync.folder, 'renamed.txt'));
    put(sync, 'moved.txt', 'renamed');
    rmSync(join(sync.folder, 'deleted.txt'));

    const result = await sync.once();
    expect(result.converged, JSON.stringify(result.reports)).toBe(true);
    for (const assetId of [renamed, deleted, ours]) expect((await sync.api.getAsset(assetId ?? '')).lifecycleStatus.state).toBe('BINNED');
    const remote = (await sync.assets()).filter((asset) => asset.path.startsWith('/Abandoned/'));
    expect(remote.map((asset) => [asset.path, asset.checksum])).toEqual([
      ['/Abandoned/moved.txt', md5Hex('renamed')],
      ['/Abandoned/taken.txt', md5Hex('theirs')],
    ]);
    expect(remote.find((asset) => asset.path === '/Abandoned/taken.txt')?.id).toBe(taken?.id);
    expect(uploadJournal(sync.db).all(sync.engine.roots()[0]?.id ?? '')).toEqual([]);
  });
});
