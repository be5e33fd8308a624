/**
 * A download killed mid-way resumes instead of starting over (DESIGN.md §3): the partial temp file in
 * the root's `.asset-sync/downloads/` (keyed by file id and checksum) survives a restart of the engine,
 * the next download asks for the rest with `Range` from the bytes on disk, and the file lands whole,
 * verified, and never appears at its final path half-written.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient, AssetApi, DownloadResult, DownloadToFileOptions } from '../../src/main/api/index.js';
import { startSyncHarness, type SyncHarness } from '../support/sync-harness.js';
import { startTestService, type TestService } from '../support/test-service.js';
import { colleague, total } from '../support/two-way.js';

interface Call {
  resumeFrom: number;
  result?: DownloadResult;
  moved: number;
}

/** Records every downloadToFile; with `abortAfter`, cuts the first one after that many bytes. */
function recording(calls: Call[], abortAfter?: number): (api: ApiClient) => AssetApi {
  return (api) => {
    const wrapped: AssetApi = Object.create(api) as AssetApi;
    wrapped.downloadToFile = async (url: string, tempPath: string, options: DownloadToFileOptions = {}) => {
      const call: Call = { resumeFrom: options.resumeFrom ?? 0, moved: 0 };
      calls.push(call);
      const controller = new AbortController();
      const result = await api.downloadToFile(url, tempPath, {
        ...options,
        signal: controller.signal,
        onProgress: (bytes) => {
          call.moved = bytes;
          if (abortAfter !== undefined && calls.length === 1 && bytes >= abortAfter) controller.abort();
        },
      });
      call.result = result;
      return result;
    };
    return wrapped;
  };
}

describe('an interrupted download', () => {
  let service: TestService;
  let scratch: SyncHarness;
  const size = 6 * 1024 * 1024 + 123;
  const bytes = randomBytes(size);

  beforeAll(async () => {
    service = await startTestService();
    scratch = await startSyncHarness(service, { remotePath: '/Scratch' });
    await colleague(service, scratch.api).upload('/Big/big.bin', bytes);
  });
  afterAll(async () => {
    await scratch.dispose();
    await service.dispose();
  });

  it('resumes with Range from the bytes already on disk after a restart', async () => {
    const first: Call[] = [];
    let me = await startSyncHarness(service, { remotePath: '/Big', wrapApi: recording(first, 2 * 1024 * 1024) });
    try {
      await me.once();
      expect(first).toHaveLength(1);
      expect(existsSync(join(me.folder, 'big.bin'))).toBe(false);
      const downloads = join(me.folder, '.asset-sync/downloads');
      const partials = readdirSync(downloads);
      expect(partials).toHaveLength(1);
      const kept = statSync(join(downloads, partials[0] ?? '')).size;
      expect(kept).toBeGreaterThan(0);
      expect(kept).toBeLessThan(size);

      // The engine stops (the process is gone); a new one on the same state and folder carries on.
      me.engine.close();
      me.api.close();
      const second: Call[] = [];
      me = await startSyncHarness(service, { remotePath: '/Big', folder: me.folder, stateDir: me.stateDir, wrapApi: recording(second) });
      const result = await me.once();
      expect(result.converged).toBe(true);
      expect(total(result, 'downloaded')).toBe(1);
      expect(second).toHaveLength(1);
      expect(second[0]?.resumeFrom).toBe(kept);
      expect(second[0]?.result).toMatchObject({ resumed: true, size });
      expect(second[0]?.moved).toBe(size - kept);
      expect(total(result, 'bytesReceived')).toBe(size - kept);
      expect(readFileSync(join(me.folder, 'big.bin')).equals(bytes)).toBe(true);
      expect(readdirSync(downloads)).toEqual([]);
      // Landed files are not news: the next pass sends nothing back.
      const again = await me.once();
      expect(again.reports.every((report) => report.operations === 0)).toBe(true);
    } finally {
      await me.dispose();
    }
  });
});
