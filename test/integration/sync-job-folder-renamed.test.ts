/**
 * A new file's asset-and-upload job ran and its id was heard, but its outcome was lost; before the
 * retry a colleague renamed the file's folder on the service (`C` → `D`: the option keeps its id, the
 * job's empty asset goes with it) and put a file into a new `C`, so the local `C` now maps to that new
 * folder and stays where it is. The retry must not fill the job's asset: it sits in `D`, and filled it
 * was filed in both `D` and `C` (a second copy of the file on every disk). It goes to the bin and the
 * file gets a new asset in `C` (simulation seed 50174's class; sim/job-folder-renamed.test.ts runs the
 * search by folder when no job id was heard).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/main/api/index.js';
import { uploadJournal } from '../../src/main/db/upload-journal.js';
import { serviceForBlock, startSyncHarness } from '../support/sync-harness.js';
import { uploadNewAsset } from '../support/upload-helpers.js';
import { md5Hex } from '../support/checksums.js';

describe("a lost upload job's folder renamed on the service before the retry", () => {
  const block = serviceForBlock();
  const { harnesses } = block;

  it('bins the job\'s empty asset in the renamed folder and uploads the file where its path leads', async () => {
    let made: string | undefined;
    const sync = await startSyncHarness(block.service, {
      remotePath: '/Heard',
      wrapApi: (api) => ({
        ...api,
        async createAssetsWithUploads(items, onCreated) {
          const outcome = await api.createAssetsWithUploads(items, onCreated);
          if (made !== undefined) return outcome;
          // The job ran and its id was journalled; the poll that would have told its assets failed.
          made = Object.values(outcome.successes)[0]?.assetId;
          throw new ApiError({ code: 'NETWORK', message: 'GET /asset-and-upload-batch-jobs/… failed: ECONNRESET', method: 'GET', retryable: true });
        },
      }),
    });
    harnesses.push(sync);
    mkdirSync(join(sync.folder, 'C'));
    writeFileSync(join(sync.folder, 'C', 'logo.txt'), 'ours');
    expect((await sync.once()).converged).toBe(false);
    const rootId = sync.engine.roots()[0]?.id ?? '';
    expect(uploadJournal(sync.db).all(rootId)).toMatchObject([{ relPath: 'C/logo.txt', assetId: null, jobId: expect.any(String), folderOption: expect.any(String) }]);

    // The colleague renames C to D and writes a file into a new C.
    const fieldId = await sync.api.foldersFieldId();
    const heard = (await sync.api.listFieldOptionChildren(fieldId, null)).find((option) => option.value === 'Heard');
    const folderC = (await sync.api.listFieldOptionChildren(fieldId, heard?.id ?? null)).find((option) => option.value === 'C');
    await sync.api.changeFieldOption(folderC?.id ?? '', { value: 'D' });
    await uploadNewAsset(block.service, '/Heard/C/other.txt', Buffer.from('theirs'));

    sync.db.prepare('UPDATE not_synced SET retry_at = 0').run();
    const retried = await sync.once();
    expect(retried.converged, JSON.stringify(retried.reports)).toBe(true);
    const remote = (await sync.assets()).filter((asset) => asset.path.startsWith('/Heard/'));
    expect(remote.map((asset) => [asset.path, asset.checksum])).toEqual([
      ['/Heard/C/logo.txt', md5Hex('ours')],
      ['/Heard/C/other.txt', md5Hex('theirs')],
    ]);
    const job = (await block.service.api('GET', `/assets/${made ?? ''}`)).body.result;
    expect(job.lifecycleStatus.state).toBe('BINNED');
    expect(job.currentAssetFile ?? null).toBeNull();
    expect(uploadJournal(sync.db).all(rootId)).toEqual([]);
  });
});
