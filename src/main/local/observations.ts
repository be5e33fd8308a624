/**
 * What the local side reports about a root (DESIGN.md §3, the "local" snapshot's raw material). Plain
 * data, a closed union on `kind`, so the engine's switch is exhaustive. All paths are relPaths
 * (rel-path.ts). `LocalFile` is structurally the planner's `LocalEntry` (src/main/sync/sync-types.ts).
 */

/** What decides "unchanged" without reading a byte: size, mtime and inode. */
export interface FileSignature {
  size: number;
  mtimeMs: number;
  ino: number;
}

/** A regular file, hashed (or known unchanged since it was), ready for the local snapshot. */
export interface LocalFile extends FileSignature {
  kind: 'file';
  relPath: string;
  dev: number;
  /**
   * MD5 of the content, lowercase hex (the service's AssetFile checksum); null when the scanner was
   * allowed to leave it unread (a new file whose content no decision needs yet: the engine reads it,
   * or takes the service's checksum of the bytes it uploaded, when one does).
   */
  md5: string | null;
}

/**
 * A regular file that is there but was not hashed because it may still be changing: the stability
 * check said "not yet", or it changed while being read. Neither new nor deleted: the planner's
 * `unstable` set. Look again when the stability gate says so.
 */
export interface PendingFile extends FileSignature {
  kind: 'pending';
  relPath: string;
  dev: number;
}

/** A directory (subfolders map to folder options even when empty). Not reported for the root itself. */
export interface LocalDirectory {
  kind: 'directory';
  relPath: string;
  mtimeMs: number;
  ino: number;
  dev: number;
}

export type NotSyncedReason =
  /** Symbolic links are never followed. */
  | 'SYMLINK'
  /** No permission, or an I/O error, reading it (or, for a directory, listing it). */
  | 'UNREADABLE'
  /** A FIFO, socket or device. */
  | 'SPECIAL_FILE'
  /** A name the service cannot represent (control characters, leading/trailing white space, …). */
  | 'INVALID_NAME'
  /** A name over 255 UTF-8 bytes, or a folder deeper than the service allows. */
  | 'TOO_LONG'
  /** Two names in one folder that are the same once NFC-normalised (NFC and NFD spellings). */
  | 'NAME_CLASH';

/**
 * Something is at this path but it is not synced. Never a deletion by itself. When `subtreeUnknown` is
 * true (a directory that could not be listed or is not walked) nothing below it was observed, so
 * nothing the engine knew below it may be read as deleted either. Below a symlink there is nothing to
 * know: links are not followed, so what was synced below that path is gone.
 */
export interface NotSynced {
  kind: 'not-synced';
  relPath: string;
  reason: NotSyncedReason;
  /** For people: what exactly is wrong (an errno code, the name rule broken, …). */
  detail: string;
  subtreeUnknown: boolean;
  /** The path is a folder (as far as the scanner could tell; a path it could not stat is not). */
  isFolder?: boolean;
  /**
   * A regular file listed but not readable (UNREADABLE): which file it is, so a synced file that
   * vanished and may be this one waits or moves instead of reading as deleted.
   */
  file?: FileSignature & { dev: number };
}

/**
 * A rescanned path where nothing is any more, or only something below a symlink (only `rescan` reports
 * these; after a full scan, absence is the news).
 */
export interface Gone {
  kind: 'gone';
  relPath: string;
}

export type LocalObservation = LocalFile | PendingFile | LocalDirectory | NotSynced | Gone;

/** What the engine last recorded for a path, so an unchanged file keeps its hash without a read. */
export interface PreviousFile extends FileSignature {
  md5: string | null;
}

export type PreviousLookup = (relPath: string) => PreviousFile | undefined;
