/**
 * Uploads to an asset that exists: a synced file's new content as a new version (the asset id and its
 * name on the service kept), a new file's upload to the asset its batch job made, and an upload the
 * journal holds, gone on with where it stopped (only the parts the service has not confirmed; a fresh
 * upload when the service forgot the old one). The journal names the asset and the upload before the
 * first byte goes.
 *
 * Sits between the upload jobs (the executor's `uploadVersions`, new-file-uploads.ts,
 * resume-uploads.ts) and part-sending.ts. Must never send a file's bytes over a version another writer
 * put on the asset since the upload's plan, nor upload again bytes the service already holds.
 */
import { defaultPartSize } from '../../shared/api/part-layout.js';
import type { AssetUpload } from '../../shared/api/resources.js';
import type { ConcurrencyLimit } from '../../shared/concurrency-limit.js';
import { currentMd5, isApiError, missingPartNumbers } from '../api/index.js';
import type { JournalEntry } from '../db/upload-journal.js';
import { sameSignature } from '../local/index.js';
import type { OrphanAdoption } from './orphan-adoption.js';
import { undecidedError } from './orphan-adoption.js';
import type { PartSending } from './part-sending.js';
import { SyncError } from '../model/sync-error.js';
import type { LocalEntry } from './sync-types.js';
import { assetIfAny, guard, type UploadExecutorDeps, type UploadOutcome, type UploadRoot, type VersionItem } from './upload-common.js';
import type { UploadPaths } from './upload-paths.js';
import type { UploadRemains } from './upload-remains.js';

/** The upload jobs this one builds on, made once by the executor. */
export interface VersionUploadParts {
  /** Files in flight, shared with the new-file batches. */
  files: ConcurrencyLimit;
  sending: PartSending;
  paths: UploadPaths;
  adoption: OrphanAdoption;
  remains: UploadRemains;
}

export class VersionUploads {
  constructor(
    private readonly deps: Pick<UploadExecutorDeps, 'api' | 'journal' | 'nowIso' | 'syncedAt'>,
    private readonly shared: VersionUploadParts,
  ) {}

  /** New content for synced assets: a new AssetFile version each, the asset id kept (and its name: `VersionItem`). */
  async uploadVersions(root: UploadRoot, items: readonly VersionItem[]): Promise<UploadOutcome[]> {
    return Promise.all(items.map(({ assetId, local, serviceName }) => guard(local.relPath, () => this.uploadToAsset(root, 'VERSION', assetId, local, serviceName))));
  }

  async uploadToAsset(root: UploadRoot, kind: 'NEW' | 'VERSION', assetId: string, local: LocalEntry, serviceName?: string): Promise<UploadOutcome> {
    // An upload of this very file that an outage interrupted (service down, connection reset, URLs
    // expired while the machine slept) goes on where it stopped, as after a restart: only the parts
    // the service has not confirmed are sent, not the whole file again after every failed attempt.
    const interrupted = this.interruptedUpload(root, assetId, local);
    if (interrupted !== undefined) return this.continueUpload(root, interrupted);
    return this.shared.files.run(async () => {
      const { api, journal } = this.deps;
      // (Re)writes the journal with the identity being sent now, keeping the asset it is for (and its folder).
      const known = journal.get(root.id, local.relPath);
      const superseded = kind === 'VERSION' && known?.kind === 'NEW' && known.assetId !== assetId;
      if (superseded) await this.endSuperseded(root, known);
      const kept = superseded ? undefined : known;
      journal.begin(root.id, kept?.kind ?? kind, 'v', local, assetId, this.deps.nowIso(), kept?.folderOption ?? null);
      const path = await this.shared.paths.uploadPath(root, kind, assetId, local.relPath, serviceName);
      const upload = await api.createUpload({ assetId, assetFileId: null, path, size: local.size, partSize: defaultPartSize(local.size) });
      journal.uploadCreated(root.id, local.relPath, assetId, upload.uploadId, upload.partSize);
      return this.shared.sending.sendAndComplete(root, local, assetId, upload, new Map());
    });
  }

