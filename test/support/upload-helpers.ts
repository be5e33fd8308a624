/** Client-side steps of the upload flows, for service tests: poll jobs, PUT parts, complete. */
import { randomBytes } from 'node:crypto';
import type { TestService } from './test-service.js';

export const MiB = 1024 * 1024;

/** Deterministic-looking but incompressible test bytes. */
export function randomFile(size: number): Buffer {
  return randomBytes(size);
}

/** Polls a job until it leaves QUEUED/RUNNING and returns it (with `token`: as the user who created it). */
export async function waitForJob(service: TestService, path: string, id: string, token?: string): Promise<any> {
  for (let attempt = 0; attempt < 500; attempt++) {
    const { body } = await service.api('GET', `${path}/${id}`, undefined, token);
    const job = body.result;
    if (job?.state !== 'QUEUED' && job?.state !== 'RUNNING') return job;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`job ${id} did not finish`);
}

export async function putPart(url: string, bytes: Uint8Array, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, { method: 'PUT', body: new Uint8Array(bytes), headers: { 'content-type': 'application/octet-stream', ...headers } });
}

export interface UploadedAsset {
  assetId: string;
  asset: any;
}

/** Creates an asset at `path` through the asset-and-upload job, sends every part and completes it. */
export async function uploadNewAsset(service: TestService, path: string, bytes: Buffer, partSize?: number): Promise<UploadedAsset> {
  const created = await service.api('POST', '/asset-and-upload-batch-jobs', {
    items: [{ batchItemId: 'one', path, size: bytes.length, ...(partSize === undefined ? {} : { partSize }), partUrlsRequest: { urlRequests: [] } }],
  });
  if (created.status !== 200) throw new Error(`job creation failed: ${created.text}`);
  const job = await waitForJob(service, '/asset-and-upload-batch-jobs', created.body.result.id);
  const success = job.successes?.one;
  if (success === undefined) throw new Error(`upload job failed: ${JSON.stringify(job)}`);
  const parts = await sendParts(success.upload, bytes);
  const completed = await service.api('POST', '/asset-upload-completions', { assetId: success.assetId, uploadId: success.upload.uploadId, parts });
  if (completed.status !== 200) throw new Error(`completion failed: ${completed.text}`);
  return { assetId: success.assetId, asset: completed.body.result };
}

/** PUTs the byte range of each part of an AssetUpload; returns the completion's part list. */
export async function sendParts(upload: any, bytes: Buffer): Promise<{ partNumber: number; eTag: string }[]> {
  const parts: { partNumber: number; eTag: string }[] = [];
  for (const part of upload.parts) {
    const response = await putPart(part.url, bytes.subarray(part.byteRange.start, part.byteRange.end));
    if (response.status !== 200) throw new Error(`part ${part.partNumber} failed: ${await response.text()}`);
    parts.push({ partNumber: part.partNumber, eTag: response.headers.get('etag') ?? '' });
  }
  return parts;
}

/** Asks for a download URL of the asset's current file and fetches it. */
export async function downloadAsset(service: TestService, assetId: string, headers: Record<string, string> = {}): Promise<{ item: any; response: Response }> {
  const created = await service.api('POST', '/asset-download-batch-jobs', { items: [{ batchItemId: 'd', assetId, assetFileId: null }] });
  if (created.status !== 200) throw new Error(`download job failed: ${created.text}`);
  const job = await waitForJob(service, '/asset-download-batch-jobs', created.body.result.id);
  const item = job.successes?.d;
  if (item === undefined) throw new Error(`download job failed: ${JSON.stringify(job)}`);
  return { item, response: await fetch(item.url, { headers }) };
}
