import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { startTestService, type TestService } from '../../support/test-service.js';
import { putPart, randomFile, sendParts, waitForJob } from '../../support/upload-helpers.js';
import { fakeClock } from '../../support/test-users.js';
import { md5Hex } from '../../support/checksums.js';

// Records every file the service opens to sync or read through descriptor-calls.ts (all calls still go through).
const opened = vi.hoisted(() => [] as { path: string; flags: string | number }[]);
vi.mock('../../../src/service/io/descriptor-calls.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../../src/service/io/descriptor-calls.js')>();
  return {
    ...actual,
    withDescriptor: (path: string, flags: string | number, use: (fd: number) => Promise<unknown>) => {
      opened.push({ path, flags });
      return actual.withDescriptor(path, flags, use);
    },
  };
});

describe('what completing an upload does to its file', () => {
  const clock = fakeClock();
  let service: TestService;
  beforeAll(async () => {
    // 1,000 s before an upload counts as abandoned: its activity is kept to within 10 s.
    service = await startTestService({ uploadAbandonAfter: 1000 }, { clock });
  });
  afterAll(async () => {
    await service.dispose();
  });

  const openUpload = async (path: string, size: number): Promise<{ assetId: string; upload: any; file: string }> => {
    const created = await service.api('POST', '/asset-and-upload-batch-jobs', { items: [{ batchItemId: 'a', path, size }] });
    const { assetId, upload } = (await waitForJob(service, '/asset-and-upload-batch-jobs', created.body.result.id)).successes.a;
    return { assetId, upload, file: join(service.dataDir, 'uploads', `${upload.uploadId}.upload`) };
  };
  const complete = (assetId: string, upload: any, parts: { partNumber: number; eTag: string }[]) =>
    service.api('POST', '/asset-upload-completions', { assetId, uploadId: upload.uploadId, parts });
  const syncsOf = (file: string): number => opened.filter((call) => call.path === file && call.flags === 'r+').length;

  it('does not sync the file again when every part was synced and the size is right', async () => {
    const bytes = randomFile(3000);
    const { assetId, upload, file } = await openUpload('/io/plain.bin', bytes.length);
    const parts = await sendParts(upload, bytes);
    const done = await complete(assetId, upload, parts);
    expect(done.body.result.currentAssetFile).toMatchObject({ size: 3000, checksum: md5Hex(bytes) });
    expect(syncsOf(file)).toBe(0);
  });

  it('syncs a file it had to cut to size', async () => {
    const bytes = randomFile(3000);
    const { assetId, upload, file } = await openUpload('/io/longer.bin', bytes.length);
    const parts = await sendParts(upload, bytes);
    appendFileSync(file, 'stray bytes past the end');
    const done = await complete(assetId, upload, parts);
    expect(done.body.result.currentAssetFile).toMatchObject({ size: 3000, checksum: md5Hex(bytes) });
    expect(syncsOf(file)).toBe(1);
  });

  it('syncs an empty file, whose one part had no bytes to sync', async () => {
    const { assetId, upload, file } = await openUpload('/io/empty.bin', 0);
    const parts = await sendParts(upload, Buffer.alloc(0));
    expect((await complete(assetId, upload, parts)).body.result.currentAssetFile).toMatchObject({ size: 0, checksum: md5Hex(Buffer.alloc(0)) });
    expect(syncsOf(file)).toBe(1);
  });

  it('writes an upload\'s activity on a part PUT only once the recorded one is 10 s old', async () => {
    const bytes = randomFile(100);
    const { upload } = await openUpload('/io/active.bin', bytes.length);
    const activity = (): number | undefined =>
      service.running.ctx.db.prepare<[string], { last_activity: number }>('SELECT last_activity FROM uploads WHERE upload_id = ?').get(upload.uploadId)?.last_activity;
    const created = activity();
    clock.advance(9_000);
    expect((await putPart(upload.parts[0].url, bytes)).status).toBe(200);
    expect(activity()).toBe(created);
    clock.advance(2_000);
    expect((await putPart(upload.parts[0].url, bytes)).status).toBe(200);
    expect(activity()).toBe(clock.now());
  });
});
