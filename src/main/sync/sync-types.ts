/**
 * The snapshots the planner reads and the operations it emits (DESIGN.md §3). Plain data: the planner
 * is a pure function of these, and executors carry operations out.
 * Paths are relative to the sync root, NFC-normalised, with `/` separators.
 */

/** A stable file on disk, as the local scanner last saw it. */
export interface LocalEntry {
  relPath: string;
  size: number;
  mtimeMs: number;
  ino: number;
  dev: number;
  /** MD5 hex of the content (the service's AssetFile checksum). */
  md5: string;
}

/** The last state both sides agreed on for one placement of an asset. */
export interface SyncedEntry {
  relPath: string;
  assetId: string;
  md5: string;
  size: number;
  mtimeMs: number;
  ino: number;
  dev: number;
}

export type Operation =
  /** A file the service has never seen: a new asset in the file's folder. */
  | { kind: 'UPLOAD_NEW'; relPath: string; local: LocalEntry }
  /** New content at a synced path: a new AssetFile version of the same asset. */
  | { kind: 'UPLOAD_VERSION'; relPath: string; assetId: string; local: LocalEntry }
  /** Same content or same file (inode) at a new path: a folder edit and/or a rename, never a re-upload. */
  | { kind: 'MOVE'; from: string; to: string; assetId: string; local: LocalEntry }
  /** A synced placement whose file is gone: remove the placement (BINNED when it was the last). */
  | { kind: 'DELETE'; relPath: string; assetId: string }
  /** Same content, new identity (touched, copied back, safe-saved unchanged): record it, send nothing. */
  | { kind: 'REFRESH_IDENTITY'; relPath: string; assetId: string; local: LocalEntry };

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
  /** Stable local files by relPath. */
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
}

export interface Plan {
  operations: Operation[];
  /** Deletions the guard held back; empty unless it tripped. */
  heldDeletes: Extract<Operation, { kind: 'DELETE' }>[];
}
