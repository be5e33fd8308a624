/**
 * DESIGN.md §3 "uploads are resumable" and §4.5 "no duplicates", with a real crash: the CLI runs as a
 * child process syncing one 48 MiB file (three 16 MiB parts) through a counting proxy in front of the
 * service, is SIGKILLed with one part confirmed and another mid-flight, and the next `sync --once` must
 * finish the same asset sending only the parts the service does not have.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/test-service.js';
import { listeningUrl, startCountingProxy, type CountingProxy } from '../support/counting-proxy.js';
import { cli, runCliChild, spawnCli, type CliChild } from '../support/cli-runner.js';
import { MiB, randomFile } from '../support/upload-helpers.js';
import { md5Hex } from '../support/checksums.js';
import { until } from '../support/until.js';
import { tempDir } from '../support/temp-dir.js';

interface JournalRow {
  asset_id: string | null;
  upload_id: string | null;
  part_size: number | null;
  parts: string;
}

/** The upload journal of a state dir, read the way another process sees it (undefined until it exists). */
function readJournal(stateDir: string): JournalRow[] {
  try {
    const db = new Database(join(stateDir, 'state.db'), { readonly: true, fileMustExist: true });
    try {
      return db.prepare<[], JournalRow>('SELECT asset_id, upload_id, part_size, parts FROM uploads').all();
    } finally {
      db.close();
    }
  } catch {
    return [];
  }
}

describe('sync killed mid-upload', () => {
  let proxy: CountingProxy;
  let service: TestService;
  let child: CliChild | undefined;
  const folder = tempDir('asset-sync-crash-root-');
  const stateDir = tempDir('asset-sync-crash-state-');

  beforeAll(async () => {
    proxy = await startCountingProxy();
    // Part URLs are built from publicUrl, so the parts go through the proxy too.
    service = await startTestService({ publicUrl: proxy.url });
    proxy.target = listeningUrl(service);
  });
  afterAll(async () => {
    await child?.kill();
    await service.dispose();
    await proxy.close();
  });

  it('resumes the same asset and sends only the parts the service did not confirm', { timeout: 120_000 }, async () => {
    const total = 48 * MiB;
    const bytes = randomFile(total);
    mkdirSync(join(folder, 'Video'));
    writeFileSync(join(folder, 'Video', 'big.bin'), bytes);
    const env = { ASSET_SYNC_TOKEN: await service.token() };
    const args = ['sync', '--server', proxy.url, '--folder', folder, '--state', stateDir, '--once', '--stable-ms', '100', '--publish', 'live'];

    // One part goes through whole; the others stall after 4 MiB, so the kill lands mid-part. Whether
    // the third part is in flight too depends on the rate the first one went at (part-window.ts).
    proxy.holdParts = { passParts: 1, stallAfterBytes: 4 * MiB };
    child = spawnCli(args, { env });
    const progress = (): string => `proxy saw ${proxy.partBytes} part bytes; the CLI said: ${child?.err ?? ''}`;
    const confirmed = await until('a part in the journal', () => {
      const row = readJournal(stateDir)[0];
      return row !== undefined && Object.keys(JSON.parse(row.parts) as object).length > 0 ? row : undefined;
    }, { context: progress, timeoutMs: 30_000 });
    await until('a stalled part to reach the proxy', () => (proxy.partBytes >= 16 * MiB + 4 * MiB ? true : undefined), { context: progress, timeoutMs: 30_000 });
    await child.kill();
    expect(child.process.signalCode).toBe('SIGKILL');

    // What the service holds at the kill: exactly the part the client journalled.
    const db = service.running.ctx.db;
    const held = db.prepare<[string], { part_number: number; size: number }>('SELECT part_number, size FROM upload_parts WHERE upload_id = ? ORDER BY part_number').all(confirmed.upload_id ?? '');
    const journalled = readJournal(stateDir);
    expect(journalled).toHaveLength(1);
    expect(Object.keys(JSON.parse(journalled[0]?.parts ?? '{}') as object).map(Number)).toEqual(held.map((part) => part.part_number));
    expect(held).toHaveLength(1);
    expect(confirmed.part_size).toBe(16 * MiB);
    const receivedBefore = held.reduce((sum, part) => sum + part.size, 0);
    expect(receivedBefore).toBe(16 * MiB);
    const status = await cli(['status', '--state', stateDir]);
    expect(status.out, status.err).toContain('uploading Video/big.bin (1 part done)');

    proxy.holdParts = undefined;
    proxy.reset();
    const resumed = await runCliChild(args, { env });
    expect(resumed.code, resumed.err).toBe(0);

    // Exact: the restarted client sends the parts its journal lacks, and its journal holds exactly the
    // parts the service stored (the test waited for that before the kill). The 4 MiB of each stalled
    // part that reached the service before the kill were never stored (an aborted part is discarded),
    // so the two parts go again in full and nothing else does. Without the wait the bound would be
    // total − received ≤ sent ≤ total − journalled: a part the service stored in the instant before
    // the kill, but the client had not yet journalled, is sent again.
    expect(proxy.partBytes).toBe(total - receivedBefore);
    expect(proxy.partsAnswered).toBe(2);

    const assets = db.prepare<[], { id: string; current_file_id: string | null; state: string }>('SELECT id, current_file_id, state FROM assets').all();
    expect(assets).toHaveLength(1);
    expect(assets[0]?.id).toBe(confirmed.asset_id);
    // Published like an upload that never stopped (`--publish live`).
    expect(assets[0]?.state).toBe('LIVE');
    const file = db.prepare<[string], { checksum: string; size: number; filename: string }>('SELECT checksum, size, filename FROM asset_files WHERE id = ?').get(assets[0]?.current_file_id ?? '');
    expect(file).toEqual({ checksum: md5Hex(bytes), size: total, filename: 'big.bin' });
    expect(readJournal(stateDir)).toEqual([]);
    expect((await cli(['status', '--state', stateDir])).out).toContain('up to date · 1 synced of 1 local file');
  });
});
