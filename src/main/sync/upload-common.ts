/**
 * What every upload job shares (new-file-uploads.ts, version-uploads.ts, resume-uploads.ts,
 * abandoned-uploads.ts): the root and outcome types, the executor's dependencies, and the few steps
 * each of them takes the same way (an outcome for a failure, the asset if the service still has it,
 * publishing new files).
 *
 * Sits under the upload jobs, above the api, db and local edges. Must never hold state of its own or
 * decide anything a job decides.
 */
import type { Asset } from '../../shared/api/resources.js';
import type { AssetApi } from '../api/index.js';
import { unlessNotFound } from '../api/index.js';
import type { UploadJournal } from '../db/upload-journal.js';
import type { FileSystem } from '../local/index.js';
import type { FolderMapper, FolderRoot } from '../remote/folder-mapper.js';
import type { WindowClock } from './part-window.js';
import type { LocalEntry, SyncedEntry } from './sync-types.js';

export interface UploadRoot extends FolderRoot {
  /** Absolute path of the local folder. */
  path: string;
  /** Whether new files go LIVE; Engine.addRoot changes it while the root runs, so it is read at each publish. */
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
}

/**
 * Per root, the paths whose upload found the file changed on disk since the last sweep of abandoned
 * uploads: written by part-sending.ts, read and cleared by abandoned-uploads.ts.
 */
export type ChangedOnDisk = Map<string, Set<string>>;

export function failed(relPath: string, error: unknown): UploadOutcome {
  return { relPath, result: { ok: false, error } };
}

/** The task's outcome, or its error as the file's failed outcome. */
export async function guard<T extends UploadOutcome | undefined>(relPath: string, task: () => Promise<T>): Promise<T | UploadOutcome> {
  try {
    return await task();
  } catch (error) {
    return failed(relPath, error);
  }
}

/** The asset, or undefined when the service no longer has it (deleted for good). */
export function assetIfAny(api: AssetApi, assetId: string): Promise<Asset | undefined> {
  return unlessNotFound(api.getAsset(assetId));
}

/** Makes the new files' assets live, when the root publishes as it goes (`--publish live`). */
export async function publish(api: AssetApi, root: UploadRoot, outcomes: readonly UploadOutcome[]): Promise<void> {
  if (!root.publishLive) return;
  const assetIds = outcomes.flatMap((outcome) => (outcome.result.ok ? [outcome.result.synced.assetId] : []));
  if (assetIds.length > 0) await api.transitionLifecycle({ type: 'BY_IDS', assetIds }, 'LIVE');
}
