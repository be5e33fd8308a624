/**
 * The selector-based batch jobs the engine uses (metadata edit — e.g. moving an asset between folders —
 * and lifecycle transition — e.g. to BINNED, the recoverable delete) and the download batch job that
 * hands out signed URLs. Each is created, polled to the end and answered as a BatchOutcome. All three
 * are safe to create twice: the edits are set operations and a download job only signs URLs.
 */
import { z } from 'zod';
import type { DownloadItem, LifecycleState } from '../../shared/api/resources.js';
import type { Requester } from './api-client.js';
import type { AssetSelector, BatchOutcome, DownloadRequestItem, MetadataValueUpdate } from './asset-api.js';
import { runJob, type JobPollPolicy } from './jobs.js';
import { downloadItemSchema } from './wire-shapes.js';

export function batchJobResources(requester: Requester, jobPoll: JobPollPolicy) {
  return {
    editMetadata(selector: AssetSelector, updates: MetadataValueUpdate[]): Promise<BatchOutcome<unknown>> {
      return runJob(requester, jobPoll, {
        path: '/asset-metadata-edit-batch-jobs',
        body: { selector, metadataFieldValueUpdates: updates },
        success: z.unknown(),
        idempotent: true,
      });
    },

    transitionLifecycle(selector: AssetSelector, targetState: LifecycleState): Promise<BatchOutcome<unknown>> {
      return runJob(requester, jobPoll, {
        path: '/asset-lifecycle-transition-batch-jobs',
        body: { selector, targetState },
        success: z.unknown(),
        idempotent: true,
      });
    },

    requestDownloads(items: DownloadRequestItem[]): Promise<BatchOutcome<DownloadItem>> {
      return runJob(requester, jobPoll, { path: '/asset-download-batch-jobs', body: { items }, success: downloadItemSchema, idempotent: true });
    },
  };
}
