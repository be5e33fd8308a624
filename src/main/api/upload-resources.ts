/**
 * Creating uploads (API.md §4): new assets with their uploads (asset-and-upload batch job), new
 * versions (asset-upload batch job, or one at once with POST /asset-uploads), fresh URLs for the
 * missing parts of an upload (the same item with `partUrlsRequest.uploadId`), and the completion.
 * Layouts are checked here with the shared rules before anything is sent, and every AssetUpload that
 * comes back is checked against them, so a part is never PUT with a range the service did not mean.
 * Only the asset-and-upload job is non-idempotent: repeating it could create a second asset.
 */
import type { Asset, AssetUpload, UploadJobSuccess } from '../../shared/api/resources.js';
import { partRange, planLayout } from '../../shared/api/part-layout.js';
import { ApiError, invalidResponse } from './api-error.js';
import type { Requester } from './api-client.js';
import type { BatchOutcome, CompletedPart, ResumeUploadItem, UploadItem, VersionUploadItem } from './asset-api.js';
import { jobSchema, outcomeOf, pollJob, runJob, type JobPollPolicy } from './jobs.js';
import { assetSchema, assetUploadSchema, envelopeSchema, parseAnswer, uploadJobSuccessSchema } from './wire-shapes.js';

type AnyUploadItem = UploadItem & { assetId?: string; assetFileId?: string | null; uploadId?: string };

/** The part numbers of a `size`-byte upload in `partSize` parts that are not in `received`. */
export function missingPartNumbers(size: number, partSize: number, received: Iterable<number>): number[] {
  const layout = planLayout(size, partSize);
  if (!layout.ok) throw new ApiError({ code: 'INVALID_PART_LAYOUT', message: `Cannot plan the parts: ${layout.reason}.` });
  const have = new Set(received);
  return Array.from({ length: layout.partCount }, (_, index) => index + 1).filter((partNumber) => !have.has(partNumber));
}

function toWire(item: AnyUploadItem): Record<string, unknown> {
  const layout = planLayout(item.size, item.partSize);
  if (!layout.ok) throw new ApiError({ code: 'INVALID_PART_LAYOUT', message: `The upload of ${item.path ?? item.assetId ?? 'a file'} does not add up: ${layout.reason}.` });
  const wire: Record<string, unknown> = {
    size: item.size,
    partUrlsRequest: {
      ...(item.uploadId === undefined ? {} : { uploadId: item.uploadId }),
      urlRequests: (item.parts ?? []).map((part) => (part.contentMd5 === undefined ? { partNumber: part.partNumber } : { ...part })),
    },
  };
  if (item.batchItemId !== undefined) wire.batchItemId = item.batchItemId;
  if (item.path !== undefined) wire.path = item.path;
  if (item.partSize !== undefined) wire.partSize = item.partSize;
  if (item.assetId !== undefined) {
    wire.assetId = item.assetId;
    wire.assetFileId = item.assetFileId ?? null;
  }
  return wire;
}

/** Throws INVALID_RESPONSE when the AssetUpload does not match the request or the layout rules. */
export function checkUpload(upload: AssetUpload, item: AnyUploadItem, where: string): AssetUpload {
  const problem = (text: string): never => {
    throw invalidResponse('POST', where, `upload ${upload.uploadId}: ${text}`);
  };
  if (upload.size !== item.size) problem(`size ${upload.size} is not the ${item.size} bytes asked for`);
  const layout = planLayout(upload.size, upload.partSize);
  if (!layout.ok) problem(layout.reason);
  for (const part of upload.parts) {
    const expected = partRange(upload.size, upload.partSize, part.partNumber);
    if (part.partNumber > (layout.ok ? layout.partCount : 0) || part.byteRange.start !== expected.start || part.byteRange.end !== expected.end) {
      problem(`part ${part.partNumber} has range ${part.byteRange.start}–${part.byteRange.end}, the layout says ${expected.start}–${expected.end}`);
    }
  }
  const wanted = item.parts?.map((part) => part.partNumber);
  if (wanted !== undefined && wanted.length > 0 && wanted.some((partNumber) => !upload.parts.some((part) => part.partNumber === partNumber))) {
    problem('not every requested part has a URL');
  }
  return upload;
}

export function uploadResources(requester: Requester, jobPoll: JobPollPolicy) {
  const runUploadJob = async (path: string, items: AnyUploadItem[], idempotent: boolean, onCreated?: (jobId: string) => void): Promise<BatchOutcome<UploadJobSuccess>> => {
    let heard = false;
    // The first state seen is the POST's answer: the job's id, told once, before any poll.
    const onPoll = onCreated === undefined ? undefined : (job: { id: string }): void => {
      if (heard) return;
      heard = true;
      onCreated(job.id);
    };
    const outcome = await runJob(requester, jobPoll, { path, body: { items: items.map(toWire) }, success: uploadJobSuccessSchema, idempotent, onPoll });
    for (const [key, success] of Object.entries(outcome.successes)) {
      const item = items.find((candidate) => candidate.batchItemId === key);
      if (item !== undefined) checkUpload(success.upload, item, path);
    }
    return outcome;
  };

  const single = async (item: AnyUploadItem): Promise<AssetUpload> => {
    const path = '/asset-uploads';
    const answer = await requester.json({ method: 'POST', path, body: toWire(item), idempotent: true });
    return checkUpload(parseAnswer(envelopeSchema(assetUploadSchema), answer, 'POST', path).result, item, path);
  };

  return {
    createAssetsWithUploads: (items: UploadItem[], onCreated?: (jobId: string) => void) => runUploadJob('/asset-and-upload-batch-jobs', items, false, onCreated),
    async uploadJobOutcome(jobId: string): Promise<BatchOutcome<UploadJobSuccess>> {
      const path = '/asset-and-upload-batch-jobs';
      const jobPath = `${path}/${encodeURIComponent(jobId)}`;
      const job = parseAnswer(jobSchema, await requester.json({ method: 'GET', path: jobPath }), 'GET', jobPath);
      return outcomeOf(await pollJob(requester, jobPoll, path, job), path, uploadJobSuccessSchema);
    },
    createVersionUploads: (items: VersionUploadItem[]) => runUploadJob('/asset-upload-batch-jobs', items, true),
    createUpload: (item: VersionUploadItem) => single(item),
    resumeUpload: (item: ResumeUploadItem) => single(item),

    async completeUpload(completion: { assetId: string; uploadId: string; parts: CompletedPart[] }): Promise<Asset> {
      const path = '/asset-upload-completions';
      const body = { ...completion, parts: [...completion.parts].sort((a, b) => a.partNumber - b.partNumber) };
      // Completing twice with the same parts answers the same asset, so a retry is safe.
      return parseAnswer(envelopeSchema(assetSchema), await requester.json({ method: 'POST', path, body, idempotent: true }), 'POST', path).result;
    },
  };
}
