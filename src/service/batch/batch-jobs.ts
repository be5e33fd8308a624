/**
 * The selector-based batch jobs of SERVICE-SPEC §4.1: metadata edit, lifecycle transition and
 * permanent deletion. Each resolves its selector when created (asset-selector.ts) and then runs one
 * asset per item in chunks, so `progress` is real and a restart resumes after the last chunk.
 * Also answers the V1 path of the lifecycle job with the name of its V2 replacement.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { ServiceContext } from '../context.js';
import { ServiceError, notFound } from '../errors/service-error.js';
import type { JobHandler, JobRunner } from '../jobs/job-runner.js';
import { registerJobKind } from '../jobs/job-routes.js';
import type { JobsRepo } from '../jobs/jobs-repo.js';
import { requireAction } from '../auth/permissions.js';
import type { Caller } from '../http/request-auth.js';
import type { AssetsRepo } from '../assets/assets-repo.js';
import type { BlobStore } from '../blobs/blob-store.js';
import type { UploadService } from '../uploads/upload-service.js';
import { refuseV1Criterion, resolveSelector, selectedItems, selectorSchema, type SelectByCriterion, type SelectedInput } from './asset-selector.js';
import { applyUpdate, resolveUpdates, valueUpdateSchema, type ResolvedUpdate } from './metadata-edit.js';
import { transition } from './lifecycle-transition.js';

export interface BatchJobDeps {
  assets: AssetsRepo;
  blobs: BlobStore;
  uploads: UploadService;
  selectByCriterion: SelectByCriterion;
}

const CHUNK = 500;
const lifecycleStates = z.enum(['STAGED', 'PENDING_APPROVAL', 'LIVE', 'BINNED']);
const metadataEditBody = z.object({ selector: selectorSchema, metadataFieldValueUpdates: z.array(valueUpdateSchema).min(1).max(100) });
const lifecycleBody = z.object({ selector: selectorSchema, targetState: lifecycleStates });
const deletionBody = z.object({ selector: selectorSchema });

export function registerBatchJobs(app: FastifyInstance, ctx: ServiceContext, runner: JobRunner, jobs: JobsRepo, deps: BatchJobDeps): void {
  const { assets } = deps;
  const load = (caller: Caller, assetId: string) => {
    const row = assets.get(caller, assetId);
    if (row === undefined) throw notFound('asset', assetId);
    return row;
  };
  const select = (caller: Caller, selector: z.infer<typeof selectorSchema>) => resolveSelector(caller, selector, deps.selectByCriterion);

  const metadataEdit: JobHandler<SelectedInput<ResolvedUpdate[]>, string> = {
    type: 'AssetMetadataEditBatchJob',
    chunkSize: CHUNK,
    items: selectedItems,
    runItem(assetId, caller, input) {
      const row = load(caller, assetId);
      const current = assets.values(row.id);
      for (const update of input.action) {
        const field = ctx.fields.get(caller.accountId, update.fieldId);
        if (field === undefined) throw new ServiceError('INVALID_FIELD_VALUE', `The field ${update.fieldId} no longer exists.`);
        const next = ctx.folderPolicy.valuesAfter(caller, update.fieldId, current[update.fieldId] ?? [], applyUpdate(current[update.fieldId] ?? [], update));
        if (!field.multiValue && next.length > 1) throw new ServiceError('INVALID_FIELD_VALUE', `"${field.name}" takes one value; asset ${row.id} would have ${next.length}.`);
        current[update.fieldId] = next;
        assets.setValues(row.id, update.fieldId, next);
      }
      assets.touch(row.id, ctx.nowIso());
      return { assetId: row.id };
    },
  };

  const lifecycle: JobHandler<SelectedInput<z.infer<typeof lifecycleStates>>, string> = {
    type: 'AssetLifecycleTransitionBatchJob',
    chunkSize: CHUNK,
    items: selectedItems,
    runItem(assetId, caller, input) {
      const row = load(caller, assetId);
      const now = ctx.nowIso();
      const change = transition(row, input.action, now);
      if (change !== undefined) assets.setLifecycle(row.id, change, now);
      return { assetId: row.id, state: change?.state ?? row.state };
    },
  };

  // Blobs leave the disk only once the chunk that freed them has committed.
  let freed: string[] = [];
  const deletion: JobHandler<SelectedInput<null>, string> = {
    type: 'AssetDeletionBatchJob',
    chunkSize: CHUNK,
    items: selectedItems,
    runItem(assetId, caller) {
      const row = load(caller, assetId);
      deps.uploads.endings.discardOpenUploadsOf(row.id);
      freed.push(...assets.deleteAsset(row.id));
      return { assetId: row.id };
    },
    afterChunk(committed) {
      if (committed) for (const sha of freed) deps.blobs.remove(sha);
      freed = [];
    },
  };

  for (const handler of [metadataEdit, lifecycle, deletion] as JobHandler<never, never>[]) runner.register(handler);

  registerJobKind(app, ctx, runner, jobs, {
    path: '/asset-metadata-edit-batch-jobs',
    type: metadataEdit.type,
    body: metadataEditBody,
    precheck: refuseV1Criterion,
    authorize: (caller) => requireAction(caller.role, 'ASSET', 'EDIT'),
    prepare: (caller, body) => {
      // A folder the caller cannot see is not found by its name.
      const action = resolveUpdates({ ...ctx, visible: (option) => ctx.folderPolicy.maySeeOption(caller, option) }, caller.accountId, body.metadataFieldValueUpdates);
      ctx.folderPolicy.requireFolderValues(caller, action);
      return { assetIds: select(caller, body.selector), action };
    },
  });
  registerJobKind(app, ctx, runner, jobs, {
    path: '/asset-lifecycle-transition-batch-jobs',
    type: lifecycle.type,
    body: lifecycleBody,
    precheck: refuseV1Criterion,
    authorize: (caller) => requireAction(caller.role, 'ASSET', 'EDIT'),
    prepare: (caller, body) => ({ assetIds: select(caller, body.selector), action: body.targetState }),
  });
  registerJobKind(app, ctx, runner, jobs, {
    path: '/asset-deletion-batch-jobs',
    type: deletion.type,
    body: deletionBody,
    precheck: refuseV1Criterion,
    authorize: (caller) => requireAction(caller.role, 'ASSET', 'DELETE'),
    prepare: (caller, body) => ({ assetIds: select(caller, body.selector), action: null }),
  });

  const v1 = async (): Promise<never> => {
    throw new ServiceError('UNSUPPORTED_V1_NAME', '/asset-staging-workflow-transition-batch-jobs is the V1 path; use /asset-lifecycle-transition-batch-jobs (API version 2).');
  };
  app.post('/asset-staging-workflow-transition-batch-jobs', v1);
  app.get('/asset-staging-workflow-transition-batch-jobs/:id', v1);
}
