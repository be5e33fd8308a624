/**
 * Carries out uploads (DESIGN.md §3): the one object the pass (root-sync.ts) and the engine hold,
 * which hands each call to the module of its job:
 * - `uploadNew`: new files become assets through batched asset-and-upload jobs (new-file-uploads.ts);
 * - `uploadVersions`: changed files become new versions of their asset (version-uploads.ts), whose
 *   parts part-sending.ts sends;
 * - `resume`: the journal's uploads under way when the engine stopped (resume-uploads.ts), the
 *   assets of jobs whose answer was lost adopted first (orphan-adoption.ts);
 * - `dropAbandoned`: the new files' uploads no upload will finish (abandoned-uploads.ts).
 * Every step lands in the upload journal before the next begins — the intent before the job, the
 * upload id before the first byte, each confirmed part — so a crash resumes with only the missing
 * parts (fresh URLs when the old ones expired), and a file that changed meanwhile restarts its upload
 * instead of sending a mix of two versions.
 *
 * Must never: create a second asset for a file the journal already has one for; record a file as
 * synced with a checksum the service did not confirm; send a part of a file whose identity changed.
 */
import { ConcurrencyLimit } from '../../shared/concurrency-limit.js';
import { AbandonedUploads } from './abandoned-uploads.js';
import { NewFileUploads } from './new-file-uploads.js';
import { OrphanAdoption } from './orphan-adoption.js';
import { PartSending } from './part-sending.js';
import { ResumeUploads } from './resume-uploads.js';
import type { LocalEntry } from './sync-types.js';
import type { ChangedOnDisk, UploadExecutorDeps, UploadOutcome, UploadRoot, VersionItem } from './upload-common.js';
import { UploadPaths } from './upload-paths.js';
import { UploadRemains } from './upload-remains.js';
import { VersionUploads } from './version-uploads.js';

export type { UploadExecutorDeps, UploadOutcome, UploadRoot, VersionItem } from './upload-common.js';

export class UploadExecutor {
  private readonly newFiles: NewFileUploads;
  private readonly versions: VersionUploads;
  private readonly resumption: ResumeUploads;
  private readonly abandoned: AbandonedUploads;

  constructor(deps: UploadExecutorDeps) {
    const files = new ConcurrencyLimit(deps.limits?.filesInFlight ?? 8);
    /** Per root, the paths whose upload found the file changed on disk since the last `dropAbandoned`. */
    const changedOnDisk: ChangedOnDisk = new Map();
    const sending = new PartSending(deps, changedOnDisk);
    const paths = new UploadPaths(deps);
    const adoption = new OrphanAdoption(deps);
    const remains = new UploadRemains(deps);
    this.versions = new VersionUploads(deps, { files, sending, paths, adoption, remains });
    this.newFiles = new NewFileUploads(deps, { files, sending, versions: this.versions, paths, adoption, remains });
    this.resumption = new ResumeUploads(deps, { sending, versions: this.versions, adoption, remains });
    this.abandoned = new AbandonedUploads(deps, { adoption, remains, changedOnDisk });
  }

  /** New files: one asset each, created in batches; files the journal already has an asset for reuse it. */
  uploadNew(root: UploadRoot, entries: readonly LocalEntry[]): Promise<UploadOutcome[]> {
    return this.newFiles.uploadNew(root, entries);
  }

  /** New content for synced assets: a new AssetFile version each, the asset id kept (and its name: `VersionItem`). */
  uploadVersions(root: UploadRoot, items: readonly VersionItem[]): Promise<UploadOutcome[]> {
    return this.versions.uploadVersions(root, items);
  }

  /**
   * Finishes what the journal says was under way when the engine stopped (the entries of the paths
   * `which` picks): resume-uploads.ts.
   */
  resume(root: UploadRoot, which?: (relPath: string) => boolean): Promise<UploadOutcome[]> {
    return this.resumption.resume(root, which);
  }

  /** Ends the new files' uploads that no upload will ever finish; returns their paths (abandoned-uploads.ts). */
  dropAbandoned(root: UploadRoot): Promise<string[]> {
    return this.abandoned.dropAbandoned(root);
  }
}
