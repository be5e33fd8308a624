/**
 * The selector-based batch jobs the engine uses (metadata edit — e.g. moving an asset between folders —
 * and lifecycle transition — e.g. to BINNED, the recoverable delete) and the download batch job that
 * hands out signed URLs (optionally transformed, or zipped), and the presets such a job can name. Each
 * job is created, polled to the end and answered as a BatchOutcome. All three
 * are safe to create twice: the edits are set operations and a download job only signs URLs.
 */
import { z } from 'zod';
import type { Job, LifecycleState, PresetTransformation } from '../../shared/api/resources.js';
import type { Requester } from './api-client.js';
import type { AssetSelector, BatchOutcome, DownloadOutcome, DownloadRequestItem, DownloadRequestOptions, MetadataValueUpdate } from './asset-api.js';
import { runJob, type JobPollPolicy } from './jobs.js';
import { downloadItemSchema, downloadZipSchema, parseAnswer, presetGroupsSchema, presetsForAssetsSchema, unwrapResult } from './wire-shapes.js';

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

    async requestDownloads(items: DownloadRequestItem[], options: DownloadRequestOptions = {}): Promise<DownloadOutcome> {
      const path = '/asset-download-batch-jobs';
      const body = { items, ...(options.transformationDescription === undefined ? {} : { transformationDescription: options.transformationDescription }), ...(options.zip === true ? { zip: true } : {}) };
      const { onItem, onItemFailed } = options;
      const reported = new Set<string>();
      const failed = new Set<string>();
      const onPoll =
        onItem === undefined && onItemFailed === undefined
          ? undefined
          : (job: Job): void => {
              for (const [key, value] of Object.entries(job.successes ?? {})) {
                if (onItem === undefined || reported.has(key)) continue;
                reported.add(key);
                onItem(key, parseAnswer(downloadItemSchema, unwrapResult(value), 'GET', `${path}/${job.id} (successes.${key})`));
              }
              for (const key of Object.keys(job.failures ?? {})) {
                if (onItemFailed === undefined || failed.has(key)) continue;
                failed.add(key);
                onItemFailed(key);
              }
            };
      const outcome = await runJob(requester, jobPoll, { path, body, success: downloadItemSchema, idempotent: true, onPoll });
      if (options.zip !== true) return outcome;
      return { ...outcome, zip: parseAnswer(downloadZipSchema, outcome.result, 'GET', `${path}/${outcome.jobId ?? ''} (result)`) };
    },

    async listPresetTransformations(): Promise<PresetTransformation[]> {
      const path = '/grouped-preset-transformations';
      const grouped = parseAnswer(presetGroupsSchema, await requester.json({ method: 'GET', path }), 'GET', path);
      return [...grouped.itemGroupTypes.flatMap((type) => type.groups.flatMap((group) => group.items)), ...grouped.ungroupedItems];
    },

    async presetsForAssets(assetIds: readonly string[]): Promise<Map<string, string[]>> {
      const path = '/preset-transformations-for-asset-searches';
      const answer = parseAnswer(presetsForAssetsSchema, await requester.json({ method: 'POST', path, body: { assetIds } }), 'POST', path);
      return new Map(answer.results.map((entry) => [entry.assetId, entry.presetTransformations.map((preset) => preset.id)]));
    },
  };
}
