/**
 * A file on its way to its final path by a rename (a download, or the engine's own move of a synced
 * file), as the download journal keeps it, and the synced row its record puts at that path. Shared by
 * the journal (db/), the state store that records landings and the pass that recovers them.
 * Must never: import anything but the other model types.
 */
import type { HashedEntry, SyncedEntry } from './file-entry.js';

/**
 * A file on its way to its final path by a rename: the file as it will land, its asset, and the path
 * it is at now (a download's temp file, or where a moving synced file is).
 */
export interface Landing {
  local: HashedEntry;
  assetId: string;
  tempPath: string;
  /**
   * A move's (`LOCAL_MOVE`): the synced row it replaces (`from`), and the MD5 its record keeps, the
   * synced bytes (the file may have been edited here since: its own MD5 is `local.md5`).
   */
  moved?: { from: string; md5: string };
}

/** The synced row a landing's record puts at the path it landed at: a move's keeps the synced bytes' MD5. */
export function landedRecord(landing: Landing): SyncedEntry {
  return { ...landing.local, md5: landing.moved?.md5 ?? landing.local.md5, assetId: landing.assetId };
}
