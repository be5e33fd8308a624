import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MIB } from '../../src/shared/api/part-layout.js';
import type { ApiClient } from '../../src/main/api/create-api-client.js';
import { missingPartNumbers } from '../../src/main/api/upload-resources.js';
import { startTestService, type TestService } from '../support/test-service.js';
import { clientFor, randomTempFile } from '../support/api-client-service.js';
import { md5Hex, md5Base64 } from '../support/checksums.js';
import { tempDir } from '../support/temp-dir.js';

describe('uploads and downloads through the client against the real service', () => {
  let service: TestService;
  let api: ApiClient;
  let dir: string;

  beforeEach(async () => {
    service = await startTestService();
    api = await clientFor(service);
    dir = tempDir('asset-sync-api-');
  });

  afterEach(async () => {
    api.close();
    await service.dispose();
  });

  it('uploads a 12 MiB file in two parts, downloads it back byte for byte, and resumes a download with Range', async () => {
    const file = randomTempFile(dir, 'big.bin', 12 * MIB);
    const created = await api.createAssetsWithUploads([{ batchItemId: 'big', path: '/Brand/Video/big.bin', size: file.bytes.length, partSize: 6 * MIB }]);
    expect(created.failures).toEqual({});
    const success = created.successes.big;
    if (success === undefined) throw new Error('no success for "big"');
    expect(success.upload.parts.map((part) => [part.partNumber, part.byteRange.start, part.byteRange.end])).toEqual([
      [1, 0, 6 * MIB],
      [2, 6 * MIB, 12 * MIB],
    ]);

    const parts = [];
    let progress = 0;
    for (const part of success.upload.parts) {
      const { eTag } = await api.putPart({ url: part.url, filePath: file.path, start: part.byteRange.start, end: part.byteRange.end, onProgress: (bytes) => (progress = bytes) });
      expect(eTag.replace(/"/g, '')).toBe(md5Hex(file.bytes.subarray(part.byteRange.start, part.byteRange.end)));
      parts.push({ partNumber: part.partNumber, eTag });
    }
    expect(progress).toBe(6 * MIB);
    const asset = await api.completeUpload({ assetId: success.assetId, uploadId: success.upload.uploadId, parts });
    expect(asset.currentAssetFile).toMatchObject({ filename: 'big.bin', size: 12 * MIB, checksum: md5Hex(file.bytes) });
    expect(asset.lifecycleStatus.state).toBe('STAGED');

    const downloads = await api.requestDownloads([{ batchItemId: 'd', assetId: success.assetId, assetFileId: null }]);
    const item = downloads.successes.d;
    if (item === undefined) throw new Error('no download item');
    expect(item).toMatchObject({ size: 12 * MIB, checksum: md5Hex(file.bytes), filename: 'big.bin' });

    const whole = join(dir, 'whole.part');
    const full = await api.downloadToFile(item.url, whole);
    expect(full).toMatchObject({ size: 12 * MIB, resumed: false });
    expect(readFileSync(whole).equals(file.bytes)).toBe(true);

    // An interrupted download: the first 5 MiB + 123 bytes are on disk (plus junk past them, cut off).
    const half = 5 * MIB + 123;
    const partial = join(dir, 'partial.part');
    writeFileSync(partial, Buffer.concat([file.bytes.subarray(0, half), Buffer.from('junk')]));
    const resumed = await api.downloadToFile(item.url, partial, { resumeFrom: half, ifRange: full.etag });
    expect(resumed).toMatchObject({ size: 12 * MIB, resumed: true });
    expect(readFileSync(partial).equals(file.bytes)).toBe(true);

    // If-Range that no longer matches: the server sends the whole file and the client starts over.
    writeFileSync(partial, Buffer.alloc(half, 7));
    const restarted = await api.downloadToFile(item.url, partial, { resumeFrom: half, ifRange: '"another-version"' });
    expect(restarted).toMatchObject({ size: 12 * MIB, resumed: false });
    expect(readFileSync(partial).equals(file.bytes)).toBe(true);

    // Resuming a file that is already complete asks for nothing more.
    const done = await api.downloadToFile(item.url, partial, { resumeFrom: 12 * MIB });
    expect(done).toMatchObject({ size: 12 * MIB, resumed: true });
    expect(readFileSync(partial).equals(file.bytes)).toBe(true);
  });

  it('resumes an upload by sending only the missing parts, with fresh URLs bound to their MD5', async () => {
    const file = randomTempFile(dir, 'resume.bin', 11 * MIB);
    const size = file.bytes.length;
    const partSize = 5 * MIB;
    const created = await api.createAssetsWithUploads([{ batchItemId: 'r', path: '/Resume/resume.bin', size, partSize }]);
    const first = created.successes.r;
    if (first === undefined) throw new Error('no success');
    expect(first.upload.parts).toHaveLength(3);

    // Only part 1 made it before the "crash"; its ETag was journalled.
    const part1 = first.upload.parts[0];
    if (part1 === undefined) throw new Error('no part 1');
    const sent = [{ partNumber: 1, eTag: (await api.putPart({ url: part1.url, filePath: file.path, start: part1.byteRange.start, end: part1.byteRange.end })).eTag }];

    const missing = missingPartNumbers(size, partSize, sent.map((part) => part.partNumber));
    expect(missing).toEqual([2, 3]);
    const md5s = new Map(missing.map((partNumber) => [partNumber, md5Base64(file.bytes.subarray((partNumber - 1) * partSize, Math.min(size, partNumber * partSize)))]));
    const fresh = await api.resumeUpload({
      uploadId: first.upload.uploadId,
      assetId: first.assetId,
      path: '/Resume/resume.bin',
      size,
      partSize,
      parts: missing.map((partNumber) => ({ partNumber, contentMd5: md5s.get(partNumber) ?? '' })),
    });
    expect(fresh.uploadId).toBe(first.upload.uploadId);
    expect(fresh.parts.map((part) => part.partNumber)).toEqual([2, 3]);

    for (const part of fresh.parts) {
      const contentMd5 = md5s.get(part.partNumber) ?? '';
      sent.push({ partNumber: part.partNumber, eTag: (await api.putPart({ url: part.url, filePath: file.path, start: part.byteRange.start, end: part.byteRange.end, contentMd5 })).eTag });
    }
    const asset = await api.completeUpload({ assetId: first.assetId, uploadId: first.upload.uploadId, parts: sent });
    expect(asset.currentAssetFile).toMatchObject({ size, checksum: md5Hex(file.bytes) });

    // Completing again with the same parts is harmless.
    const again = await api.completeUpload({ assetId: first.assetId, uploadId: first.upload.uploadId, parts: sent });
    expect(again.currentAssetFile?.id).toBe(asset.currentAssetFile?.id);
  });

  it('uploads a new version with one POST /asset-uploads and lists both versions', async () => {
    const v1 = randomTempFile(dir, 'v1.txt', 1000);
    const created = await api.createAssetsWithUploads([{ batchItemId: 'v', path: '/notes.txt', size: v1.bytes.length }]);
    const success = created.successes.v;
    if (success === undefined) throw new Error('no success');
    const only = success.upload.parts[0];
    if (only === undefined) throw new Error('no part');
    const eTag1 = (await api.putPart({ url: only.url, filePath: v1.path, start: 0, end: 1000 })).eTag;
    await api.completeUpload({ assetId: success.assetId, uploadId: success.upload.uploadId, parts: [{ partNumber: 1, eTag: eTag1 }] });

    const v2 = randomTempFile(dir, 'v2.txt', 0);
    const upload = await api.createUpload({ assetId: success.assetId, assetFileId: null, size: 0 });
    const part = upload.parts[0];
    if (part === undefined) throw new Error('no part');
    const eTag2 = (await api.putPart({ url: part.url, filePath: v2.path, start: 0, end: 0 })).eTag;
    const asset = await api.completeUpload({ assetId: success.assetId, uploadId: upload.uploadId, parts: [{ partNumber: 1, eTag: eTag2 }] });
    expect(asset.currentAssetFile).toMatchObject({ size: 0, filename: 'notes.txt' });
    const files = await api.listAssetFiles(success.assetId);
    expect(files.map((file) => file.size).sort((a, b) => a - b)).toEqual([0, 1000]);
  });

  it('reports part-upload problems with stable codes', async () => {
    const file = randomTempFile(dir, 'small.bin', 2000);
    const created = await api.createAssetsWithUploads([{ batchItemId: 's', path: '/small.bin', size: 2000 }]);
    const success = created.successes.s;
    const part = success?.upload.parts[0];
    if (success === undefined || part === undefined) throw new Error('no upload');

    // A tampered signature is refused and not retried.
    const tampered = part.url.replace(/signature=[^&]+/, 'signature=AAAA');
    await expect(api.putPart({ url: tampered, filePath: file.path, start: 0, end: 2000 })).rejects.toMatchObject({ code: 'INVALID_SIGNATURE', status: 403, retryable: false });
    // The file shrank under the upload.
    await expect(api.putPart({ url: part.url, filePath: file.path, start: 0, end: 4000 })).rejects.toMatchObject({ code: 'LOCAL_FILE_CHANGED' });
    await expect(api.putPart({ url: part.url, filePath: join(dir, 'gone.bin'), start: 0, end: 2000 })).rejects.toMatchObject({ code: 'LOCAL_FILE_ERROR' });
    // An ETag that is not the part's.
    await api.putPart({ url: part.url, filePath: file.path, start: 0, end: 2000 });
    await expect(api.completeUpload({ assetId: success.assetId, uploadId: success.upload.uploadId, parts: [{ partNumber: 1, eTag: '"0123"' }] })).rejects.toMatchObject({
      code: 'UPLOAD_ETAG_MISMATCH',
      status: 409,
    });
    // A layout the rules refuse never leaves the client.
    await expect(api.createAssetsWithUploads([{ batchItemId: 'x', path: '/x.bin', size: 20 * MIB, partSize: 1 * MIB }])).rejects.toMatchObject({ code: 'INVALID_PART_LAYOUT' });
  });
});
