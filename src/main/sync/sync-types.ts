/**
 * The snapshots the planner reads (local × remote × synced) and the operations it emits (DESIGN.md §3).
 * Plain data: the planner is a pure function of these, and executors carry operations out.
 * Paths are relative to the sync root, NFC-normalised, with `/` separators.
 */
import type { NameKey } from '../local/local-names.js';
import type { HashedEntry, LocalEntry, SyncedEntry } from '../model/file-entry.js';

export type { HashedEntry, LocalEntry, SyncedEntry } from '../model/file-entry.js';

export const isHashed = (entry: LocalEntry): entry is HashedEntry => entry.md5 !== null;

/** A file's identity on disk (DESIGN.md §3: device and inode), as a key: one file at any path. */
export const identityOf = (file: { dev: number; ino: number }): string => `${String(file.dev)}:${String(file.ino)}`;

/** One placement of an asset on the service, as a local path (remote-placements.ts). */
export interface RemoteEntry {
  relPath: string;
  assetId: string;
  /**
   * The current file's name as the service spells it; `relPath` ends in it as this disk holds it (made
   * safe, numbered apart from a namesake). A version sent up keeps this one (folder-mapper.ts `versionFilePath`).
   */
  filename: string;
  /** The current AssetFile. */
  fileId: string;
  /** MD5 hex of the current file (lowercase). */
  md5: string;
  size: number;
  dateModified: string;
  /** When the current file was added ('' when unknown): the downloaded file's mtime. */
  dateAdded: string;
}

export type Operation =
  /** A file the service has never seen: a new asset in the file's folder (its content may be unread). */
  | { kind: 'UPLOAD_NEW'; relPath: string; local: LocalEntry }
  /** New content at a synced path: a new AssetFile version of the same asset. */
  | { kind: 'UPLOAD_VERSION'; relPath: string; assetId: string; local: HashedEntry }
  /** Same content or same file (inode) at a new path: a folder edit and/or a rename, never a re-upload. */
  /**
   * `restore`: the asset left the service's listing (binned, most likely) while the file moved here;
   * the move wins by bringing that asset back first, history and all, not by uploading a second one.
   * `withFolder`: the asset left the listing while a folder above the file was renamed or moved here, which
   * is no change of the file's: only its row follows the folder, and the next pass meets the removal
   * as for a file left where it was (plan-operations.ts `folderCarries`).
   */
  | { kind: 'MOVE'; from: string; to: string; assetId: string; local: HashedEntry; restore?: true; withFolder?: true }
  /** A synced placement whose file is gone: remove the placement (BINNED when it was the last). */
  | { kind: 'DELETE'; relPath: string; assetId: string }
  /** Same content, new identity (touched, copied back, safe-saved unchanged): record it, send nothing. */
  | { kind: 'REFRESH_IDENTITY'; relPath: string; assetId: string; local: HashedEntry }
  /**
   * The service's file to disk at relPath. `replace` is the local file it may overwrite (unchanged since
   * it was synced); without it nothing may be at relPath when the file lands.
   */
  | { kind: 'DOWNLOAD'; relPath: string; remote: RemoteEntry; replace?: HashedEntry }
  /**
   * The service moved or renamed the asset: the same move on disk (never a re-download). `from` is where
   * the file is now (`local`), `syncedPath` the synced entry that becomes `to`, recorded with `md5`.
   */
  | { kind: 'LOCAL_MOVE'; from: string; to: string; syncedPath: string; assetId: string; local: HashedEntry; md5: string }
  /** The service no longer has this placement and the local file is unchanged: it goes to the trash. */
  | { kind: 'LOCAL_DELETE'; relPath: string; assetId: string; local: HashedEntry }
  /**
   * Both sides changed the file: ours moves aside to `copyPath` (kept, not uploaded) and the service's
   * version is downloaded to relPath. `assetId` is the asset whose version takes the name.
   */
  | { kind: 'CONFLICT'; relPath: string; copyPath: string; local: HashedEntry; remote: RemoteEntry; assetId: string }
  /** Both sides agree on relPath: record `local` as synced with `md5` (the agreed bytes), transfer nothing. */
  | { kind: 'ADOPT'; relPath: string; assetId: string; local: HashedEntry; md5: string }
  /**
   * The synced entry no longer describes anything (gone on both sides, or its asset left): drop it.
   * `outlived`: the file, edited here, outlives its binned asset and goes up as a new one next pass,
   * under the binned asset's name (db/migrations/0008-successors.ts).
   */
  | { kind: 'FORGET'; relPath: string; assetId: string; outlived?: true };

export interface PendingSignature {
  size: number;
  mtimeMs: number;
  ino: number;
  dev: number;
}

export interface DeleteGuard {
  /** More deletions than this in one pass wait for confirmation (default 50). */
  maxDeletes: number;
  /** …or more than this fraction of the root's synced files (default 0.25). */
  maxFraction: number;
}

export const DEFAULT_DELETE_GUARD: DeleteGuard = { maxDeletes: 50, maxFraction: 0.25 };

export interface PlanInput {
  /**
   * Stable local files by relPath. One unread (md5 null) where a decision needs its content is held
   * back like an unstable path: the caller reads those first (content-needed.ts).
   */
  local: ReadonlyMap<string, LocalEntry>;
  /** Paths that exist but are still changing (copy in progress) or unreadable: neither new nor deleted yet. */
  unstable: ReadonlySet<string>;
  /**
   * What is known of files still settling (no hash yet): a synced file renamed a moment ago shows up
   * here with its old inode, size and mtime, and is a move, not a deletion plus a new upload.
   */
  pending?: ReadonlyMap<string, PendingSignature>;
  synced: ReadonlyMap<string, SyncedEntry>;
  /** Paths an executor is working on right now: left alone this pass. */
  busy?: ReadonlySet<string>;
  guard?: DeleteGuard;
  /** The user confirmed this pass's deletions (`asset-sync confirm-deletes`). */
  deletesConfirmed?: boolean;
  /**
   * Without a remote view: the paths where the last persisted snapshot (an earlier process's) places
   * an asset. A new file at one of them waits for a listing instead of uploading as a new asset: it
   * may be a download that landed before a crash could record it, or another client's upload, and a
   * blind upload would make a second asset of it.
   */
  lastKnownRemote?: ReadonlySet<string>;
  /**
   * The remote snapshot as local paths. Absent: upload direction only (no full listing yet), and the
   * planner never reads a missing remote entry as a deletion.
   */
  remote?: RemoteView;
  /** Conflict copies waiting for the user: never uploaded, never moved. */
  conflictCopies?: ReadonlySet<string>;
  /** Epoch ms, for naming conflict copies (the planner reads no clock). */
  now?: number;
  /**
   * How the root's disk tells names apart (default: exactly). Where it folds case, a file rewritten as
   * `Logo.png` over `logo.png` is the same entry newly spelled.
   */
  nameKey?: NameKey;
}

export interface RemoteView {
  entries: ReadonlyMap<string, RemoteEntry>;
  /** Assets whose remote state is not known right now (our own change not refreshed yet): no remote-side decision. */
  unknownAssets?: ReadonlySet<string>;
}

export interface Plan {
  operations: Operation[];
  /** Deletions the guard held back (on the service: DELETE; on disk: LOCAL_DELETE); empty unless it tripped. */
  heldDeletes: Extract<Operation, { kind: 'DELETE' | 'LOCAL_DELETE' }>[];
}
