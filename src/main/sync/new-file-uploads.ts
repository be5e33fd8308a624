/**
 * New files become assets: in batches, each an asset-and-upload job (two jobs in flight), journalled
 * as intents in one transaction before the job is asked for, so a crash in between finds the job's
 * assets (orphan-adoption.ts) instead of making them again. A file whose journal names an asset
 * already (or adopts one) goes up to that asset. New files finished are published when the root
 * publishes as it goes.
 *
 * Sits under the upload executor (its `uploadNew`), above version-uploads.ts and part-sending.ts.
 * Must never create a second asset for a file the journal already has one for, nor ask for a job
 * before its intents are in the journal.
 */
import { defaultPartSize } from '../../shared/api/part-layout.js';
import { ConcurrencyLimit } from '../../shared/concurrency-limit.js';
import type { AssetApi, UploadItem } from '../api/index.js';
import { isApiError } from '../api/index.js';
import type { JournalEntry } from '../db/upload-journal.js';
import { PathLocator } from '../local/index.js';
import { relDirOf } from '../remote/folder-mapper.js';
import { undecidedError, type Adoption, type OrphanAdoption } from './orphan-adoption.js';
import type { PartSending } from './part-sending.js';
import { SyncError } from '../model/sync-error.js';
import type { LocalEntry } from './sync-types.js';
import { failed, guard, publish, type UploadExecutorDeps, type UploadOutcome, type UploadRoot } from './upload-common.js';
import type { UploadPaths } from './upload-paths.js';
import type { UploadRemains } from './upload-remains.js';
import type { VersionUploads } from './version-uploads.js';

const JOBS_IN_FLIGHT = 2;

/** The upload jobs this one builds on, made once by the executor. */
export interface NewFileUploadParts {
  /** Files in flight, shared with the version uploads. */
  files: ConcurrencyLimit;
  sending: PartSending;
  versions: VersionUploads;
  paths: UploadPaths;
  adoption: OrphanAdoption;
  remains: UploadRemains;
}

export class NewFileUploads {
  /**
   * Asset-and-upload jobs in flight: one being created and polled while the service runs the other.
   * One at a time, every job waits for its own round trips (folder lookups, the POST, the first poll's
   * wait): on loopback 5,000 new files needed 5.2 s to get all their jobs, 2.8 s with two in flight
   * (the whole sync took as long: this machine's two CPUs were busy either way). Against a distant
   * service, where each round trip costs tens of ms, the jobs would otherwise set the pace.
   */
  private readonly jobs = new ConcurrencyLimit(JOBS_IN_FLIGHT);
  private readonly batchSize: number;

  constructor(
    private readonly deps: Pick<UploadExecutorDeps, 'api' | 'fs' | 'journal' | 'folders' | 'nowIso' | 'outlived' | 'limits'>,
    private readonly shared: NewFileUploadParts,
  ) {
    this.batchSize = deps.limits?.batchSize ?? 100;
  }

  /** New files: one asset each, created in batches; files the journal already has an asset for reuse it. */
  async uploadNew(root: UploadRoot, entries: readonly LocalEntry[]): Promise<UploadOutcome[]> {
    const outcomes: Promise<UploadOutcome>[] = [];
    const fresh: LocalEntry[] = [];
    const intents: { local: LocalEntry; entry: JournalEntry }[] = [];
    /** Files whose journal names their asset already (or adopts it below). */
    const reused: { local: LocalEntry; entry: JournalEntry; assetId: string }[] = [];
    const journalled = this.deps.journal.among(root.id, entries.map((local) => local.relPath));
    for (const local of entries) {
      const known = journalled.get(local.relPath);
      // A version's entry names the asset that was synced at this path, not an asset made for this
      // file: a new file here means the path syncs no asset now (moved away, forgotten), so the entry
      // is void and the file goes up as its own asset. Reused, a file written where a folder had been
      // renamed away would go up as a version of the moved asset, synced at both paths
      // (new-file-uploads.test.ts).
      if (known?.kind === 'VERSION') {
        this.deps.journal.finish(root.id, local.relPath);
        fresh.push(local);
      } else if (known?.assetId != null) reused.push({ local, entry: known, assetId: known.assetId });
      else if (known !== undefined) intents.push({ local, entry: known });
      else fresh.push(local);
    }
    if (intents.length > 0) {
      // An intent without an asset is a batch whose answer never came (createBatch keeps those): the
      // job may have created the asset, so look for it before creating another. The restart's resume
      // does the same (resume-uploads.ts); this is the running engine's next pass.
      let adoption: Adoption | undefined;
      try {
        adoption = await this.shared.adoption.adopt(root, intents.map(({ entry }) => entry));
      } catch (error) {
        outcomes.push(...intents.map(({ local }) => Promise.resolve(failed(local.relPath, error))));
      }
      for (const { local, entry } of adoption === undefined ? [] : intents) {
        const assetId = adoption?.adopted.get(local.relPath);
        if (adoption?.undecided.has(local.relPath) === true) outcomes.push(Promise.resolve(failed(local.relPath, undecidedError())));
        else if (assetId === undefined) fresh.push(local);
        else reused.push({ local, entry, assetId });
      }
    }
    for (const { local, entry, assetId } of reused) {
      const elsewhere = await this.shared.remains.filedElsewhere(root, entry, assetId).catch((error: unknown) => error);
      if (elsewhere === true) fresh.push(local);
      else if (elsewhere === false) outcomes.push(guard(local.relPath, () => this.shared.versions.uploadToAsset(root, 'NEW', assetId, local)));
      else outcomes.push(Promise.resolve(failed(local.relPath, elsewhere)));
    }
    const batches: LocalEntry[][] = [];
    for (let start = 0; start < fresh.length; start += this.batchSize) batches.push(fresh.slice(start, start + this.batchSize));
    const created = await Promise.all(batches.map((batch) => this.jobs.run(() => this.createBatch(root, batch))));
    outcomes.push(...created.flat());
    const done = await Promise.all(outcomes);
    await publish(this.deps.api, root, done);
    return done;
  }

