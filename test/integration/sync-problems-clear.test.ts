/**
 * Issue 15.4: a "not synced" report lasts only as long as its cause. A folder that could not be listed
 * (EACCES) and a file that could not be read are reported; once their permission is fixed the next pass
 * syncs them and the reports go, for `sync --once` and for a watching engine that no watcher event
 * wakes (a chmod is not reported on every platform). Tests run as root, where mode 000 denies nothing,
 * so the permission error comes from a FileSystem wrapper around the real disk; the service is real.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { NodeFileSystem } from '../../src/main/local/index.js';
import { ApiError, type AssetApi } from '../../src/main/api/index.js';
import { startTestService, type TestService } from '../support/test-service.js';
import { startSyncHarness, type SyncHarness } from '../support/sync-harness.js';
import { DenyingFileSystem } from '../support/denying-file-system.js';
import { cli } from '../support/cli-runner.js';
import { until } from '../support/until.js';

describe('problems clear when their cause does', () => {
  let service: TestService;
  let harness: SyncHarness | undefined;

  beforeAll(async () => {
    service = await startTestService();
  });
  afterEach(async () => {
    await harness?.dispose();
    harness = undefined;
  });
  afterAll(async () => {
    await service.dispose();
  });

  const put = (folder: string, relPath: string, content: string): void => {
    mkdirSync(join(folder, relPath, '..'), { recursive: true });
    writeFileSync(join(folder, relPath), content);
  };
  const notSynced = (sync: SyncHarness): string[] => (sync.engine.store.status()[0]?.notSynced ?? []).map((issue) => `${issue.relPath}: ${issue.reason}`);

  it('a folder whose permission is fixed between two --once passes leaves nothing in status', { timeout: 60_000 }, async () => {
    const fs = new DenyingFileSystem(new NodeFileSystem());
    const sync = await startSyncHarness(service, { fs, remotePath: '/Fixed' });
    harness = sync;
    put(sync.folder, 'open.txt', 'anyone may read this');
    put(sync.folder, 'Locked/inside.txt', 'behind a permission');
    put(sync.folder, 'Locked/Deeper/deep.txt', 'further in');
    fs.deny(join(sync.folder, 'Locked'));

    const first = await sync.once();
    expect(first.converged).toBe(false);
    expect(notSynced(sync)).toEqual(['Locked: UNREADABLE']);

    fs.allow(join(sync.folder, 'Locked'));
    const second = await sync.once();
    expect(notSynced(sync)).toEqual([]);
    expect(second.converged).toBe(true);
    expect((await sync.assets()).filter((asset) => asset.path.startsWith('/Fixed/')).map((asset) => asset.path)).toEqual(['/Fixed/Locked/Deeper/deep.txt', '/Fixed/Locked/inside.txt', '/Fixed/open.txt']);
    const status = await cli(['status', '--state', sync.stateDir]);
    expect(status.out).toContain('up to date');
    expect(status.out).not.toContain('not synced');
  });

  it('a watching engine re-checks what it could not read on its next pass, without a watcher event', { timeout: 60_000 }, async () => {
    const fs = new DenyingFileSystem(new NodeFileSystem());
    // No watcher: only the passes the remote poll brings, as when a chmod raises no event.
    const sync = await startSyncHarness(service, { fs, remotePath: '/Watched', remote: { pollIntervalMs: 100 } });
    harness = sync;
    put(sync.folder, 'open.txt', 'anyone may read this');
    put(sync.folder, 'secret.txt', 'not for now');
    put(sync.folder, 'Locked/inside.txt', 'behind a permission');
    fs.deny(join(sync.folder, 'secret.txt'));
    fs.deny(join(sync.folder, 'Locked'));

    const controller = new AbortController();
    const watching = sync.engine.watch(controller.signal);
    try {
      await until('both reports', () => (notSynced(sync).length === 2 ? true : undefined), { context: () => notSynced(sync).join(', '), timeoutMs: 20_000 });
      expect(notSynced(sync)).toEqual(['Locked: UNREADABLE', 'secret.txt: UNREADABLE']);
      fs.allow(join(sync.folder, 'secret.txt'));
      fs.allow(join(sync.folder, 'Locked'));
      await until('the reports to clear', () => (notSynced(sync).length === 0 ? true : undefined), { context: () => notSynced(sync).join(', '), timeoutMs: 20_000 });
      const paths = await until('the files to upload', async () => {
        const found = (await sync.assets()).filter((asset) => asset.path.startsWith('/Watched/'));
        return found.length === 3 && found.every((asset) => asset.checksum !== undefined) ? found.map((asset) => asset.path) : undefined;
      }, { context: () => notSynced(sync).join(', '), timeoutMs: 20_000 });
      expect(paths).toEqual(['/Watched/Locked/inside.txt', '/Watched/open.txt', '/Watched/secret.txt']);
    } finally {
      controller.abort();
      await watching;
    }
  });

  it('an upload that failed clears once the path needs it no more (the edit undone)', { timeout: 60_000 }, async () => {
    let refuse = false;
    const wrapApi = (api: AssetApi): AssetApi => {
      const wrapped: AssetApi = Object.create(api) as AssetApi;
      wrapped.createUpload = (item) => (refuse ? Promise.reject(new ApiError({ code: 'SERVICE_UNAVAILABLE', message: 'The service is busy.', status: 503, retryable: true })) : api.createUpload(item));
      return wrapped;
    };
    const sync = await startSyncHarness(service, { remotePath: '/Undone', wrapApi });
    harness = sync;
    put(sync.folder, 'brief.txt', 'the first draft');
    expect((await sync.once()).converged).toBe(true);

    // An edit whose version cannot be sent: reported, with a retry in a few seconds.
    refuse = true;
    put(sync.folder, 'brief.txt', 'an edit');
    expect((await sync.once()).converged).toBe(false);
    expect(notSynced(sync)).toEqual(['brief.txt: SERVICE_UNAVAILABLE']);

    // Undone before the retry: the file holds the synced bytes again, nothing is left to send.
    refuse = false;
    put(sync.folder, 'brief.txt', 'the first draft');
    sync.db.prepare('UPDATE not_synced SET retry_at = 0').run();
    const again = await sync.once();
    expect(notSynced(sync)).toEqual([]);
    expect(again.converged).toBe(true);
  });
});
