/**
 * Carries out uploads (DESIGN.md §3): new files become assets through batched asset-and-upload jobs,
 * changed files become new versions. Every step lands in the upload journal before the next begins —
 * the intent before the job, the upload id before the first byte, each confirmed part — so a crash
 * resumes with only the missing parts (fresh URLs when the old ones expired), and a file that changed
 * meanwhile restarts its upload instead of sending a mix of two versions.
 *
 * Must never: create a second asset for a file the journal already has one for; record a file as
 * synced with a checksum the service did not confirm; send a part of a file whose identity changed.
 */
import { defaultPartSize } from '../../shared/api/part-layout.js';
import type { Asset, AssetUpload } from '../../shared/api/resources.js';
import type { AssetApi, UploadItem } from '../api/index.js';
import { currentMd5, isApiError, missingPartNumbers, unlessNotFound } from '../api/index.js';
import type { UploadJournal, JournalEntry } from '../db/upload-journal.js';
import type { FileSystem } from '../local/index.js';
import { HASH_READ_BYTES, LocalError, PathLocator, hashFile, sameSignature } from '../local/index.js';
import { baseName } from '../local/rel-path.js';
import type { FolderMapper, FolderRoot } from '../remote/folder-mapper.js';
import { relDirOf, remoteFilePath, versionFilePath } from '../remote/folder-mapper.js';
import { spellsHere } from '../local/local-names.js';
import { ConcurrencyLimit } from '../../shared/concurrency-limit.js';
import { PartWindow, type WindowClock } from './part-window.js';
import { fileOnDiskPath, locateFile } from './locate-file.js';
import { SyncError } from '../model/sync-error.js';
import type { LocalEntry, SyncedEntry } from './sync-types.js';
import type { PlantedBug } from './planted-bug.js';

export interface UploadRoot extends FolderRoot {
  /** Absolute path of the local folder. */
  path: string;
  publishLive: boolean;
}

export interface UploadOutcome {
  relPath: string;
  /**
   * The placement now agreed on, or the error that stopped it. `asset` is the service's answer to the
   * completion when nothing changed the asset after it (the remote snapshot takes it as it is).
   */
  result: { ok: true; synced: SyncedEntry; bytesSent: number; asset?: Asset } | { ok: false; error: unknown };
}

/** A synced file's new content, for its asset. */
export interface VersionItem {
  assetId: string;
  local: LocalEntry;
  /**
   * The asset's current name on the service, where the caller knows it (its listing does, and no move
   * of this pass renamed the asset), which the version keeps (folder-mapper.ts `versionFilePath`).
   * Absent: the service is asked.
   */
  serviceName?: string | undefined;
}

export interface UploadExecutorDeps {
  api: AssetApi;
  fs: FileSystem;
  journal: UploadJournal;
  folders: FolderMapper;
  nowIso(): string;
  /** Records a finished placement and clears the journal in one transaction; resolves once committed. */
  commit(rootId: string, synced: SyncedEntry): Promise<void>;
  /** The synced row at a path: what the file and the service last agreed on (a version upload's basis). */
  syncedAt(rootId: string, relPath: string): SyncedEntry | undefined;
  /** Path → the binned asset the file there outlives (db/migrations/0008-successors.ts), whose name its new asset takes. */
  outlived?(rootId: string): ReadonlyMap<string, string>;
  /** Called as bytes leave, for progress. */
  onBytes?(relPath: string, bytes: number): void;
  /** Times the parts, so the parts in flight hold a few seconds of sending (part-window.ts); Date.now by default. */
  clock?: WindowClock;
  limits?: { filesInFlight?: number; partsInFlight?: number; batchSize?: number };
  /** A bug planted for the simulation's own test [test-only] (planted-bug.ts); never set otherwise. */
  plantedBug?: PlantedBug;
}

const JOBS_IN_FLIGHT = 2;

/** What a batch of new files shares with each file's upload. */
interface BatchContext {
  /** Checks each directory of the batch once. */
  locator: PathLocator;
  /** The Folders option of the file's directory, as the batch looked it up. */
  option: string | null;
}

export class UploadExecutor {
  private readonly files: ConcurrencyLimit;
  /** Part PUTs of all files in flight: at most `partsInFlight`, and only a few seconds' worth of bytes. */
  private readonly parts: PartWindow;
  private readonly batchSize: number;
  /**
   * Asset-and-upload jobs in flight: one being created and polled while the service runs the other.
   * One at a time, every job waited for its own round trips (folder lookups, the POST, the first poll's
   * wait): on loopback 5,000 new files needed 5.2 s to get all their jobs, 2.8 s with two in flight
   * (the whole sync took as long: this machine's two CPUs were busy either way). Against a distant
   * service, where each round trip costs tens of ms, the jobs would otherwise set the pace.
   */
  private readonly jobs = new ConcurrencyLimit(JOBS_IN_FLIGHT);
  /** Per root, the paths whose upload found the file changed on disk since the last `dropAbandoned`. */
  private readonly changedOnDisk = new Map<string, Set<string>>();

  constructor(private readonly deps: UploadExecutorDeps) {
    this.files = new ConcurrencyLimit(deps.limits?.filesInFlight ?? 8);
    this.parts = new PartWindow(deps.clock ?? { now: () => Date.now() }, { maxParts: deps.limits?.partsInFlight ?? 8 });
    this.batchSize = deps.limits?.batchSize ?? 100;
  }

