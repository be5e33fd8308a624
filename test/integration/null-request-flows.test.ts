/**
 * The flows a client generated from an API description runs, with `null` for every optional property it
 * leaves unset (API.md §1): uploads get the server's default layout and complete, `uploadId: null` starts
 * a new upload, and a search with its optional properties `null` answers like one without them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultPartSize } from '../../src/shared/api/part-layout.js';
import { startTestService, type TestService } from '../support/test-service.js';
import { randomFile, sendParts, waitForJob } from '../support/upload-helpers.js';
import { md5Hex } from '../support/checksums.js';

const STAGED = { type: 'FIELD_EQUALS', field: { type: 'FIXED', fieldName: 'LIFECYCLE_STATE' }, value: 'STAGED' };

describe('null as "not given" in the upload and search flows', () => {
  let service: TestService;
  let assetId: string;
  beforeAll(async () => {
    service = await startTestService();
  });
  afterAll(async () => {
    await service.dispose();
  });

  it('creates an asset and upload with partSize, uploadId, urlRequests and contentMd5 null: default layout, completes', async () => {
    const bytes = randomFile(300_000);
    const created = await service.api('POST', '/asset-and-upload-batch-jobs', {
      items: [{ batchItemId: 'one', path: '/Nulls/first.bin', size: bytes.length, partSize: null, partUrlsRequest: { uploadId: null, urlRequests: null }, assetId: null }],
    });
    expect(created.status, created.text).toBe(200);
    const job = await waitForJob(service, '/asset-and-upload-batch-jobs', created.body.result.id);
    const upload = job.successes?.one?.upload;
    expect(upload, JSON.stringify(job)).toMatchObject({ size: bytes.length, partSize: defaultPartSize(bytes.length) });
    const parts = await sendParts(upload, bytes);
    const completed = await service.api('POST', '/asset-upload-completions', { assetId: upload.assetId, uploadId: upload.uploadId, parts });
    expect(completed.status, completed.text).toBe(200);
    expect(completed.body.result.currentAssetFile).toMatchObject({ filename: 'first.bin', checksum: md5Hex(bytes) });
    assetId = upload.assetId;
  });

  it('starts a new upload for uploadId: null, and completes a new version uploaded with partSize: null', async () => {
    const bytes = randomFile(200_000);
    const item = { assetId, assetFileId: null, size: bytes.length, partSize: null, path: null, batchItemId: null };
    const first = await service.api('POST', '/asset-uploads', { ...item, partUrlsRequest: { uploadId: null, urlRequests: [{ partNumber: 1, contentMd5: null }] } });
    expect(first.status, first.text).toBe(200);
    const second = await service.api('POST', '/asset-uploads', { ...item, partUrlsRequest: { uploadId: null, urlRequests: [{ partNumber: 1, contentMd5: null }] } });
    expect(second.status, second.text).toBe(200);
    expect(second.body.result.uploadId).not.toBe(first.body.result.uploadId);
    expect(second.body.result).toMatchObject({ assetId, partSize: defaultPartSize(bytes.length) });

    const parts = await sendParts(second.body.result, bytes);
    const completed = await service.api('POST', '/asset-upload-completions', { assetId, uploadId: second.body.result.uploadId, parts });
    expect(completed.status, completed.text).toBe(200);
    expect(completed.body.result.currentAssetFile).toMatchObject({ checksum: md5Hex(bytes) });
  });

  it('answers a search with from, pageSize and aggregations null like one without them', async () => {
    const without = await service.api('POST', '/asset-searches', { criterion: STAGED, sorts: [] });
    const withNulls = await service.api('POST', '/asset-searches', { criterion: STAGED, sorts: [], from: null, pageSize: null, aggregations: null });
    expect(withNulls.status, withNulls.text).toBe(200);
    expect(without.body.totalResults).toBe(1);
    expect(withNulls.body.totalResults).toBe(without.body.totalResults);
    expect(withNulls.body.results.map((entry: any) => entry.result.id)).toEqual([assetId]);

    const scroll = await service.api('POST', '/asset-scroll-searches', { criterion: STAGED, sorts: [{ field: { type: 'FIXED', fieldName: 'FILENAME' }, order: null }], pageSize: null, from: null });
    expect(scroll.status, scroll.text).toBe(200);
    expect(scroll.body.results.map((entry: any) => entry.result.id)).toEqual([assetId]);
  });

  it('answers a search with sorts null too like one without sorts, which are required [real]', async () => {
    const without = await service.api('POST', '/asset-searches', { criterion: STAGED });
    const withNulls = await service.api('POST', '/asset-searches', { criterion: STAGED, from: null, pageSize: null, sorts: null, aggregations: null });
    expect(without.body).toMatchObject({ status: 400, code: 'INVALID_SORT' });
    expect({ ...withNulls.body, timestamp: undefined }).toEqual({ ...without.body, timestamp: undefined });
  });
});
