/**
 * The download batch job: per item, a signed URL of the asset's file (current, or the named version)
 * with its name, size, checksum and type — the original, or a rendition made by the transformation
 * description (SERVICE-SPEC.md §2.8): CUSTOM candidates, or a PRESET, which is resolved to its
 * candidates when the job is created (so a restart, or the preset's removal, cannot change what the job
 * does). Renditions are rendered before each chunk's transaction (all of the chunk's items asked at
 * once; the transform cache's render slots keep as many pipelines running as there are cores) and cached
 * by (file, transformation); a transformation that does not apply to a file hands the original over.
 * With `zip: true` the job's `result` is one zip of every item's file (zip-download.ts).
 */
import { basename, extname } from 'node:path';
import { z } from 'zod';
import type { DownloadItem } from '../../shared/api/resources.js';
import type { ServiceContext } from '../context.js';
import { ServiceError, notFound } from '../errors/service-error.js';
import type { JobHandler } from '../jobs/job-runner.js';
import { batchOf } from '../uploads/upload-items.js';
import type { AssetsRepo, FileRow } from '../assets/assets-repo.js';
import { requireAction } from '../auth/permissions.js';
import type { Caller } from '../http/request-auth.js';
import type { BlobStore } from '../blobs/blob-store.js';
import { transformationDescription, type CandidateTransformation } from '../transforms/transformation-schema.js';
import { planTransformation } from '../transforms/plan-transformation.js';
import type { TransformCache, TransformOutcome, TransformRow } from '../transforms/transform-cache.js';
import { candidatesOf, type PresetsRepo } from '../transforms/presets-repo.js';
import type { CropAreasRepo } from '../transforms/crop-area-routes.js';
import type { DownloadZips } from './zip-download.js';
import type { DownloadEventsRepo } from '../download-events/download-events-repo.js';

const downloadItem = z.object({
  batchItemId: z.string().min(1).max(200).optional(),
  assetId: z.string().min(1).max(200),
  assetFileId: z.string().min(1).max(200).nullish(),
});

export const downloadBatchBody = batchOf(downloadItem).and(
  z.object({
    transformationDescription: transformationDescription.nullish(),
    zip: z.boolean().nullish(),
  }),
);
export type DownloadBatchBody = z.infer<typeof downloadBatchBody>;
type Item = z.infer<typeof downloadItem>;

export function authorizeDownload(caller: Caller): void {
  requireAction(caller.role, 'ASSET', 'DOWNLOAD');
}

/** What the job stores: the body, with a PRESET replaced by its candidates as they are now (and its id kept for download events). */
export type StoredDownload = DownloadBatchBody & { presetTransformationId?: string };

export function prepareDownload(presets: PresetsRepo) {
  return (caller: Caller, body: DownloadBatchBody): StoredDownload => {
    const description = body.transformationDescription;
    if (description?.type !== 'PRESET') return body;
    const preset = presets.get(caller.accountId, description.presetTransformationId);
    if (preset === undefined) throw notFound('preset transformation', description.presetTransformationId);
    return { ...body, transformationDescription: { type: 'CUSTOM', candidateTransformations: candidatesOf(preset) }, presetTransformationId: preset.id };
  };
}

function candidatesIn(body: DownloadBatchBody): CandidateTransformation[] | undefined {
  const description = body.transformationDescription;
  return description?.type === 'CUSTOM' ? description.candidateTransformations : undefined;
}

export function fileDownload(ctx: ServiceContext, file: FileRow): DownloadItem {
  return {
    url: ctx.signer.sign(`/files/${file.id}/content`, {}, ctx.config.signedUrlTtl).url,
    filename: file.filename,
    size: file.size,
    checksum: file.checksum,
    contentType: `${file.media_type}/${file.media_subtype}`,
  };
}

/** The file's name with the rendition's extension (`photo.heic` → `photo.jpg`). */
export function renditionName(filename: string, extension: string): string {
  const current = extname(filename);
  const stem = current === '' ? filename : basename(filename, current);
  const same = current.toLowerCase() === `.${extension}` || (extension === 'jpg' && current.toLowerCase() === '.jpeg') || (extension === 'tiff' && current.toLowerCase() === '.tif');
  return same ? filename : `${stem}.${extension}`;
}

export function renditionDownload(ctx: ServiceContext, file: FileRow, row: TransformRow): DownloadItem {
  return {
    url: ctx.signer.sign(`/files/${file.id}/renditions/${row.key}`, {}, ctx.config.signedUrlTtl).url,
    filename: renditionName(file.filename, row.extension),
    size: row.size,
    checksum: row.checksum,
    contentType: row.content_type,
  };
}

export interface DownloadJobDeps {
  assets: AssetsRepo;
  blobs: BlobStore;
  transforms: TransformCache;
  cropAreas: CropAreasRepo;
  zips: DownloadZips;
  events: DownloadEventsRepo;
}