  /** New files: one asset each, created in batches; files the journal already has an asset for reuse it. */
  async uploadNew(root: UploadRoot, entries: readonly LocalEntry[]): Promise<UploadOutcome[]> {
    const outcomes: Promise<UploadOutcome>[] = [];
    const fresh: LocalEntry[] = [];
    const intents: { local: LocalEntry; entry: JournalEntry }[] = [];
    /** Files whose journal names their asset already (or adopts it below). */
    const reused: { local: LocalEntry; entry: JournalEntry; assetId: string }[] = [];
    for (const local of entries) {
      const known = this.deps.journal.get(root.id, local.relPath);
      // A version's entry names the asset that was synced at this path, not an asset made for this
      // file: a new file here means the path syncs no asset now (moved away, forgotten), so the entry
      // is void and the file goes up as its own asset. Reused, a file written where a folder had been
      // renamed away went up as a version of the moved asset, synced at both paths: the old path's row,
      // no placement on the service, read as "moved here, removed there" once that folder moved too,
      // and its restoring move waited on every pass (seed 95042).
      if (known?.kind === 'VERSION') {
        this.deps.journal.finish(root.id, local.relPath);
        fresh.push(local);
      } else if (known?.assetId != null) reused.push({ local, entry: known, assetId: known.assetId });
      else if (known !== undefined) intents.push({ local, entry: known });
      else fresh.push(local);
    }
    if (intents.length > 0) {
      // An intent without an asset is a batch whose answer never came (createBatch keeps those): the
      // job may have created the asset, so look for it before creating another. `resume` does the
      // same after a restart; this is the running engine's next pass.
      let adoption: Adoption | undefined;
      try {
        adoption = await this.adoptOrphans(root, intents.map(({ entry }) => entry));
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
      const elsewhere = await this.filedElsewhere(root, entry, assetId).catch((error: unknown) => error);
      if (elsewhere === true) fresh.push(local);
      else if (elsewhere === false) outcomes.push(this.guard(local.relPath, () => this.uploadToAsset(root, 'NEW', assetId, local)));
      else outcomes.push(Promise.resolve(failed(local.relPath, elsewhere)));
    }
    const batches: LocalEntry[][] = [];
    for (let start = 0; start < fresh.length; start += this.batchSize) batches.push(fresh.slice(start, start + this.batchSize));
    const created = await Promise.all(batches.map((batch) => this.jobs.run(() => this.createBatch(root, batch))));
    outcomes.push(...created.flat());
    const done = await Promise.all(outcomes);
    await this.publish(root, done);
    return done;
  }

  /** New content for synced assets: a new AssetFile version each, the asset id kept (and its name: `VersionItem`). */
  async uploadVersions(root: UploadRoot, items: readonly VersionItem[]): Promise<UploadOutcome[]> {
    return Promise.all(items.map(({ assetId, local, serviceName }) => this.guard(local.relPath, () => this.uploadToAsset(root, 'VERSION', assetId, local, serviceName))));
  }

  /**
   * Finishes what the journal says was under way when the engine stopped (the entries of the paths
   * `which` picks). Entries whose file changed keep their asset (the next upload of that path reuses
   * it) but lose their upload.
   */
  async resume(root: UploadRoot, which: (relPath: string) => boolean = () => true): Promise<UploadOutcome[]> {
    const entries = this.deps.journal.all(root.id).filter((entry) => which(entry.relPath));
    const orphans = entries.filter((entry) => entry.assetId === null);
    let adoption: Adoption = { adopted: new Map(), undecided: new Set() };
    let searchFailed: Error | undefined;
    try {
      if (orphans.length > 0) adoption = await this.adoptOrphans(root, orphans);
    } catch (error) {
      // Not knowing is not "nothing there": keep the intents for the next pass (uploadNew adopts too).
      searchFailed = error instanceof Error ? error : new SyncError('FOLDER_UNAVAILABLE', `Cannot look for the assets of interrupted uploads: ${String(error)}`);
    }
    const outcomes = await Promise.all(
      entries.map((entry) =>
        this.guard(entry.relPath, async () => {
          if (entry.assetId === null && searchFailed !== undefined) throw searchFailed;
          if (entry.assetId === null && adoption.undecided.has(entry.relPath)) throw undecidedError();
          const assetId = entry.assetId ?? adoption.adopted.get(entry.relPath);
          if ((await locateFile(this.deps.fs, root.path, entry.relPath).catch(() => undefined)) === undefined) {
            // Deleted (or moved away) while the engine was down: nothing is left to send.
            const sent = assetId === undefined ? undefined : await this.vanishedUpload(root, entry, assetId);
            if (sent !== undefined) return sent;
            this.deps.journal.finish(root.id, entry.relPath);
            return undefined;
          }
          if (assetId === undefined) {
            // The job never created an asset (or we cannot find it): start from scratch next pass.
            this.deps.journal.finish(root.id, entry.relPath);
            throw new SyncError('LOCAL_FILE_CHANGED', 'The interrupted upload left nothing on the service; it starts again.');
          }
          if (await this.filedElsewhere(root, entry, assetId)) {
            this.deps.journal.finish(root.id, entry.relPath);
            throw new SyncError('LOCAL_FILE_CHANGED', "The interrupted upload's folder was renamed on the service; it starts again.");
          }
          if ((await this.currentPath(root, entry.local)) === undefined) {
            // Changed since, but the upload may have completed unheard before the crash (a one-part PUT
            // completes itself). Recorded as synced at the bytes it sent, the next plan sees a synced file
            // changed (a version of that asset, following a folder rename). Forgotten, the asset stayed
            // at its old path while the file uploaded again as a second asset (seed 74372), or the entry
            // failed every pass once its path had synced otherwise (seed 73425).
            const landed = entry.uploadId === null ? undefined : await this.landedUnheard(root, entry, assetId);
            if (landed !== undefined) return landed;
            this.deps.journal.forgetUpload(root.id, entry.relPath, assetId);
            throw new SyncError('LOCAL_FILE_CHANGED', 'The file changed while it was being uploaded; it uploads again once it settles.');
          }
          if (entry.uploadId === null || entry.uploadId === '' || entry.partSize === null) {
            await this.unlessOvertaken(root, entry, assetId);
            return this.uploadToAsset(root, entry.kind, assetId, entry.local);
          }
          return this.continueUpload(root, { ...entry, assetId }, { resumed: true });
        }),
      ),
    );
    const done = outcomes.filter((outcome) => outcome !== undefined);
    // New files finished after a restart are published like any other (`--publish live`).
    await this.publish(root, done.filter((outcome) => entries.find((entry) => entry.relPath === outcome.relPath)?.kind === 'NEW'));
    return done;
  }

  /**
   * Ends the new files' uploads that no upload will ever finish: the file went away while the engine
   * ran (renamed, a case-only rename included, moved, deleted after an upload failed or was
   * interrupted), or its path now holds another asset's file (a colleague's file took the name and ours
   * became a conflict copy). An empty asset goes to the bin and a completed one gone from disk is
   * recorded (`vanishedUpload`), as `resume` does after a restart. Without this a running engine kept
   * the entry for good, and the asset the batch job had made stayed on the service without a file.
   * An entry without an asset adopts its job's asset first; whatever cannot be settled now (the
   * service unreachable) is kept for the next pass. Returns the paths whose upload ended.
   *
   * Looks only at the entries the snapshots no longer back (`UploadJournal.unbacked`: one query) and
   * those whose upload found its file changed on disk since the last sweep: the scan already said
   * where the others' files are. Each of those is looked for on disk as spelled (`exactNames`): on a
   * case-insensitive disk `Logo.png` answers an lstat of `logo.png`, and the entry of a file renamed
   * so stayed for good while its new name uploaded as another asset. Stat-ing every entry instead cost
   * a file system call per new file still to upload after each pass (thousands during an offline
   * ingest).
   */
  async dropAbandoned(root: UploadRoot): Promise<string[]> {
    const { journal } = this.deps;
    const candidates = new Map(journal.unbacked(root.id).map((candidate) => [candidate.entry.relPath, candidate]));
    // A file swapped mid-pass (for a symlink, say) is still a file in the snapshot until the next scan.
    for (const relPath of this.changedOnDisk.get(root.id) ?? []) {
      const entry = candidates.has(relPath) ? undefined : journal.get(root.id, relPath);
      if (entry?.kind === 'NEW') candidates.set(relPath, { entry, holder: undefined });
    }
    this.changedOnDisk.delete(root.id);
    if (candidates.size === 0) return [];
    const locator = new PathLocator(this.deps.fs, root.path, { exactNames: true });
    const gone: { entry: JournalEntry; holder: string | undefined }[] = [];
    for (const candidate of candidates.values()) {
      if (candidate.holder !== undefined) gone.push(candidate);
      else if ((await locateFile(this.deps.fs, root.path, candidate.entry.relPath, locator).catch(() => undefined)) === undefined) gone.push(candidate);
    }
    if (gone.length === 0) return [];
    const orphans = gone.filter(({ entry }) => entry.assetId === null).map(({ entry }) => entry);
    const adoption = orphans.length === 0 ? { adopted: new Map<string, string>(), undecided: new Set<string>() } : await this.adoptOrphans(root, orphans).catch(() => undefined);
    const dropped: string[] = [];
    for (const { entry, holder } of gone) {
      // Not knowing whether the job made an asset is not "it made none": asked again next pass.
      if (entry.assetId === null && (adoption === undefined || adoption.undecided.has(entry.relPath))) continue;
      const assetId = entry.assetId ?? adoption?.adopted.get(entry.relPath);
      try {
        // A file gone: its upload may have completed unheard (recorded as synced, so it follows the
        // file's move or deletion); a path another asset took: ours is binned only if empty.
        if (assetId !== undefined && holder === undefined) await this.vanishedUpload(root, entry, assetId);
        else if (assetId !== undefined) await this.binIfEmpty(assetId);
      } catch {
        continue;
      }
      journal.finish(root.id, entry.relPath);
      dropped.push(entry.relPath);
    }
    return dropped;
  }

  /**
   * The path an upload of the file at `relPath` to `assetId` goes up under. A new file's, its own; a
   * version's keeps the asset's name on the service (`versionFilePath`), as the pass's listing knew it
   * or as the service answers now when the caller does not know (the listing is behind on it, a
   * restart's resumed upload). A failure to ask fails the upload.
   */
  private async uploadPath(root: UploadRoot, kind: 'NEW' | 'VERSION', assetId: string, relPath: string, serviceName?: string): Promise<string> {
    if (kind === 'NEW') return this.newFilePath(root, relPath);
    const name = serviceName ?? (await this.assetIfAny(assetId))?.currentAssetFile?.filename;
    return versionFilePath(root, relPath, name);
  }

  /**
   * The path a new file's asset goes up under: its own, unless the file outlives a binned asset
   * (`outlived`) and its name is only how this disk holds that asset's (`spellsHere`: numbered apart
   * from a namesake, made safe). Then the binned asset's name, which the engine's number never
   * replaces on the service (seed 102721). An asset deleted for good leaves the file's own name.
   * `outlived`: the root's, read once by the caller for a batch.
   */
  private async newFilePath(root: UploadRoot, relPath: string, outlived = this.deps.outlived?.(root.id)): Promise<string> {
    const binned = outlived?.get(relPath);
    if (binned === undefined) return remoteFilePath(root, relPath);
    const name = (await this.assetIfAny(binned))?.currentAssetFile?.filename;
    return name !== undefined && spellsHere(baseName(relPath), name) ? versionFilePath(root, relPath, name) : remoteFilePath(root, relPath);
  }

  /** The asset, or undefined when the service no longer has it (deleted for good). */
  private assetIfAny(assetId: string): Promise<Asset | undefined> {
    return unlessNotFound(this.deps.api.getAsset(assetId));
  }

  /** Moves an asset with no file to the bin (an upload's asset whose file went away); leaves any other alone. */
  private async binIfEmpty(assetId: string): Promise<void> {
    const asset = await this.assetIfAny(assetId);
    if (asset === undefined || asset.currentAssetFile != null || asset.lifecycleStatus.state === 'BINNED') return;
    await this.deps.api.transitionLifecycle({ type: 'BY_IDS', assetIds: [assetId] }, 'BINNED');
  }

  /**
   * Whether a new file's asset, still empty, is in a folder the file's directory no longer maps to:
   * the folder was renamed on the service (`A/C` → `A/c`, the option keeping its id) while the file
   * stayed in `A/C`. Then the asset goes to the bin and the file starts again where its path leads;
   * filled, it stayed live in `A/c`, beside the file's own asset or its conflict copy (seed 50174).
   * An asset with a file stays: those bytes are the file's, and its folder is the remote side's news.
   */
  private async filedElsewhere(root: UploadRoot, entry: JournalEntry, assetId: string): Promise<boolean> {
    if (entry.kind !== 'NEW' || entry.folderOption === null) return false;
    if ((await this.deps.folders.optionFor(root, relDirOf(entry.relPath))) === entry.folderOption) return false;
    const asset = await this.assetIfAny(assetId);
    if (asset?.currentAssetFile != null) return false;
    if (asset !== undefined && asset.lifecycleStatus.state !== 'BINNED') await this.deps.api.transitionLifecycle({ type: 'BY_IDS', assetIds: [assetId] }, 'BINNED');
    return true;
  }

  /**
   * The journal's upload of a file that went away while the engine was down. The upload may have
   * completed although its answer was lost (a one-part PUT completes itself; a crash after the
   * completion's commit): the service then holds the file's bytes at the path they were sent to, and
   * that placement is recorded as synced, so the next plan sees a synced file moved (the asset follows
   * it) or deleted (held or trashed like any deletion). Forgetting it left the asset live at the old
   * path, downloaded there again, while the moved file became a second asset of the same content.
   * An asset made for a new file that has no version yet goes to the bin rather than stay behind empty.
   */
  private async vanishedUpload(root: UploadRoot, entry: JournalEntry, assetId: string): Promise<UploadOutcome | undefined> {
    const asset = await this.assetIfAny(assetId);
    if (asset === undefined || asset.lifecycleStatus.state === 'BINNED') return undefined;
    if (asset.currentAssetFile === null) {
      if (entry.kind === 'NEW') await this.deps.api.transitionLifecycle({ type: 'BY_IDS', assetIds: [assetId] }, 'BINNED');
      return undefined;
    }
    return this.recordIfSent(root, entry, asset);
  }

  /**
   * The journal's upload recorded as synced when the asset, live, holds what it sent (as `vanishedUpload`
   * does); an empty asset stays for the next upload.
   */
  private async landedUnheard(root: UploadRoot, entry: JournalEntry, assetId: string): Promise<UploadOutcome | undefined> {
    const asset = await this.assetIfAny(assetId);
    if (asset === undefined || asset.lifecycleStatus.state === 'BINNED' || asset.currentAssetFile === null) return undefined;
    return this.recordIfSent(root, entry, asset);
  }

  /**
   * `recordIfOurs` at the bytes the journal's upload sent. A new file's journal may not know them (its
   * hash is taken while sending), but its asset was made empty for this upload, so its first version
   * is what the upload sent: synced at those bytes, a colleague's version on top is the remote side's
   * change, and the conflict rule decides between it and the file's new bytes or its deletion (the edit
   * wins). Synced at the current version, the file's new bytes went up over the colleague's without a
   * conflict copy, and a file deleted before the restart took the colleague's version to the bin.
   */
  private async recordIfSent(root: UploadRoot, entry: JournalEntry, asset: Asset): Promise<UploadOutcome | undefined> {
    if (entry.kind !== 'NEW' || entry.local.md5 !== null) return this.recordIfOurs(root, entry, asset);
    // Oldest first; the service lists the newest first, so among versions of one instant the last listed.
    const [sent] = (await this.deps.api.listAssetFiles(asset.id)).reverse().sort((a, b) => Date.parse(a.dateAdded) - Date.parse(b.dateAdded));
    return sent === undefined ? undefined : this.recordIfOurs(root, entry, asset, sent.checksum.toLowerCase());
  }

  /** Records the journal's upload as synced at `sentMd5` (by default the asset's current file, if it holds the bytes the journal began sending). */
  private async recordIfOurs(root: UploadRoot, entry: JournalEntry, asset: Asset, sentMd5?: string): Promise<UploadOutcome | undefined> {
    const assetId = asset.id;
    const checksum = sentMd5 ?? currentMd5(asset);
    if (checksum === undefined) return undefined;
    // A new file's asset got its only bytes from this upload; a version is ours when it holds the bytes
    // the journal began sending (otherwise it is another writer's, and the remote side's news).
    const ours = entry.local.md5 === null ? entry.kind === 'NEW' : entry.local.md5 === checksum;
    if (!ours) return undefined;
    const { relPath, size, mtimeMs, ino, dev } = entry.local;
    const synced: SyncedEntry = { relPath, assetId, md5: checksum, size, mtimeMs, ino, dev };
    await this.deps.commit(root.id, synced);
    return { relPath, result: { ok: true, synced, bytesSent: 0, asset } };
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
          return { batchItemId: `f${index}`, path: await this.newFilePath(root, local.relPath, outlived), size: local.size, partSize: defaultPartSize(local.size) };
        }),
      );
    } catch (error) {
      return batch.map((local) => Promise.resolve(failed(local.relPath, error)));
    }
    // One transaction per batch, not one per file: with thousands of small files the state database's
    // commits are a measurable share of the engine's time (bench/sync-engine.ts).
    const intend = (): void => journal.inTransaction(() => batch.forEach((local, index) => journal.begin(root.id, 'NEW', `f${index}`, local, null, now, folderOptions[index] ?? null)));
    const late = this.deps.plantedBug === 'journal-after-job';
    if (!late) intend();
    let outcome: Awaited<ReturnType<AssetApi['createAssetsWithUploads']>>;
    try {
      outcome = await api.createAssetsWithUploads(items, (jobId) => journal.jobCreated(root.id, batch.map((local) => local.relPath), jobId));
      if (late) intend();
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
      return this.guard(local.relPath, () => this.files.run(() => this.sendAndComplete(root, local, success.assetId, success.upload, new Map(), context)));
    });
  }

  private async uploadToAsset(root: UploadRoot, kind: 'NEW' | 'VERSION', assetId: string, local: LocalEntry, serviceName?: string): Promise<UploadOutcome> {
    // An upload of this very file that an outage interrupted (service down, connection reset, URLs
    // expired while the machine slept) goes on where it stopped, as after a restart: only the parts
    // the service has not confirmed are sent. Starting afresh here sent the whole file again after
    // every failed attempt of a running engine.
    const interrupted = this.interruptedUpload(root, assetId, local);
    if (interrupted !== undefined) return this.continueUpload(root, interrupted);
    return this.files.run(async () => {
      const { api, journal } = this.deps;
      // (Re)writes the journal with the identity being sent now, keeping the asset it is for (and its folder).
      const known = journal.get(root.id, local.relPath);
      const superseded = kind === 'VERSION' && known?.kind === 'NEW' && known.assetId !== assetId;
      if (superseded) await this.endSuperseded(root, known);
      const kept = superseded ? undefined : known;
      journal.begin(root.id, kept?.kind ?? kind, 'v', local, assetId, this.deps.nowIso(), kept?.folderOption ?? null);
      const path = await this.uploadPath(root, kind, assetId, local.relPath, serviceName);
      const upload = await api.createUpload({ assetId, assetFileId: null, path, size: local.size, partSize: defaultPartSize(local.size) });
      journal.uploadCreated(root.id, local.relPath, assetId, upload.uploadId, upload.partSize);
      return this.sendAndComplete(root, local, assetId, upload, new Map());
    });
  }

  /**
   * Ends an interrupted version upload, before it sends anything, when the asset took another writer's
   * version after the plan the upload began from: its current file is neither the version the file
   * was synced at (the upload's basis) nor the file's bytes. The file's change and the service's then
   * meet in the planner, as when both happen between two passes: a conflict, whose copy keeps the file
   * (DESIGN.md §3, "both changed"). Sent on, the file's bytes went over the newer version unseen, kept
   * only in the history: a colleague wrote to an asset a restoring move had brought back while the
   * move's upload of the file's (older) bytes waited for a restart (simulation seed 97171, 1115's
   * class without a completed upload). Where the synced row names no basis for this asset, the upload
   * goes on as before.
   */
  private async unlessOvertaken(root: UploadRoot, entry: JournalEntry, assetId: string): Promise<void> {
    if (entry.kind !== 'VERSION') return;
    const basis = this.deps.syncedAt(root.id, entry.relPath);
    if (basis?.assetId !== assetId) return;
    const current = currentMd5(await this.assetIfAny(assetId));
    if (current === undefined || current === basis.md5 || current === entry.local.md5) return;
    this.deps.journal.finish(root.id, entry.relPath);
    throw new SyncError('LOCAL_FILE_CHANGED', `${entry.relPath}: another version reached the service while its upload was interrupted; both versions are compared again.`);
  }

  /**
   * A new file's upload whose path now syncs to another asset (ours became a conflict copy, a
   * colleague's file took the name), about to be written over by that asset's version: its asset, if
   * still empty, goes to the bin first (adopted first when the job's answer never came), as
   * `dropAbandoned` does. Written over, the journal forgot the empty asset and it stayed live without
   * a file: a crash after the conflict's pass, before its `dropAbandoned`, left it so (seed 87048).
   */
  private async endSuperseded(root: UploadRoot, entry: JournalEntry): Promise<void> {
    const adoption = entry.assetId === null ? await this.adoptOrphans(root, [entry]) : undefined;
    if (adoption?.undecided.has(entry.relPath) === true) throw undecidedError();
    const assetId = entry.assetId ?? adoption?.adopted.get(entry.relPath);
    if (assetId !== undefined) await this.binIfEmpty(assetId);
  }

  /** The journal's upload of `local` to `assetId` with parts to go on from, if the file is still the one it began with. */
  private interruptedUpload(root: UploadRoot, assetId: string, local: LocalEntry): (JournalEntry & { assetId: string }) | undefined {
    const entry = this.deps.journal.get(root.id, local.relPath);
    if (entry?.assetId !== assetId || entry.uploadId === null || entry.uploadId === '' || entry.partSize === null) return undefined;
    if (!sameSignature(entry.local, local) || entry.local.dev !== local.dev) return undefined;
    return { ...entry, assetId };
  }

  /**
   * Goes on with an upload the journal holds. `resumed`: after a restart, when the asset may have
   * taken another writer's version since the plan (`unlessOvertaken`, checked once the service says
   * the upload did not complete); a running engine's next pass planned the upload again just now.
   */
  private async continueUpload(root: UploadRoot, entry: JournalEntry & { assetId: string }, { resumed = false } = {}): Promise<UploadOutcome> {
    return this.files.run(async () => {
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
          const filePath = await this.currentPath(root, entry.local);
          const landed = filePath === undefined ? undefined : await this.completedUnheard(entry.assetId, entry.local, filePath);
          if (landed !== undefined) return this.record(root, entry.local, entry.assetId, landed, 0);
          // Our bytes landed, and another writer's version went on top since (a colleague or another
          // device): sending them again put this older file back over that version (simulation seed
          // 1115). Synced at our bytes, the next pass sees the newer version as a change of the service.
          const superseded = filePath === undefined ? undefined : await this.landedBeneath(entry.assetId, entry.local, filePath);
          if (superseded !== undefined) return this.record(root, entry.local, entry.assetId, superseded.asset, 0, undefined, superseded.md5);
        }
        // The service forgot the upload (expired, swept), or completed it with other bytes: a fresh one for the same asset.
        if (isApiError(error) && (error.code === 'UPLOAD_EXPIRED' || error.code === 'NOT_FOUND' || error.code === 'UPLOAD_ALREADY_COMPLETED')) {
          this.deps.journal.forgetUpload(root.id, entry.relPath, entry.assetId);
          const path = await this.uploadPath(root, entry.kind, entry.assetId, entry.relPath);
          const fresh = await api.createUpload({ assetId: entry.assetId, assetFileId: null, path, size: entry.local.size, partSize: defaultPartSize(entry.local.size) });
          this.deps.journal.uploadCreated(root.id, entry.relPath, entry.assetId, fresh.uploadId, fresh.partSize);
          return this.sendAndComplete(root, entry.local, entry.assetId, fresh, new Map());
        }
        throw error;
      }
      if (resumed) await this.unlessOvertaken(root, entry, entry.assetId);
      return this.sendAndComplete(root, entry.local, entry.assetId, upload, new Map(entry.parts));
    });
  }

  /**
   * Sends the parts not yet confirmed, completes, and records the placement once the checksum matches.
   * `batch`: what the batch that created the upload found out already (its locator, the file's folder option).
   */
  private async sendAndComplete(root: UploadRoot, local: LocalEntry, assetId: string, upload: AssetUpload, confirmed: Map<number, string>, batch?: BatchContext): Promise<UploadOutcome> {
    const { api, journal } = this.deps;
    const locator = batch?.locator;
    const toSend = upload.parts.filter((part) => !confirmed.has(part.partNumber));
    // Each PUT checks the file on the descriptor it reads from (`expected`), so the path alone is
    // needed here: no lstat of every file before its PUT. With nothing left to send, the file is
    // checked here before the completion, as it always was.
    const filePath = toSend.length > 0 ? await this.pathOf(root, local, locator) : await this.currentPath(root, local, locator);
    if (filePath === undefined) throw this.changed(root, local, assetId);
    const expected = { size: local.size, mtimeMs: local.mtimeMs, ino: local.ino };
    let bytesSent = 0;
    // A one-part upload asks its PUT to complete it too (our service does; others answer the part).
    const onePart = upload.parts.length === 1 && confirmed.size === 0;
    let completed: Asset | undefined;
    // The first part that fails for good stops the others: a part still queued or retrying after the
    // file's outcome was reported would race the next attempt, which sends the same parts again.
    const stop = new AbortController();
    let firstError: unknown;
    try {
      const settled = await Promise.allSettled(
        toSend.map((part) =>
          this.parts.run(part.byteRange.end - part.byteRange.start, async () => {
            // Rejected, not resolved: a part never sent must not count as sent in the window's rate.
            if (stop.signal.aborted) throw firstError;
            const answer = await api.putPart({
              url: part.url,
              filePath,
              expected,
              start: part.byteRange.start,
              end: part.byteRange.end,
              onProgress: (bytes) => this.deps.onBytes?.(local.relPath, bytes),
              signal: stop.signal,
              ...(onePart ? { complete: true } : {}),
            });
            const { eTag } = answer;
            if (answer.completed?.id === assetId) completed = answer.completed;
            bytesSent += part.byteRange.end - part.byteRange.start;
            confirmed.set(part.partNumber, eTag);
            // A one-part upload completes right after: after a crash that one part is simply sent
            // again, which costs less than a journal write for every small file.
            if (upload.parts.length > 1 || confirmed.size > 1) journal.partsConfirmed(root.id, local.relPath, confirmed);
          }).catch((error: unknown) => {
            firstError ??= error;
            stop.abort();
            throw error;
          }),
        ),
      );
      if (settled.some((result) => result.status === 'rejected')) throw firstError;
    } catch (error) {
      // Not the file the upload began with (changed, replaced, gone, a symlink now): its parts so far
      // are of other bytes, so the upload goes, as when the check before sending fails.
      if (isApiError(error, 'LOCAL_FILE_CHANGED')) throw this.changed(root, local, assetId, error);
      // A one-part PUT completes the upload itself: when its answer was lost, the retry finds the
      // upload completed. The bytes are on the service; not recording them left the asset unsynced,
      // and a folder rename then uploaded the file again as a second asset (simulation seed 1312).
      const landed = onePart && isApiError(error, 'UPLOAD_ALREADY_COMPLETED') ? await this.completedUnheard(assetId, local, filePath) : undefined;
      if (landed === undefined) throw error;
      completed = landed;
      bytesSent = local.size;
    }
    const parts = [...confirmed].sort(([a], [b]) => a - b).map(([partNumber, eTag]) => ({ partNumber, eTag }));
    const asset =
      completed ??
      (await api.completeUpload({ assetId, uploadId: upload.uploadId, parts }).catch((error: unknown) => {
        // The service no longer has the upload (swept after a long absence, or its bytes were lost):
        // completing it again can never work. The asset stays; the next pass starts a new upload.
        if (isApiError(error, 'UPLOAD_EXPIRED') || isApiError(error, 'NOT_FOUND')) journal.forgetUpload(root.id, local.relPath, assetId);
        throw error;
      }));
    return this.record(root, local, assetId, asset, bytesSent, batch?.option);
  }

  /** Records a completed upload: its folder placement checked, the synced entry committed and the journal cleared. */
  private async record(root: UploadRoot, local: LocalEntry, assetId: string, asset: Asset, bytesSent: number, option?: string | null, landedMd5?: string): Promise<UploadOutcome> {
    const { journal } = this.deps;
    const checksum = landedMd5 ?? asset.currentAssetFile?.checksum;
    if (checksum === undefined) throw new SyncError('CHECKSUM_MISMATCH', 'The service completed the upload but reports no file.');
    const refiled = await this.ensureFolder(root, local.relPath, asset, option);
    // The service's checksum is what the service holds: if the file changed while it was read, the
    // snapshots disagree and the next pass uploads the new content as a version. Nothing is lost.
    const synced: SyncedEntry = { relPath: local.relPath, assetId, md5: checksum.toLowerCase(), size: local.size, mtimeMs: local.mtimeMs, ino: local.ino, dev: local.dev };
    if (this.deps.plantedBug === 'journal-outside-commit') journal.finish(root.id, local.relPath);
    await this.deps.commit(root.id, synced);
    return { relPath: local.relPath, result: { ok: true, synced, bytesSent, ...(refiled ? {} : { asset }) } };
  }

  /**
   * The asset, when the upload its one-part PUT completed unheard holds exactly the bytes of `local`
   * (hashed now if the scan did not: one part is at most 16 MiB, and this happens only after a lost answer).
   */
  private async completedUnheard(assetId: string, local: LocalEntry, filePath: string): Promise<Asset | undefined> {
    const asset = await this.deps.api.getAsset(assetId);
    const checksum = currentMd5(asset);
    if (checksum === undefined) return undefined;
    return checksum === (await this.ourChecksum(local, filePath)) ? asset : undefined;
  }

  /**
   * The MD5 of `local`: recorded, or read from `filePath`. A file that cannot be read now (a permission,
   * a change since it was recorded) leaves open whether its upload landed, so this throws and the
   * journal entry waits for a later pass: taken as "did not land", the upload started afresh and sent
   * these bytes over the version a colleague had put on top of them since (simulation seed 84002).
   */
  private async ourChecksum(local: LocalEntry, filePath: string): Promise<string> {
    if (local.md5 !== null) return local.md5;
    const outcome = await hashFile(this.deps.fs, filePath, local, new Uint8Array(HASH_READ_BYTES));
    if (outcome.kind === 'hashed') return outcome.md5;
    if (outcome.kind === 'failed') throw new LocalError('FILE_UNREADABLE', `${local.relPath} cannot be read (${outcome.code}) to tell whether its interrupted upload landed; it is tried again later.`, local.relPath);
    throw new SyncError('LOCAL_FILE_CHANGED', `${local.relPath} changed since its upload was interrupted; it is compared again.`);
  }

  /**
   * The asset and the checksum of `local`, when an older version of the asset (not its current file)
   * holds exactly the bytes of `local`: its upload completed unheard and a newer version followed.
   */
  private async landedBeneath(assetId: string, local: LocalEntry, filePath: string): Promise<{ asset: Asset; md5: string } | undefined> {
    const md5 = await this.ourChecksum(local, filePath);
    const versions = await this.deps.api.listAssetFiles(assetId);
    if (!versions.some((file) => file.checksum.toLowerCase() === md5)) return undefined;
    return { asset: await this.deps.api.getAsset(assetId), md5 };
  }

  /**
   * `path` files new assets on the local service; a server that ignores it for a folder would leave the
   * asset unfiled, so the placement is checked and added when missing. True when it had to be added.
   * An asset filed already stays where the service filed it, even when the folder cache names another
   * option for the file's directory: the cache can be behind a rename made elsewhere (`A` renamed `D`,
   * not yet listed here), the path `/A/b.txt` then made a new option `A`, and adding the cached one
   * (now `D`) filed the asset in both folders, a copy of the file in each on every disk (seed 80824's
   * scenario without faults, sim/stale-folder-cache.test.ts).
   */
  private async ensureFolder(root: UploadRoot, relPath: string, asset: Asset, known?: string | null): Promise<boolean> {
    const option = known === undefined ? await this.deps.folders.optionFor(root, relDirOf(relPath)) : known;
    if (option === null) return false;
    const fieldId = await this.deps.folders.fieldId();
    if ((asset.metadata.values[fieldId] ?? []).length > 0) return false;
    await this.deps.api.editMetadata({ type: 'BY_IDS', assetIds: [asset.id] }, [{ fieldId, type: 'BY_IDS', values: [option], operation: 'ADD' }]);
    return true;
  }

  /**
   * Finds assets a batch job created just before a crash lost its answer: by the job, when its id was
   * heard and the service still knows it; otherwise by search: STAGED by us, without a file, in the
   * folder the file was going to, staged no earlier than the intent was written (less the clock skew
   * allowed). Each journal entry of that folder takes one, in the order they were staged — except
   * assets the journal already names: an upload under way in the same folder has an empty asset too,
   * and taking it would put two files on one asset.
   *
   * The search cannot tell this client's assets from another client's of the same user (another
   * device uploading into the same folder: its asset is empty until its upload completes). Adopting
   * one of those put this file on that asset, the other device's file then went on top of it as a new
   * version, and this client's own asset stayed empty for good (simulation seed 40178). So when the
   * folder holds more such assets than entries to place, none is taken: the entries wait (`undecided`)
   * for the other uploads to complete, which gives their assets a file and takes them out of the
   * search. Two devices whose answers were both lost wait on each other (seed 7485): after
   * AMBIGUOUS_WAIT_MS what is left is taken in the order it was staged, as before. An upload under way
   * elsewhere has had an hour to finish by then, and one staged five minutes or more before this
   * intent was never a candidate.
   */
  private async adoptOrphans(root: UploadRoot, orphans: readonly JournalEntry[]): Promise<Adoption> {
    const adopted = new Map<string, string>();
    const undecided = new Set<string>();
    const owned = new Set(this.deps.journal.all(root.id).flatMap((entry) => (entry.assetId === null ? [] : [entry.assetId])));
    // A job whose id was heard says which asset it made for which item. The search below cannot: two
    // clients of one user, each with an empty staged asset of its own in the folder, look the same
    // to it, and a client adopted the other's asset, leaving its own empty for good (seed 7342).
    const byJob = new Map<string, JournalEntry[]>();
    for (const entry of orphans) if (entry.jobId !== null) byJob.set(entry.jobId, [...(byJob.get(entry.jobId) ?? []), entry]);
    const searched: JournalEntry[] = orphans.filter((entry) => entry.jobId === null);
    for (const [jobId, entries] of byJob) {
      const outcome = await this.deps.api.uploadJobOutcome(jobId).catch((error: unknown) => {
        // The service no longer knows the job (kept for a while only): look for its assets instead.
        if (isApiError(error, 'NOT_FOUND')) return undefined;
        throw error;
      });
      if (outcome === undefined) {
        searched.push(...entries);
        continue;
      }
      for (const entry of entries) {
        const assetId = outcome.successes[entry.batchItemId]?.assetId;
        if (assetId === undefined) continue;
        adopted.set(entry.relPath, assetId);
        owned.add(assetId);
      }
    }
    if (searched.length > 0) await this.adoptBySearch(root, searched, { owned, adopted, undecided });
    return { adopted, undecided };
  }

  /**
   * The search half of adoptOrphans. The job filed each asset under the option its directory mapped
   * to then (kept in the journal), and an option keeps its id when renamed: each entry is looked for
   * there, not where its path leads now (seed 50174: a colleague respelled `A/C` as `A/c` and the
   * search looked in a new `A/C`). An intent from before the option was kept is looked for where its
   * path leads.
   */
  private async adoptBySearch(root: UploadRoot, searched: readonly JournalEntry[], found: Adoption & { owned: Set<string> }): Promise<void> {
    const { owned, adopted, undecided } = found;
    const byFolder = new Map<string | null, JournalEntry[]>();
    for (const entry of searched) {
      const option = entry.folderOption ?? (await this.deps.folders.optionFor(root, relDirOf(entry.relPath)));
      byFolder.set(option, [...(byFolder.get(option) ?? []), entry]);
    }
    const fieldId = await this.deps.folders.fieldId();
    const me = (await this.deps.api.currentUser()).result.id;
    const now = Date.parse(this.deps.nowIso());
    /** Places the entries on the free assets the search finds in `option`; false when it finds none. */
    const place = async (option: string | null, entries: readonly JournalEntry[]): Promise<boolean> => {
      const folder = option === null ? { type: 'FIELD_IS_EMPTY', field: { type: 'FIELD', fieldId } } : { type: 'FIELD_EQUALS', field: { type: 'FIELD', fieldId }, value: option };
      const written = Math.min(...entries.map((entry) => Date.parse(entry.dateCreated)));
      const page = await this.deps.api.searchAssets({
        criterion: {
          type: 'AND',
          criteria: [
            folder,
            { type: 'FIELD_EQUALS', field: { type: 'FIXED', fieldName: 'LIFECYCLE_STATE' }, value: 'STAGED' },
            { type: 'FIELD_EQUALS', field: { type: 'FIXED', fieldName: 'STAGED_BY' }, value: me },
            { type: 'FIELD_IS_EMPTY', field: { type: 'FIXED', fieldName: 'CHECKSUM' } },
            { type: 'FIELD_MATCHES', field: { type: 'FIXED', fieldName: 'DATE_STAGED' }, value: `[${new Date(written - CLOCK_SKEW_MS).toISOString()} TO *]` },
          ],
        },
        sorts: [{ field: { type: 'FIXED', fieldName: 'DATE_STAGED' }, order: 'ASC' }],
        from: 0,
        // One more than there can be of ours: enough to see that another device has one here too.
        pageSize: Math.min(1000, entries.length + owned.size + 1),
      });
      const free = page.results.map((found) => found.result.id).filter((id) => !owned.has(id));
      if (free.length > entries.length && entries.some((entry) => now - Date.parse(entry.dateCreated) < AMBIGUOUS_WAIT_MS)) {
        for (const entry of entries) undecided.add(entry.relPath);
        return true;
      }
      free.forEach((assetId, index) => {
        const entry = entries[index];
        if (entry !== undefined) adopted.set(entry.relPath, assetId);
      });
      return free.length > 0;
    };
    for (const [option, entries] of byFolder) {
      if ((await place(option, entries)) || option === null) continue;
      // Nothing where the folder cache said the directory was. The job's path names its folder, and the
      // service files the asset under the option of that name: when the cache was behind (the folder
      // renamed by another client or a colleague, not yet listed here), a new option of the old name.
      // Its empty asset is looked for there too, or it stayed live beside the file's next asset (a
      // second job's, seed 80824's scenario in sim/stale-folder-cache.test.ts).
      const byDir = new Map<string, JournalEntry[]>();
      for (const entry of entries) byDir.set(relDirOf(entry.relPath), [...(byDir.get(relDirOf(entry.relPath)) ?? []), entry]);
      for (const [relDir, inDir] of byDir) {
        const named = await this.deps.folders.namedNow(root, relDir);
        if (named !== undefined && named !== option) await place(named, inDir);
      }
    }
  }

  /**
   * Forgets the upload of a file that is not the one it began with (the asset stays for the next one),
   * and says so: retried as soon as the file settles.
   */
  private changed(root: UploadRoot, local: LocalEntry, assetId: string, cause?: unknown): SyncError {
    this.deps.journal.forgetUpload(root.id, local.relPath, assetId);
    const changed = this.changedOnDisk.get(root.id) ?? new Set<string>();
    this.changedOnDisk.set(root.id, changed.add(local.relPath));
    return new SyncError('LOCAL_FILE_CHANGED', 'The file changed before it was sent; it uploads again once it settles.', cause === undefined ? undefined : { cause });
  }

  /** Where the file is on disk, its directories checked (not a symlink, names as spelled on disk), the file itself not. */
  private async pathOf(root: UploadRoot, local: LocalEntry, locator?: PathLocator): Promise<string | undefined> {
    return fileOnDiskPath(this.deps.fs, root.path, local.relPath, locator).catch(() => undefined);
  }

  /** The file's path on disk if it is still the file the upload began with, else undefined. */
  private async currentPath(root: UploadRoot, local: LocalEntry, locator?: PathLocator): Promise<string | undefined> {
    const found = await locateFile(this.deps.fs, root.path, local.relPath, locator).catch(() => undefined);
    return found !== undefined && sameSignature(found.stat, local) ? found.absPath : undefined;
  }

  private async publish(root: UploadRoot, outcomes: readonly UploadOutcome[]): Promise<void> {
    if (!root.publishLive) return;
    const assetIds = outcomes.flatMap((outcome) => (outcome.result.ok ? [outcome.result.synced.assetId] : []));
    if (assetIds.length > 0) await this.deps.api.transitionLifecycle({ type: 'BY_IDS', assetIds }, 'LIVE');
  }

  private async guard<T extends UploadOutcome | undefined>(relPath: string, task: () => Promise<T>): Promise<T | UploadOutcome> {
    try {
      return await task();
    } catch (error) {
      return failed(relPath, error);
    }
  }
}

/** Whether an asset-and-upload job may exist after `createAssetsWithUploads` failed this way. */
function mayHaveCreatedJob(error: unknown): boolean {
  if (!isApiError(error)) return true;
  const refused = error.method === 'POST' && error.status !== undefined && !error.maybeApplied;
  return !refused;
}

/** What adoptOrphans found: the asset for each entry it could place, and the entries that must wait. */
interface Adoption {
  adopted: Map<string, string>;
  undecided: Set<string>;
}

/** DATE_STAGED is the service's clock, an intent's date the client's: a client this far ahead still finds its assets. */
const CLOCK_SKEW_MS = 5 * 60_000;
/** How long an interrupted upload waits for another device's uploads in its folder to end before it picks (adoptOrphans). */
const AMBIGUOUS_WAIT_MS = 60 * 60_000;

function undecidedError(): SyncError {
  return new SyncError(
    'UPLOAD_UNDECIDED',
    'An interrupted upload left an empty asset that cannot be told apart from another upload of yours (another device?) into this folder; it is tried again once that upload ends.',
  );
}

function failed(relPath: string, error: unknown): UploadOutcome {
  return { relPath, result: { ok: false, error } };
}