  /**
   * Goes on with an upload the journal holds. `resumed`: after a restart, when the asset may have
   * taken another writer's version since the plan (`unlessOvertaken`, checked once the service says
   * the upload did not complete); a running engine's next pass planned the upload again just now.
   */
  async continueUpload(root: UploadRoot, entry: JournalEntry & { assetId: string }, { resumed = false } = {}): Promise<UploadOutcome> {
    const { sending } = this.shared;
    return this.shared.files.run(async () => {
      const { api } = this.deps;
      const partSize = entry.partSize ?? defaultPartSize(entry.local.size);
      const missing = missingPartNumbers(entry.local.size, partSize, entry.parts.keys());
      let upload: AssetUpload;
      try {
        upload =
          missing.length === 0
            ? { id: '', uploadId: entry.uploadId ?? '', assetId: entry.assetId, assetFileId: null, size: entry.local.size, partSize, expiresAt: '', parts: [] }
            : await api.resumeUpload({ uploadId: entry.uploadId ?? '', assetId: entry.assetId, size: entry.local.size, partSize, parts: missing.map((partNumber) => ({ partNumber })) });
      } catch (error) {
        // Completed while the engine was not listening (a one-part PUT completes itself; or the
        // completion's own record was rolled back by a crash): recorded if it holds this file, not
        // sent again as a second version of the same bytes.
        if (isApiError(error, 'UPLOAD_ALREADY_COMPLETED')) {
          const filePath = await sending.currentPath(root, entry.local);
          const landed = filePath === undefined ? undefined : await sending.completedUnheard(entry.assetId, entry.local, filePath);
          if (landed !== undefined) return sending.record(root, entry.local, entry.assetId, landed, 0);
          // Our bytes landed, and another writer's version went on top since (a colleague or another
          // device): sent again, they would put this older file back over that version. Synced at our
          // bytes, the next pass sees the newer version as a change of the service.
          const superseded = filePath === undefined ? undefined : await sending.landedBeneath(entry.assetId, entry.local, filePath);
          if (superseded !== undefined) return sending.record(root, entry.local, entry.assetId, superseded.asset, 0, undefined, superseded.md5);
        }
        // The service forgot the upload (expired, swept), or completed it with other bytes: a fresh one for the same asset.
        if (isApiError(error) && (error.code === 'UPLOAD_EXPIRED' || error.code === 'NOT_FOUND' || error.code === 'UPLOAD_ALREADY_COMPLETED')) {
          this.deps.journal.forgetUpload(root.id, entry.relPath, entry.assetId);
          const path = await this.shared.paths.uploadPath(root, entry.kind, entry.assetId, entry.relPath);
          const fresh = await api.createUpload({ assetId: entry.assetId, assetFileId: null, path, size: entry.local.size, partSize: defaultPartSize(entry.local.size) });
          this.deps.journal.uploadCreated(root.id, entry.relPath, entry.assetId, fresh.uploadId, fresh.partSize);
          return sending.sendAndComplete(root, entry.local, entry.assetId, fresh, new Map());
        }
        throw error;
      }
      if (resumed) await this.unlessOvertaken(root, entry, entry.assetId);
      return sending.sendAndComplete(root, entry.local, entry.assetId, upload, new Map(entry.parts));
    });
  }

  /**
   * Ends an interrupted version upload, before it sends anything, when the asset took another writer's
   * version after the plan the upload began from: its current file is neither the version the file
   * was synced at (the upload's basis) nor the file's bytes. The file's change and the service's then
   * meet in the planner, as when both happen between two passes: a conflict, whose copy keeps the file
   * (DESIGN.md §3, "both changed"). Sent on, the file's bytes would go over the newer version unseen,
   * kept only in the history (version-uploads.test.ts). Where the synced row names no basis for this
   * asset, the upload goes on.
   */
  async unlessOvertaken(root: UploadRoot, entry: JournalEntry, assetId: string): Promise<void> {
    if (entry.kind !== 'VERSION') return;
    const basis = this.deps.syncedAt(root.id, entry.relPath);
    if (basis?.assetId !== assetId) return;
    const current = currentMd5(await assetIfAny(this.deps.api, assetId));
    if (current === undefined || current === basis.md5 || current === entry.local.md5) return;
    this.deps.journal.finish(root.id, entry.relPath);
    throw new SyncError('LOCAL_FILE_CHANGED', `${entry.relPath}: another version reached the service while its upload was interrupted; both versions are compared again.`);
  }

  /**
   * A new file's upload whose path now syncs to another asset (ours became a conflict copy, a
   * colleague's file took the name), about to be written over by that asset's version: its asset, if
   * still empty, goes to the bin first (adopted first when the job's answer never came), as
   * abandoned-uploads.ts does. Written over, the journal would forget the empty asset and it would
   * stay live without a file.
   */
  private async endSuperseded(root: UploadRoot, entry: JournalEntry): Promise<void> {
    const adoption = entry.assetId === null ? await this.shared.adoption.adopt(root, [entry]) : undefined;
    if (adoption?.undecided.has(entry.relPath) === true) throw undecidedError();
    const assetId = entry.assetId ?? adoption?.adopted.get(entry.relPath);
    if (assetId !== undefined) await this.shared.remains.binIfEmpty(assetId);
  }

  /** The journal's upload of `local` to `assetId` with parts to go on from, if the file is still the one it began with. */
  private interruptedUpload(root: UploadRoot, assetId: string, local: LocalEntry): (JournalEntry & { assetId: string }) | undefined {
    const entry = this.deps.journal.get(root.id, local.relPath);
    if (entry?.assetId !== assetId || entry.uploadId === null || entry.uploadId === '' || entry.partSize === null) return undefined;
    if (!sameSignature(entry.local, local) || entry.local.dev !== local.dev) return undefined;
    return { ...entry, assetId };
  }
}