  private async createBatch(root: UploadRoot, batch: readonly LocalEntry[]): Promise<Promise<UploadOutcome>[]> {
    const { api, journal } = this.deps;
    const now = this.deps.nowIso();
    let items: UploadItem[];
    // Each directory's option looked up once for the batch (its files share a few directories), and
    // handed on to the completion's folder check.
    const options = new Map<string, Promise<string | null>>();
    const optionOf = (relDir: string): Promise<string | null> => {
      let option = options.get(relDir);
      if (option === undefined) {
        option = this.deps.folders.optionFor(root, relDir);
        options.set(relDir, option);
      }
      return option;
    };
    const folderOptions: (string | null)[] = [];
    try {
      const outlived = this.deps.outlived?.(root.id);
      items = await Promise.all(
        batch.map(async (local, index) => {
          folderOptions[index] = await optionOf(relDirOf(local.relPath));
          return { batchItemId: `f${index}`, path: await this.shared.paths.newFilePath(root, local.relPath, outlived), size: local.size, partSize: defaultPartSize(local.size) };
        }),
      );
    } catch (error) {
      return batch.map((local) => Promise.resolve(failed(local.relPath, error)));
    }
    // The journal's writes for a new file, each one a crash needs: the intent, before the job is asked
    // for (a crash after it finds the job's assets instead of making them again); the job's id, in a
    // commit of its own as soon as the POST answers (one statement for the batch), even with the job
    // already finished (should the commit of its assets below fail, the next pass adopts exactly the
    // job's assets, where a search could take another's: folded into that commit, simulation seed
    // 100742 made a second asset); the asset and upload, before the first byte (a restart sends only
    // the missing parts to that upload); the entry's end, with the synced row (store/sync-records.ts).
    // One transaction per batch, not one per file: with thousands of small files the state database's
    // commits are a measurable share of the engine's time (bench/sync-engine.ts).
    journal.inTransaction(() => batch.forEach((local, index) => journal.begin(root.id, 'NEW', `f${index}`, local, null, now, folderOptions[index] ?? null)));
    let outcome: Awaited<ReturnType<AssetApi['createAssetsWithUploads']>>;
    try {
      outcome = await api.createAssetsWithUploads(items, (jobId) => journal.jobCreated(root.id, batch.map((local) => local.relPath), jobId));
    } catch (error) {
      // The job may have been created although no answer came back: keep the journal, so the next
      // pass adopts the assets it made instead of creating them again. Only the service refusing the
      // POST itself proves there is no job; a failure while polling (method GET: the POST was
      // answered, the job exists) or a lost connection (maybeApplied) does not.
      if (!mayHaveCreatedJob(error)) for (const local of batch) journal.finish(root.id, local.relPath);
      return batch.map((local) => Promise.resolve(failed(local.relPath, error)));
    }
    const answers = batch.map((local, index) => ({ local, key: `f${index}`, success: outcome.successes[`f${index}`] }));
    journal.inTransaction(() => {
      for (const { local, success } of answers) {
        if (success === undefined) journal.finish(root.id, local.relPath);
        else journal.uploadCreated(root.id, local.relPath, success.assetId, success.upload.uploadId, success.upload.partSize);
      }
    });
    // One locator for the batch: its files share directories, each checked once (not a symlink).
    const locator = new PathLocator(this.deps.fs, root.path);
    return answers.map(({ local, key, success }, index) => {
      if (success === undefined) return Promise.resolve(failed(local.relPath, outcome.failures[key] ?? new SyncError('FOLDER_UNAVAILABLE', 'The service did not answer for this file.')));
      const context = { locator, option: folderOptions[index] ?? null };
      return guard(local.relPath, () => this.shared.files.run(() => this.shared.sending.sendAndComplete(root, local, success.assetId, success.upload, new Map(), context)));
    });
  }
}

/** Whether an asset-and-upload job may exist after `createAssetsWithUploads` failed this way. */
function mayHaveCreatedJob(error: unknown): boolean {
  if (!isApiError(error)) return true;
  const refused = error.method === 'POST' && error.status !== undefined && !error.maybeApplied;
  return !refused;
}