export function downloadJob(ctx: ServiceContext, deps: DownloadJobDeps): JobHandler<StoredDownload, Item> {
  const { assets, blobs, transforms, cropAreas, zips, events } = deps;
  /** Renditions made for the chunk about to run, by item (the runner passes the same objects on). */
  const outcomes = new WeakMap<Item, TransformOutcome>();
  /** Renderings started when the job started, by item; those made, so a chunk knows what is ready. */
  const renderings = new WeakMap<Item, Promise<void>>();
  const settled = new WeakSet<Item>();

  const fileOf = (caller: Caller, item: Item): FileRow => {
    // The asset and its file in one read (the asset reached by the caller, the file one of its own).
    const found = assets.fileOfAsset(caller, item.assetId, item.assetFileId ?? null);
    if (!found.asset) throw notFound('asset', item.assetId);
    if (found.file !== undefined) return found.file;
    if (found.fileId === null) throw new ServiceError('NOT_FOUND', `Asset ${item.assetId} has no file yet.`);
    throw notFound('asset file of this asset', found.fileId);
  };

  const render = async (caller: Caller, item: Item, candidates: CandidateTransformation[]): Promise<void> => {
    let file: FileRow;
    try {
      file = fileOf(caller, item);
    } catch {
      return; // runItem reports it
    }
    const facts = { assetId: file.asset_id, fileType: file.file_type, mediaSubtype: file.media_subtype, width: file.width, height: file.height };
    const plans = planTransformation(facts, candidates, (id) => cropAreas.box(caller.accountId, id));
    outcomes.set(item, await transforms.transform(file.sha256, () => blobs.source(file.sha256), plans, file.media_subtype, file.account_id));
  };

  return {
    type: 'AssetDownloadBatchJob',
    chunkSize: 100,
    items: (body) => body.items.map((item) => ({ key: item.batchItemId ?? '', item })),
    start(items, caller, input) {
      const candidates = candidatesIn(input);
      if (candidates === undefined) return;
      // Every item asked at once, in order, so a slot freed by one pipeline goes to the next item at
      // once (transform-cache.ts), across chunks too.
      for (const item of items) {
        // Only a rendering that succeeded counts as ready: a rejected one is awaited as the first item of
        // a chunk, and fails the job as before.
        const rendering = render(caller, item, candidates).then(() => {
          settled.add(item);
        });
        // Awaited by its chunk, which fails the job if it rejects; never an unhandled rejection meanwhile.
        rendering.catch(() => undefined);
        renderings.set(item, rendering);
      }
    },
    async beforeChunk(items, caller, input) {
      const candidates = candidatesIn(input);
      if (candidates === undefined) return;
      const [first] = items;
      // Per item (not zipped): the first item's rendition is enough to commit; the rest are counted as
      // they stand then (readyCount), so each rendition is in the job's successes as soon as it is made
      // and a client fetches it while the others render. A zip needs them all.
      const waitedFor = input.zip === true || first === undefined ? items : [first];
      await Promise.all(waitedFor.map((item) => renderings.get(item) ?? render(caller, item, candidates)));
    },
    readyCount(items, input) {
      if (candidatesIn(input) === undefined || input.zip === true) return items.length;
      const pending = items.findIndex((item, index) => index > 0 && !settled.has(item));
      return pending === -1 ? items.length : pending;
    },
    runItem(item, caller, input) {
      const file = fileOf(caller, item);
      let outcome = outcomes.get(item);
      outcomes.delete(item);
      renderings.delete(item);
      // Rendered before the chunk, unless the file changed since (a new version in between): the original then.
      if (outcome?.kind === 'transformed' && outcome.row.source_sha256 !== file.sha256) outcome = undefined;
      const transformed = candidatesIn(input) !== undefined && outcome?.kind === 'transformed' ? outcome.row : undefined;
      // One event per file handed out, in the item's savepoint: a failed item records none.
      events.record({
        accountId: caller.accountId,
        assetId: file.asset_id,
        assetFileId: file.id,
        userId: caller.userId,
        userType: caller.staff ? 'STAFF' : 'USER',
        downloadType: input.zip === true ? 'ZIP' : 'DIRECT',
        transformationType: transformed === undefined ? 'ORIGINAL' : input.presetTransformationId === undefined ? 'CUSTOM' : 'PRESET',
        presetTransformationId: transformed === undefined ? null : (input.presetTransformationId ?? null),
        dateDownloaded: ctx.nowIso(),
      });
      return transformed === undefined ? fileDownload(ctx, file) : renditionDownload(ctx, file, transformed);
    },
    async finish(input, successes, _caller, jobId) {
      if (input.zip !== true) return undefined;
      return zips.create(jobId, input.items.map((item) => successes[item.batchItemId ?? '']));
    },
  };
}
