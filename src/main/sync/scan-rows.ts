/**
 * The rows a scan asks about for each file it finds — its local row (`previous`: an unchanged file is
 * not read again) and whether a synced row is at its path (`mayLeaveUnread`) — read many at a time
 * instead of one statement each. A full scan reads them a folder at a time, as it walks; a rescan reads
 * those of the paths it was given in one statement, and anything else it finds (inside a rescanned
 * folder) one by one, as before.
 *
 * What these answer may be older than the row: read when the folder (or the list) is first asked about,
 * they miss a write made since (the scan's own come after it observed the path, and each path is
 * observed once a scan). That is safe, because the answers only decide what to read: `previous` is
 * used only for a file whose signature it still matches (its MD5 is then the file's; a file rewritten
 * since has another signature and is read), and a file left unread is read when a decision needs its
 * content (content-needed.ts).
 */
import { parentRel } from '../local/rel-path.js';
import type { SnapshotsRepo } from '../db/snapshots-repo.js';
import type { LocalEntry } from './sync-types.js';

type Rows = Pick<SnapshotsRepo, 'localEntry' | 'syncedEntry' | 'folderRowsIn' | 'syncedIn' | 'localAmong' | 'syncedAmong' | 'localCount' | 'eachLocalPath'>;

export interface ScanRows {
  previous: (relPath: string) => LocalEntry | undefined;
  hasSynced: (relPath: string) => boolean;
}

/**
 * A full scan's rows, which also keep count of the local rows the scan has not seen: a root of a
 * million files is never held as a set of seen paths (tens of MB), only each folder's rows not seen
 * yet, while the walk is in it.
 */
export interface FolderScanRows extends ScanRows {
  /**
   * The path's row if its folder is held now, without reading one: what a file reported after the walk
   * left its folder (hashed or checked since) is compared with. Undefined there: such a file's row
   * differs anyway (another signature, or an MD5 where it had none).
   */
  held: (relPath: string) => LocalEntry | undefined;
  /** The scan reported this path (any observation of it). */
  seen: (relPath: string) => void;
  /**
   * The local rows the scan did not report, once it is over: those left in the folders it reported
   * something in, and every row of the folders it reported nothing in (gone, emptied, or not listed).
   * Call before the scan's last writes are committed or after: it reads, never writes.
   */
  unseen: () => string[];
}

/**
 * Folders a full scan keeps read at once. One: the walk asks about a folder's files while it takes in
 * that folder's listing, all in one go (tree-walk.ts `onListing`). Rows kept while other folders are
 * read outlive the young generation's collections and pile up in the old one: at a million files,
 * keeping 32 folders grew the heap by tens of MB of garbage per whole-root scan.
 */
const FOLDERS_KEPT = 1;
/** And rows: a few huge folders are not all held at once (the oldest go first, as below). */
const ROWS_KEPT = 100_000;

/** One folder's rows as a full scan holds them while it is in the folder. */
interface FolderRows {
  local: Map<string, LocalEntry>;
  /**
   * The folder's synced paths, read when first asked about: only a file that is new, changed or unread
   * asks, so an unchanged folder never reads them.
   */
  synced: Set<string> | undefined;
}

/**
 * A full scan's rows, read a folder at a time: its local rows in one statement, and its synced paths in
 * another only when a file asks whether it is synced. Made before the scan's first write: the rows it
 * counts are those the scan began with.
 *
 * Each folder's rows are garbage once the walk leaves the folder: a million-file scan allocates them
 * all, but holds only a few folders' worth, and one object per row (the row as SQLite returns it).
 */
export function folderRows(rows: Rows, rootId: string): FolderScanRows {
  const folders = new Map<string, FolderRows>();
  let held = 0;
  /** Per folder read so far, its rows not seen yet (a folder leaves the map when all were seen). */
  const unseenIn = new Map<string, Set<string>>();
  const readOnce = new Set<string>();
  /**
   * Paths seen in folders not read (yet): a folder is read for the files it holds, never for a
   * subfolder's or a report's sake (reading the root's own rows scans every row of the root).
   */
  const seenUnread = new Set<string>();
  let rowsRead = 0;
  const total = rows.localCount(rootId);
  const folder = (relDir: string): FolderRows => {
    let read = folders.get(relDir);
    if (read === undefined) {
      const local = new Map<string, LocalEntry>();
      for (const row of rows.folderRowsIn(rootId, relDir)) local.set(row.relPath, row);
      read = { local, synced: undefined };
      // Counted on its first read only, which comes before any write of the scan in the folder (a
      // path is looked up, or seen, before its observation's writes are queued).
      if (!readOnce.has(relDir)) {
        readOnce.add(relDir);
        rowsRead += local.size;
        const unseen = new Set<string>();
        for (const relPath of local.keys()) if (!seenUnread.has(relPath)) unseen.add(relPath);
        if (unseen.size > 0) unseenIn.set(relDir, unseen);
      }
      // The oldest go first: a folder the walk has left is not asked about again (and if it is, it is read again).
      for (const [oldest, rowsOf] of folders) {
        if (folders.size < FOLDERS_KEPT && held + local.size <= ROWS_KEPT) break;
        folders.delete(oldest);
        held -= rowsOf.local.size;
      }
      folders.set(relDir, read);
      held += local.size;
    }
    return read;
  };
  return {
    previous: (relPath) => folder(parentRel(relPath)).local.get(relPath),
    held: (relPath) => folders.get(parentRel(relPath))?.local.get(relPath),
    hasSynced(relPath) {
      const relDir = parentRel(relPath);
      const read = folder(relDir);
      read.synced ??= new Set(rows.syncedIn(rootId, relDir));
      return read.synced.has(relPath);
    },
    seen(relPath) {
      const relDir = parentRel(relPath);
      if (!readOnce.has(relDir)) {
        seenUnread.add(relPath);
        return;
      }
      const unseen = unseenIn.get(relDir);
      if (unseen?.delete(relPath) === true && unseen.size === 0) unseenIn.delete(relDir);
    },
    unseen() {
      const unseen = [...unseenIn.values()].flatMap((paths) => [...paths]);
      // Rows in folders the scan never reported in: only read path by path when there are some.
      if (rowsRead < total) for (const relPath of rows.eachLocalPath(rootId)) if (!readOnce.has(parentRel(relPath)) && !seenUnread.has(relPath)) unseen.push(relPath);
      return unseen;
    },
  };
}

/** A rescan's rows: those of the given paths in one statement each, any other path's on its own. */
export function pathRows(rows: Rows, rootId: string, relPaths: readonly string[]): ScanRows {
  const asked = new Set(relPaths);
  const local = new Map(rows.localAmong(rootId, relPaths).map((entry) => [entry.relPath, entry]));
  const synced = new Set(rows.syncedAmong(rootId, relPaths));
  return {
    previous: (relPath) => (asked.has(relPath) ? local.get(relPath) : rows.localEntry(rootId, relPath)),
    hasSynced: (relPath) => (asked.has(relPath) ? synced.has(relPath) : rows.syncedEntry(rootId, relPath) !== undefined),
  };
}
