/**
 * The file records every layer passes around: a file on disk as the scanner saw it, the same with its
 * content known, and the last state both sides agreed on. Plain data, shared by the state database's
 * repos (db/), the state store and the planner; it imports nothing.
 * Must never: hold behaviour beyond the shape of a record.
 */

/** A stable file on disk, as the local scanner last saw it. */
export interface LocalEntry {
  relPath: string;
  size: number;
  mtimeMs: number;
  ino: number;
  dev: number;
  /**
   * MD5 hex of the content (the service's AssetFile checksum); null while unread: a new file whose
   * content no decision needed (content-needed.ts reads it first when one does). An upload of it
   * records the service's checksum of the bytes sent.
   */
  md5: string | null;
}

/** A local file whose content is known: every decision that compares bytes takes one of these. */
export interface HashedEntry extends LocalEntry {
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
