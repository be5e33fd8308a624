/**
 * The change feed end to end [ours]: an engine watching with polls an hour apart, so whatever reaches
 * its folder in these tests came through the service's change feed (or a full listing it caused).
 */
import { cpSync, existsSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient, staticTokenProvider } from '../../src/main/api/index.js';
import { createEngine } from '../../src/main/engine/index.js';
import { NodeFileSystem, createFreedesktopTrash, systemClock } from '../../src/main/local/index.js';
import { startTestService, type TestService } from '../support/test-service.js';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.js';
import { uploadNewAsset } from '../support/upload-helpers.js';
import { until } from '../support/until.js';
import { tempDir } from '../support/temp-dir.js';

const HOUR = 3_600_000;

/** The service's database (what a backup restores; blobs are content-addressed and only ever added). */
function copyDatabase(from: string, to: string): void {
  for (const name of readdirSync(to)) if (name.startsWith('service.db')) rmSync(join(to, name));
  for (const name of readdirSync(from)) if (name.startsWith('service.db')) cpSync(join(from, name), join(to, name));
}

/** A bound for a failing test, not a timing claim: the feed delivers in well under a second. */
const FEED_WAIT = { timeoutMs: 20_000 };

interface Watching {
  folder: string;
  logs: string[];
  has(name: string): boolean;
  stop(): Promise<void>;
}

/** An engine watching `remotePath` through `server`, once it follows the feed. */
async function watch(server: string, token: string, remotePath: string): Promise<Watching> {
  const folder = tempDir('asset-sync-feed-root-');
  const stateDir = tempDir('asset-sync-feed-state-');
  const api = createApiClient({ server, tokens: staticTokenProvider(token) });
  const logs: string[] = [];
  const engine = createEngine(
    { stateDir, server, stableMs: 40, remote: { pollIntervalMs: HOUR, fullIntervalMs: HOUR } },
    { api, fs: new NodeFileSystem(), clock: systemClock, trash: createFreedesktopTrash({ dataHome: join(stateDir, 'trash-home') }), log: (event) => logs.push(event.message) },
  );
  await engine.addRoot({ path: folder, remotePath, publishLive: false });
  const controller = new AbortController();
  const watching = engine.watch(controller.signal);
  await until('the engine to follow the feed', () => logs.some((message) => message.startsWith('Following')), FEED_WAIT);
  return {
    folder,
    logs,
    has: (name) => existsSync(join(folder, name)),
    async stop() {
      controller.abort();
      await watching;
      engine.close();
      api.close();
    },
  };
}

describe('sync: the service change feed', () => {
  let service: TestService;
  let token: string;
  beforeAll(async () => {
    service = await startTestService();
    token = await service.token();
  });
  afterAll(async () => {
    await service.dispose();
  });

  it('puts a change made through the API on disk while the client waits on the feed', async () => {
    await uploadNewAsset(service, '/Feed1/before.txt', Buffer.from('before'));
    const client = await watch(service.url, token, '/Feed1');
    try {
      await until('the first listing', () => client.has('before.txt'), FEED_WAIT);
      await uploadNewAsset(service, '/Feed1/colleague.txt', Buffer.from('from a colleague'));
      await until('the change on disk', () => client.has('colleague.txt'), FEED_WAIT);
      expect(readFileSync(join(client.folder, 'colleague.txt'), 'utf8')).toBe('from a colleague');
    } finally {
      await client.stop();
    }
  });

  it('delivers a change made while the connection was down once it is back', async () => {
    let proxy: TcpProxy | undefined;
    let client: Watching | undefined;
    try {
      proxy = await startTcpProxy(service.url);
      client = await watch(proxy.url, token, '/Feed2');
      const watching = client;
      await uploadNewAsset(service, '/Feed2/first.txt', Buffer.from('first'));
      await until('the first change', () => watching.has('first.txt'), FEED_WAIT);
      proxy.cut();
      await until('the drop to be noticed', () => watching.logs.some((message) => message.includes('dropped')), FEED_WAIT);
      await uploadNewAsset(service, '/Feed2/while-down.txt', Buffer.from('made while the client was cut off'));
      expect(watching.has('while-down.txt')).toBe(false);
      const follows = watching.logs.filter((message) => message.startsWith('Following')).length;
      proxy.restore();
      await until('the change after reconnecting', () => watching.has('while-down.txt'), FEED_WAIT);
      // It came through the feed again (a poll was an hour away).
      expect(watching.logs.filter((message) => message.startsWith('Following')).length).toBeGreaterThanOrEqual(follows);
    } finally {
      await client?.stop();
      await proxy?.close();
    }
  });

  it('lists in full when a restarted service no longer knows the cursor (restored from a backup), missing nothing', async () => {
    const port = Number(new URL(service.url).port);
    await uploadNewAsset(service, '/Feed3/kept.txt', Buffer.from('kept'));
    const backup = tempDir('asset-sync-feed-backup-');
    const client = await watch(service.url, token, '/Feed3');
    try {
      await until('the first listing', () => client.has('kept.txt'), FEED_WAIT);
      await service.stop();
      copyDatabase(service.dataDir, backup);
      service = await service.restart({ port });
      await uploadNewAsset(service, '/Feed3/lost.txt', Buffer.from('lost with the restore'));
      await until('the change before the restore', () => client.has('lost.txt'), FEED_WAIT);

      // The service comes back from the backup: behind the client's cursor, and without lost.txt.
      await service.stop();
      copyDatabase(backup, service.dataDir);
      service = await service.restart({ port });
      await uploadNewAsset(service, '/Feed3/after.txt', Buffer.from('after the restore'));

      await until('the change after the restore', () => client.has('after.txt'), FEED_WAIT);
      // Only a full listing sees that lost.txt is gone from the service (to the trash, not deleted).
      await until('the full listing', () => !client.has('lost.txt'), FEED_WAIT);
      expect(client.logs.some((message) => message.includes('listing every folder in full'))).toBe(true);
      expect(client.has('kept.txt')).toBe(true);
    } finally {
      await client.stop();
    }
  });
});
