/**
 * [ours] A one-part upload's PUT may complete it (`Asset-Sync-Complete: ?1`): one request per small
 * file instead of two, and one commit (the part is never recorded on its own). Anything that stands in
 * the way answers the part alone, with the part recorded, and POST /asset-upload-completions still
 * works (and answers the same asset after a completing PUT).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { INLINE_BLOB_BYTES } from '../../../src/service/blobs/inline-blobs.js';
import { LOCAL_SUBDOMAIN } from '../../../src/service/bootstrap.js';
import { startTestService, type TestService } from '../../support/test-service.js';
import { addUser } from '../../support/test-users.js';
import { MiB, downloadAsset, putPart, randomFile, waitForJob } from '../../support/upload-helpers.js';
import { md5Hex, sha256Hex } from '../../support/checksums.js';

const COMPLETE = { 'asset-sync-complete': '?1' };

describe('a part PUT that completes its upload', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService();
  });
  afterAll(async () => {
    await service.dispose();
  });

  async function newUpload(path: string, size: number, partSize?: number, token?: string) {
    const created = await service.api('POST', '/asset-and-upload-batch-jobs', { items: [{ batchItemId: 'a', path, size, ...(partSize === undefined ? {} : { partSize }) }] }, token);
    expect(created.status).toBe(200);
    const job = await waitForJob(service, '/asset-and-upload-batch-jobs', created.body.result.id, token);
    return job.successes.a as { assetId: string; upload: { uploadId: string; parts: { url: string }[] } };
  }

  /** The PUT answered its part alone: the part's ETag, no completion, the asset still without a file. */
  async function expectAnsweredAlone(put: Response, assetId: string, bytes: Buffer): Promise<void> {
    expect(put.status).toBe(200);
    expect(put.headers.get('etag')).toBe(`"${md5Hex(bytes)}"`);
    expect(put.headers.get('asset-sync-complete')).toBeNull();
    expect((await service.api('GET', `/assets/${assetId}`)).body.result.currentAssetFile).toBeNull();
  }

  /** A POST completion finishes the upload from its recorded part. */
  async function expectCompletedByPost(assetId: string, uploadId: string, bytes: Buffer, sha256: string): Promise<void> {
    const completed = await service.api('POST', '/asset-upload-completions', { assetId, uploadId, parts: [{ partNumber: 1, eTag: `"${md5Hex(bytes)}"` }] });
    expect(completed.status).toBe(200);
    expect(completed.body.result).toMatchObject({ id: assetId, currentAssetFile: { checksum: md5Hex(bytes), sha256, size: bytes.length } });
  }

  it('completes a one-part upload and answers the asset; a completion afterwards answers the same', async () => {
    const bytes = Buffer.from('one small file, one request');
    const { assetId, upload } = await newUpload('/Completing/small.txt', bytes.length);
    const put = await putPart(upload.parts[0]?.url ?? '', bytes, COMPLETE);
    expect(put.status).toBe(200);
    expect(put.headers.get('asset-sync-complete')).toBe('?1');
    expect(put.headers.get('etag')).toBe(`"${md5Hex(bytes)}"`);
    const body = (await put.json()) as { result: { id: string; currentAssetFile: { checksum: string; size: number }; lifecycleStatus: { state: string } }; permittedActions: unknown[] };
    expect(body.result).toMatchObject({ id: assetId, currentAssetFile: { checksum: md5Hex(bytes), size: bytes.length }, lifecycleStatus: { state: 'STAGED' } });
    expect(body.permittedActions.length).toBeGreaterThan(0);

    const again = await service.api('POST', '/asset-upload-completions', { assetId, uploadId: upload.uploadId, parts: [{ partNumber: 1, eTag: `"${md5Hex(bytes)}"` }] });
    expect(again.status).toBe(200);
    expect(again.body.result).toMatchObject({ id: assetId, currentAssetFile: { checksum: md5Hex(bytes) } });
    // The upload is done: its part can no longer change.
    expect((await putPart(upload.parts[0]?.url ?? '', bytes, COMPLETE)).status).toBe(409);
  });

  it('answers the part alone for a multipart upload, and without the header', async () => {
    const bytes = randomFile(12 * MiB);
    const { upload } = await newUpload('/Completing/two parts.bin', bytes.length, 6 * MiB);
    const first = await putPart(upload.parts[0]?.url ?? '', bytes.subarray(0, 6 * MiB), COMPLETE);
    expect(first.status).toBe(200);
    expect(first.headers.get('asset-sync-complete')).toBeNull();
    expect(await first.text()).toBe('');

    const plain = Buffer.from('no header');
    const single = await newUpload('/Completing/plain.txt', plain.length);
    const put = await putPart(single.upload.parts[0]?.url ?? '', plain);
    expect(put.headers.get('asset-sync-complete')).toBeNull();
    const asset = await service.api('GET', `/assets/${single.assetId}`);
    expect(asset.body.result.currentAssetFile).toBeNull();
  });

  it("answers the part alone when the upload's creator may no longer upload", async () => {
    const { userId, token } = await addUser(service, 'member@example.com', 'member');
    const bytes = Buffer.from('uploaded by someone whose role changed');
    const { assetId, upload } = await newUpload('/Completing/by member.txt', bytes.length, undefined, token);
    const { ctx } = service.running;
    const account = ctx.accounts.bySubdomain(LOCAL_SUBDOMAIN);
    ctx.accounts.setRole(account?.id ?? '', userId, 'viewer');
    const put = await putPart(upload.parts[0]?.url ?? '', bytes, COMPLETE);
    expect(put.status).toBe(200);
    expect(put.headers.get('asset-sync-complete')).toBeNull();
    expect((await service.api('GET', `/assets/${assetId}`)).body.result.currentAssetFile).toBeNull();
  });

  it('keeps a small file inline: no file anywhere, downloadable whole and by range, gone with its asset', async () => {
    const bytes = randomFile(INLINE_BLOB_BYTES);
    const sha256 = sha256Hex(bytes);
    const { assetId, upload } = await newUpload('/Completing/inline.bin', bytes.length);
    const uploadsDir = join(service.dataDir, 'uploads');
    const before = readdirSync(uploadsDir);
    const put = await putPart(upload.parts[0]?.url ?? '', bytes, COMPLETE);
    expect(put.headers.get('asset-sync-complete')).toBe('?1');
    const { blobs } = service.running;
    expect(blobs.has(sha256)).toBe(true);
    expect(blobs.source(sha256)).toEqual({ bytes });
    expect(existsSync(blobs.pathOf(sha256))).toBe(false);
    expect(readdirSync(uploadsDir)).toEqual(before);

    const whole = await downloadAsset(service, assetId);
    expect(Buffer.from(await whole.response.arrayBuffer()).equals(bytes)).toBe(true);
    const ranged = await downloadAsset(service, assetId, { range: 'bytes=100-199' });
    expect(ranged.response.status).toBe(206);
    expect(Buffer.from(await ranged.response.arrayBuffer()).equals(bytes.subarray(100, 200))).toBe(true);

    expect((await service.api('DELETE', `/assets/${assetId}`)).status).toBe(200);
    expect(blobs.has(sha256)).toBe(false);
  });

  it('writes a small file after all when keeping it inline fails; POST completes it from the file', async () => {
    const bytes = Buffer.from('a small file whose database write fails once');
    const sha256 = sha256Hex(bytes);
    const { assetId, upload } = await newUpload('/Completing/inline failed.txt', bytes.length);
    const { blobs } = service.running;
    const failing = vi.spyOn(blobs, 'keepInline').mockImplementationOnce(() => {
      throw new Error('the disk is full');
    });
    try {
      await expectAnsweredAlone(await putPart(upload.parts[0]?.url ?? '', bytes, COMPLETE), assetId, bytes);
      expect(failing).toHaveBeenCalledTimes(1);
    } finally {
      failing.mockRestore();
    }
    await expectCompletedByPost(assetId, upload.uploadId, bytes, sha256);
    expect(readFileSync(blobs.pathOf(sha256)).equals(bytes)).toBe(true);
  });

  it('records the part and answers it alone when completing fails before the bytes move; POST completes it later', async () => {
    // Larger than a blob kept inline, so its bytes go to a file and on into the blob store.
    const bytes = randomFile(INLINE_BLOB_BYTES + 1);
    const { assetId, upload } = await newUpload('/Completing/blocked.txt', bytes.length);
    // A file where the blob's directory would go: the move into the blob store fails, the upload's bytes stay put.
    const sha256 = sha256Hex(bytes);
    const blocker = dirname(service.running.blobs.pathOf(sha256));
    writeFileSync(blocker, 'in the way');
    try {
      await expectAnsweredAlone(await putPart(upload.parts[0]?.url ?? '', bytes, COMPLETE), assetId, bytes);
    } finally {
      rmSync(blocker, { force: true });
    }
    await expectCompletedByPost(assetId, upload.uploadId, bytes, sha256);
  });
});
