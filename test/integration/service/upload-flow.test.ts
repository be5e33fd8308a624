import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { startTestService, type TestService } from '../../support/test-service.js';
import { MiB, downloadAsset, putPart, randomFile, sendParts, uploadNewAsset, waitForJob } from '../../support/upload-helpers.js';
import { md5Hex } from '../../support/checksums.js';

describe('uploads and downloads', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService();
  });
  afterAll(async () => {
    await service.dispose();
  });

  it('uploads 12 MiB in two parts and downloads it back byte-identical, whole and by range', async () => {
    const bytes = randomFile(12 * MiB);
    const created = await service.api('POST', '/asset-and-upload-batch-jobs', {
      items: [{ batchItemId: 'a', path: '/Brand/Logos/big file #1 %.bin', size: bytes.length, partSize: 6 * MiB, partUrlsRequest: { urlRequests: [{ partNumber: 1 }, { partNumber: 2 }] } }],
    });
    expect(created.status).toBe(200);
    expect(created.body.result).toMatchObject({ type: 'AssetAndUploadBatchJob' });
    const job = await waitForJob(service, '/asset-and-upload-batch-jobs', created.body.result.id);
    expect(job).toMatchObject({ state: 'COMPLETED', progress: 1 });
    const { assetId, upload } = job.successes.a;
    expect(upload.parts.map((part: any) => part.byteRange)).toEqual([
      { start: 0, end: 6 * MiB },
      { start: 6 * MiB, end: 12 * MiB },
    ]);

    const first = await putPart(upload.parts[0].url, bytes.subarray(0, 6 * MiB));
    expect(first.status).toBe(200);
    expect(first.headers.get('etag')).toBe(`"${md5Hex(bytes.subarray(0, 6 * MiB))}"`);
    const rest = await sendParts({ parts: [upload.parts[1]] }, bytes);
    const completed = await service.api('POST', '/asset-upload-completions', {
      assetId,
      uploadId: upload.uploadId,
      parts: [{ partNumber: 1, eTag: first.headers.get('etag') }, ...rest],
    });
    expect(completed.status).toBe(200);
    const asset = completed.body.result;
    expect(asset.currentAssetFile).toMatchObject({ filename: 'big file #1 %.bin', size: bytes.length, checksum: md5Hex(bytes), fileType: 'OTHER' });
    expect(asset.lifecycleStatus.state).toBe('STAGED');
    expect(asset.lifecycleStatus.dateStaged).toEqual(expect.any(String));

    // The Folders value is the option at /Brand/Logos, with its parent chain.
    const { body: folderSettings } = await service.api('GET', '/folder-settings');
    const [optionId] = asset.metadata.values[folderSettings.result.fieldId];
    const option = await service.api('GET', `/field-options/${optionId}`);
    expect(option.body.result).toMatchObject({ value: 'Logos', parent: { value: 'Brand', parent: null } });

    const { item, response } = await downloadAsset(service, assetId);
    expect(item).toMatchObject({ filename: 'big file #1 %.bin', size: bytes.length, checksum: md5Hex(bytes) });
    expect(Buffer.from(await response.arrayBuffer()).equals(bytes)).toBe(true);

    const ranged = await fetch(item.url, { headers: { range: `bytes=${5 * MiB}-${7 * MiB - 1}` } });
    expect(ranged.status).toBe(206);
    expect(ranged.headers.get('content-range')).toBe(`bytes ${5 * MiB}-${7 * MiB - 1}/${bytes.length}`);
    expect(Buffer.from(await ranged.arrayBuffer()).equals(bytes.subarray(5 * MiB, 7 * MiB))).toBe(true);
    const beyond = await fetch(item.url, { headers: { range: `bytes=${bytes.length}-` } });
    expect(beyond.status).toBe(416);
    expect(((await beyond.json()) as any).code).toBe('RANGE_NOT_SATISFIABLE');
  });

  it('resumes an upload by asking for fresh URLs of only the missing parts', async () => {
    const bytes = randomFile(15 * MiB + 3);
    const created = await service.api('POST', '/asset-and-upload-batch-jobs', { items: [{ batchItemId: 'r', path: '/resume.bin', size: bytes.length, partSize: 5 * MiB }] });
    const job = await waitForJob(service, '/asset-and-upload-batch-jobs', created.body.result.id);
    const { assetId, upload } = job.successes.r;
    expect(upload.parts).toHaveLength(4);
    const sent = await sendParts({ parts: upload.parts.slice(0, 2) }, bytes);

    const early = await service.api('POST', '/asset-upload-completions', { assetId, uploadId: upload.uploadId, parts: [...sent, { partNumber: 3, eTag: 'x' }, { partNumber: 4, eTag: 'y' }] });
    expect(early.status).toBe(409);
    expect(early.body.code).toBe('UPLOAD_INCOMPLETE');
    expect(early.body.message).toContain('3, 4');

    const fresh = await service.api('POST', '/asset-uploads', {
      assetId,
      assetFileId: null,
      size: bytes.length,
      partSize: 5 * MiB,
      partUrlsRequest: { uploadId: upload.uploadId, urlRequests: [{ partNumber: 3 }, { partNumber: 4 }] },
    });
    expect(fresh.status).toBe(200);
    expect(fresh.body.result.uploadId).toBe(upload.uploadId);
    expect(fresh.body.result.parts.map((part: any) => part.partNumber)).toEqual([3, 4]);
    const more = await sendParts(fresh.body.result, bytes);
    const parts = [...sent, ...more];
    const done = await service.api('POST', '/asset-upload-completions', { assetId, uploadId: upload.uploadId, parts });
    expect(done.status).toBe(200);
    expect(done.body.result.currentAssetFile.checksum).toBe(md5Hex(bytes));

    // Completing again with the same parts answers the same; with other parts it is a conflict.
    const again = await service.api('POST', '/asset-upload-completions', { assetId, uploadId: upload.uploadId, parts });
    expect(again.status).toBe(200);
    expect(again.body.result.currentAssetFile.id).toBe(done.body.result.currentAssetFile.id);
    const different = await service.api('POST', '/asset-upload-completions', { assetId, uploadId: upload.uploadId, parts: parts.map((part) => ({ ...part, eTag: '0' })) });
    expect(different.body.code).toBe('UPLOAD_ALREADY_COMPLETED');
    // No upload file is left behind once completed.
    expect(readdirSync(join(service.dataDir, 'uploads'))).toEqual([]);
  });

  it('keeps every version and refuses to delete the current file', async () => {
    const v1 = randomFile(1000);
    const { assetId, asset } = await uploadNewAsset(service, '/Versions/doc.txt', v1);
    const v2 = randomFile(2000);
    const upload = await service.api('POST', '/asset-uploads', { assetId, assetFileId: null, path: '/Versions/doc-v2.txt', size: v2.length });
    expect(upload.status).toBe(200);
    const parts = await sendParts(upload.body.result, v2);
    const completed = await service.api('POST', '/asset-upload-completions', { assetId, uploadId: upload.body.result.uploadId, parts });
    const current = completed.body.result.currentAssetFile;
    expect(current).toMatchObject({ filename: 'doc-v2.txt', size: 2000, checksum: md5Hex(v2) });

    const files = await service.api('GET', `/assets/${assetId}/files`);
    expect(files.body.totalResults).toBe(2);
    expect(files.body.results.map((entry: any) => entry.result.id)).toEqual([current.id, asset.currentAssetFile.id]);
    const refused = await service.api('DELETE', `/asset-files/${current.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('CURRENT_FILE_NOT_DELETABLE');
    expect((await service.api('DELETE', `/asset-files/${asset.currentAssetFile.id}`)).status).toBe(200);
    expect((await service.api('GET', `/assets/${assetId}/files`)).body.totalResults).toBe(1);
  });
});
