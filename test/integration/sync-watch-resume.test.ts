/**
 * Issue 15.1: a watching sync resumes an upload across an outage the way a restarted process does.
 * The engine watches a folder with one 48 MiB file (three 16 MiB parts) through a counting proxy; the
 * service is stopped with one part confirmed and the next mid-flight, stays down until the engine has given
 * up on this attempt (the file is "not synced"), and starts again on the same data directory. What the
 * service then receives must be at most the bytes it had not confirmed: before the fix the running
 * engine began a fresh upload and sent the whole file again.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/test-service.js';
import { listeningUrl, startCountingProxy, type CountingProxy } from '../support/counting-proxy.js';
import { startSyncHarness, type SyncHarness } from '../support/sync-harness.js';
import { MiB, randomFile } from '../support/upload-helpers.js';
import { until } from '../support/until.js';
import { md5Hex } from '../support/checksums.js';

interface JournalRow {
  upload_id: string | null;
  part_size: number | null;
  parts: string;
}

describe('a watching sync across a service restart', () => {
  let proxy: CountingProxy;
  let service: TestService;
  let harness: SyncHarness;

  beforeAll(async () => {
    proxy = await startCountingProxy();
    // Part URLs are built from publicUrl, so the parts go through the proxy too, before and after the restart.
    service = await startTestService({ publicUrl: proxy.url });
    proxy.target = listeningUrl(service);
    harness = await startSyncHarness(service, { remote: { pollIntervalMs: 100 } });
  });
  afterAll(async () => {
    await harness.dispose();
    await service.dispose();
    await proxy.close();
  });

  it('sends only the parts the service had not confirmed', { timeout: 120_000 }, async () => {
    const total = 48 * MiB;
    const bytes = randomFile(total);
    mkdirSync(join(harness.folder, 'Video'));
    writeFileSync(join(harness.folder, 'Video', 'big.bin'), bytes);
    const journal = (): JournalRow | undefined => harness.db.prepare<[], JournalRow>('SELECT upload_id, part_size, parts FROM uploads').get();
    const confirmedParts = (): number => Object.keys(JSON.parse(journal()?.parts ?? '{}') as object).length;
    const issue = (): { reason: string } | undefined => harness.db.prepare<[string], { reason: string }>('SELECT reason FROM not_synced WHERE rel_path = ?').get('Video/big.bin');
    const progress = (): string => `proxy saw ${proxy.partBytes} part bytes; journal ${JSON.stringify(journal())}; issue ${JSON.stringify(issue())}`;

    // One part goes through whole; the others stall after 4 MiB, so the outage lands mid-part. Whether the
    // third part is in flight too depends on the rate the first one was confirmed at (part-window.ts: on
    // a loaded machine the window lets one part at a time go), so the test waits for one stalled part.
    proxy.holdParts = { passParts: 1, stallAfterBytes: 4 * MiB };
    const controller = new AbortController();
    const watching = harness.engine.watch(controller.signal);
    try {
      await until('a confirmed part in the journal', () => (confirmedParts() > 0 ? true : undefined), { context: progress });
      await until('a stalled part to reach the proxy', () => (proxy.partBytes >= 16 * MiB + 4 * MiB ? true : undefined), { context: progress });
      const uploadId = journal()?.upload_id;

      await service.stop();
      proxy.holdParts = undefined;
      // Down long enough for the engine to give up on this attempt: its retry is the next pass's.
      await until('the engine to report the file not synced', () => issue(), { context: progress });
      expect(journal()?.upload_id).toBe(uploadId);
      const confirmedBytes = confirmedParts() * (journal()?.part_size ?? 0);
      expect(confirmedBytes).toBe(16 * MiB);

      proxy.reset();
      service = await service.restart();
      proxy.target = listeningUrl(service);
      const db = service.running.ctx.db;
      const file = await until(
        'the upload to complete after the restart',
        () => db.prepare<[], { checksum: string; size: number }>('SELECT f.checksum, f.size FROM assets a JOIN asset_files f ON f.id = a.current_file_id').get(),
        { context: progress },
      );
      expect(file).toEqual({ checksum: md5Hex(bytes), size: total });
      // The parts the service took after the restart are exactly the unconfirmed ones (before the fix:
      // a fresh upload, all three). Counted by answered parts: on a loaded machine a part can be cut
      // off by a transport error and retried, and its first bytes cross the wire twice.
      expect(proxy.partsAnswered).toBe(2);
      expect(proxy.answeredPartBytes).toBe(total - confirmedBytes);
      expect(db.prepare<[], { n: number }>('SELECT count(*) AS n FROM assets').get()?.n).toBe(1);
      await until('the journal to clear', () => (journal() === undefined && issue() === undefined ? true : undefined), { context: progress });
    } finally {
      controller.abort();
      await watching;
    }
  });
});
