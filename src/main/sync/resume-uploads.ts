/**
 * Finishes, after a crash or a restart, the uploads the journal says were under way: an intent whose
 * job answer never came adopts the job's asset first (orphan-adoption.ts); a file gone since settles
 * what its upload left (upload-remains.ts); a file changed since is recorded if its upload landed
 * unheard, or loses its upload and keeps its asset; the rest go on where they stopped
 * (version-uploads.ts).
 *
 * Sits under the upload executor (its `resume`), which the pass calls before it plans. Must never
 * start a second asset for an entry whose job may have made one, nor send bytes of a file that is no
 * longer the one the upload began with.
 */
import { locateFile } from './locate-file.js';
import { noAdoption, undecidedError, type Adoption, type OrphanAdoption } from './orphan-adoption.js';
import type { PartSending } from './part-sending.js';
import { SyncError } from '../model/sync-error.js';
import { guard, publish, type UploadExecutorDeps, type UploadOutcome, type UploadRoot } from './upload-common.js';
import type { UploadRemains } from './upload-remains.js';
import type { VersionUploads } from './version-uploads.js';

/** The upload jobs this one builds on, made once by the executor. */
export interface ResumeUploadParts {
  sending: PartSending;
  versions: VersionUploads;
  adoption: OrphanAdoption;
  remains: UploadRemains;
}

export class ResumeUploads {
  constructor(
    private readonly deps: Pick<UploadExecutorDeps, 'api' | 'fs' | 'journal'>,
    private readonly shared: ResumeUploadParts,
  ) {}

  /**
   * Finishes what the journal says was under way when the engine stopped (the entries of the paths
   * `which` picks). Entries whose file changed keep their asset (the next upload of that path reuses
   * it) but lose their upload.
   */
  async resume(root: UploadRoot, which: (relPath: string) => boolean = () => true): Promise<UploadOutcome[]> {
    const { adoption: adopter, remains, sending, versions } = this.shared;
    const entries = this.deps.journal.all(root.id).filter((entry) => which(entry.relPath));
    const orphans = entries.filter((entry) => entry.assetId === null);
    let adoption: Adoption = noAdoption();
    let searchFailed: Error | undefined;
    try {
      if (orphans.length > 0) adoption = await adopter.adopt(root, orphans);
    } catch (error) {
      // Not knowing is not "nothing there": keep the intents for the next pass (uploadNew adopts too).
      searchFailed = error instanceof Error ? error : new SyncError('FOLDER_UNAVAILABLE', `Cannot look for the assets of interrupted uploads: ${String(error)}`);
    }
    const outcomes = await Promise.all(
      entries.map((entry) =>
        guard(entry.relPath, async () => {
          if (entry.assetId === null && searchFailed !== undefined) throw searchFailed;
          if (entry.assetId === null && adoption.undecided.has(entry.relPath)) throw undecidedError();
          const assetId = entry.assetId ?? adoption.adopted.get(entry.relPath);
          if ((await locateFile(this.deps.fs, root.path, entry.relPath).catch(() => undefined)) === undefined) {
            // Deleted (or moved away) while the engine was down: nothing is left to send.
            const sent = assetId === undefined ? undefined : await remains.vanishedUpload(root, entry, assetId);
            if (sent !== undefined) return sent;
            this.deps.journal.finish(root.id, entry.relPath);
            return undefined;
          }
          if (assetId === undefined) {
            // The job never created an asset (or we cannot find it): start from scratch next pass.
            this.deps.journal.finish(root.id, entry.relPath);
            throw new SyncError('LOCAL_FILE_CHANGED', 'The interrupted upload left nothing on the service; it starts again.');
          }
          if (await remains.filedElsewhere(root, entry, assetId)) {
            this.deps.journal.finish(root.id, entry.relPath);
            throw new SyncError('LOCAL_FILE_CHANGED', "The interrupted upload's folder was renamed on the service; it starts again.");
          }
          if ((await sending.currentPath(root, entry.local)) === undefined) {
            // Changed since, but the upload may have completed unheard before the crash (a one-part PUT
            // completes itself). Recorded as synced at the bytes it sent, the next plan sees a synced
            // file changed (a version of that asset, following a folder rename). Forgotten, the asset
            // would stay at its old path while the file uploaded again as a second asset, or the entry
            // would fail every pass once its path synced otherwise.
            const landed = entry.uploadId === null ? undefined : await remains.landedUnheard(root, entry, assetId);
            if (landed !== undefined) return landed;
            this.deps.journal.forgetUpload(root.id, entry.relPath, assetId);
            throw new SyncError('LOCAL_FILE_CHANGED', 'The file changed while it was being uploaded; it uploads again once it settles.');
          }
          if (entry.uploadId === null || entry.uploadId === '' || entry.partSize === null) {
            await versions.unlessOvertaken(root, entry, assetId);
            return versions.uploadToAsset(root, entry.kind, assetId, entry.local);
          }
          return versions.continueUpload(root, { ...entry, assetId }, { resumed: true });
        }),
      ),
    );
    const done = outcomes.filter((outcome) => outcome !== undefined);
    // New files finished after a restart are published like any other (`--publish live`).
    await publish(this.deps.api, root, done.filter((outcome) => entries.find((entry) => entry.relPath === outcome.relPath)?.kind === 'NEW'));
    return done;
  }
}
