/**
 * `POST /asset-metadata-suggestion-batch-jobs {selector}` (+ GET by id) and
 * `POST /rejected-asset-metadata-suggestion-batches {items: [{batchItemId, assetId, fieldId, value}]}`:
 * the second is synchronous and records each rejection (idempotently) so the job never suggests that
 * value for that asset again. Both need the EDIT permission on assets: suggestions exist to edit them.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { ErrorBody } from '../../shared/api/resources.js';
import type { AssetsRepo } from '../assets/assets-repo.js';
import { requireAction } from '../auth/permissions.js';
import type { BlobStore } from '../blobs/blob-store.js';
import { refuseV1Criterion, resolveSelector, selectorSchema, type SelectByCriterion } from '../batch/asset-selector.js';
import type { ServiceContext } from '../context.js';
import { ServiceError, notFound } from '../errors/service-error.js';
import { toErrorBody } from '../errors/to-error-body.js';
import { caller } from '../http/request-auth.js';
import { parseBody } from '../http/route-bodies.js';
import type { JobRunner } from '../jobs/job-runner.js';
import { registerJobKind } from '../jobs/job-routes.js';
import type { JobsRepo } from '../jobs/jobs-repo.js';
import { batchOf } from '../uploads/upload-items.js';
import { suggestionJob, type ReadImageFacts } from './suggestion-job.js';

const jobBody = z.object({ selector: selectorSchema });
const rejectionBody = batchOf(
  z.object({
    batchItemId: z.string().min(1).max(200).optional(),
    assetId: z.string().min(1).max(200),
    fieldId: z.string().min(1).max(200),
    value: z.string().min(1).max(10_000),
  }),
);

export interface SuggestionDeps {
  runner: JobRunner;
  jobs: JobsRepo;
  assets: AssetsRepo;
  blobs: BlobStore;
  selectByCriterion: SelectByCriterion;
  /** Reads an image's embedded metadata and dominant colour (in the service: a render-cage job). */
  imageFacts: ReadImageFacts;
}

export function registerSuggestionRoutes(app: FastifyInstance, ctx: ServiceContext, deps: SuggestionDeps): void {
  const job = suggestionJob(ctx, deps);
  deps.runner.register(job);
  registerJobKind(app, ctx, deps.runner, deps.jobs, {
    path: '/asset-metadata-suggestion-batch-jobs',
    type: job.type,
    body: jobBody,
    precheck: refuseV1Criterion,
    authorize: (who) => requireAction(who.role, 'ASSET', 'EDIT'),
    prepare: (who, body) => ({ assetIds: resolveSelector(who, body.selector, deps.selectByCriterion), action: null }),
  });

  const insert = ctx.db.prepare(
    'INSERT OR IGNORE INTO rejected_suggestions (account_id, asset_id, field_id, value, user_id, date_rejected) VALUES (@account_id, @asset_id, @field_id, @value, @user_id, @date_rejected)',
  );
  app.post('/rejected-asset-metadata-suggestion-batches', { config: { body: rejectionBody } }, async (request) => {
    const who = caller(request);
    requireAction(who.role, 'ASSET', 'EDIT');
    const { items } = parseBody(request, rejectionBody);
    const successes: Record<string, unknown> = {};
    const failures: Record<string, ErrorBody> = {};
    const now = ctx.nowIso();
    ctx.db.transaction(() => {
      for (const item of items) {
        const key = item.batchItemId ?? '';
        try {
          if (deps.assets.get(who, item.assetId) === undefined) throw notFound('asset', item.assetId);
          if (ctx.fields.get(who.accountId, item.fieldId) === undefined) throw notFound('field', item.fieldId);
          insert.run({ account_id: who.accountId, asset_id: item.assetId, field_id: item.fieldId, value: item.value, user_id: who.userId, date_rejected: now });
          successes[key] = { assetId: item.assetId, fieldId: item.fieldId, value: item.value };
        } catch (error) {
          if (!(error instanceof ServiceError)) throw error;
          failures[key] = toErrorBody(error.status, error.code, error.message, '/rejected-asset-metadata-suggestion-batches', new Date(ctx.clock.now()));
        }
      }
    })();
    return { successes, failures };
  });
}
