/** The local and synced snapshots of each root (DESIGN.md §3), read whole for the planner. */
import type { LocalEntry, SyncedEntry } from '../model/file-entry.js';
import type { StateDb } from './open-state-db.js';
import { belowDir } from './rename-dir.js';

interface FileColumns {
  rel_path: string;
  size: number;
  mtime_ms: number;
  ino: number;
  dev: number;
  md5: string | null;
}

/** A synced row: its md5 is NOT NULL (both sides agreed on bytes). */
interface SyncedColumns extends FileColumns {
  asset_id: string;
  md5: string;
}

const toLocal = (row: FileColumns): LocalEntry => ({ relPath: row.rel_path, size: row.size, mtimeMs: row.mtime_ms, ino: row.ino, dev: row.dev, md5: row.md5 });
const toSynced = (row: SyncedColumns): SyncedEntry => ({ relPath: row.rel_path, assetId: row.asset_id, md5: row.md5, size: row.size, mtimeMs: row.mtime_ms, ino: row.ino, dev: row.dev });

export function snapshotsRepo(db: StateDb) {
  const localAll = db.prepare<[string], FileColumns>('SELECT rel_path, size, mtime_ms, ino, dev, md5 FROM local_files WHERE root_id = ?');
  const localPaths = db.prepare<[string], string>('SELECT rel_path FROM local_files WHERE root_id = ?').pluck();
  const localCount = db.prepare<[string], number>('SELECT count(*) FROM local_files WHERE root_id = ?').pluck();
  const localOne = db.prepare<[string, string], FileColumns>('SELECT rel_path, size, mtime_ms, ino, dev, md5 FROM local_files WHERE root_id = ? AND rel_path = ?');
  const localPut = db.prepare(
    'INSERT OR REPLACE INTO local_files (root_id, rel_path, size, mtime_ms, ino, dev, md5) VALUES (@root_id, @relPath, @size, @mtimeMs, @ino, @dev, @md5)',
  );
  const localFill = db.prepare(
    'UPDATE local_files SET md5 = @md5 WHERE root_id = @root_id AND rel_path = @relPath AND md5 IS NULL AND size = @size AND mtime_ms = @mtimeMs AND ino = @ino AND dev = @dev',
  );
  const localDelete = db.prepare('DELETE FROM local_files WHERE root_id = ? AND rel_path = ?');
  // Byte for byte, as localBelowAny: LIKE folds ASCII case, and forgetting `B` must not take `b`'s rows along.
  const localDeleteTree = db.prepare('DELETE FROM local_files WHERE root_id = @root AND (rel_path = @dir OR (rel_path > @below AND rel_path < @above))');
  const syncedAll = db.prepare<[string], SyncedColumns>('SELECT * FROM synced WHERE root_id = ?');
  const syncedOne = db.prepare<[string, string], SyncedColumns>('SELECT * FROM synced WHERE root_id = ? AND rel_path = ?');
  const syncedPut = db.prepare(
    'INSERT OR REPLACE INTO synced (root_id, rel_path, asset_id, md5, size, mtime_ms, ino, dev) VALUES (@root_id, @relPath, @assetId, @md5, @size, @mtimeMs, @ino, @dev)',
  );
  const syncedDelete = db.prepare('DELETE FROM synced WHERE root_id = ? AND rel_path = ?');
  // A folder's own rows, not those further down: its range on the primary key, no '/' past the folder's.
  const localIn = db.prepare<[string, string, string, string], FileColumns>(
    "SELECT rel_path, size, mtime_ms, ino, dev, md5 FROM local_files WHERE root_id = ? AND rel_path > ? AND rel_path < ? AND instr(substr(rel_path, length(?) + 2), '/') = 0",
  );
  // A folder's local rows shaped as entries (no mapping per row). Whether each is synced is not asked
  // here: a lookup in the synced table per row was a third of a whole-root rescan's SQL time, for
  // files whose answer only a changed or unread file needs (syncedIn, a folder at a time).
  const folderRowColumns = 'rel_path AS relPath, size, mtime_ms AS mtimeMs, ino, dev, md5';
  const folderRowsIn = db.prepare<[string, string, string, string], LocalEntry>(
    `SELECT ${folderRowColumns} FROM local_files WHERE root_id = ? AND rel_path > ? AND rel_path < ? AND instr(substr(rel_path, length(?) + 2), '/') = 0`,
  );
  const folderRowsAtTop = db.prepare<[string], LocalEntry>(`SELECT ${folderRowColumns} FROM local_files WHERE root_id = ? AND instr(rel_path, '/') = 0`);
  const syncedIn = db.prepare<[string, string, string, string], string>(
    "SELECT rel_path FROM synced WHERE root_id = ? AND rel_path > ? AND rel_path < ? AND instr(substr(rel_path, length(?) + 2), '/') = 0",
  ).pluck();
  // Many paths in one statement (a JSON array of them), each looked up on the primary key: CROSS JOIN
  // keeps the list the outer loop, so the cost is the list's length, never the table's.
  const localAmong = db.prepare<[string, string], FileColumns>(
    'SELECT l.rel_path, l.size, l.mtime_ms, l.ino, l.dev, l.md5 FROM json_each(?) AS p CROSS JOIN local_files AS l WHERE l.root_id = ? AND l.rel_path = p.value',
  );
  const localAtTop = db.prepare<[string], FileColumns>("SELECT rel_path, size, mtime_ms, ino, dev, md5 FROM local_files WHERE root_id = ? AND instr(rel_path, '/') = 0");
  const syncedAtTop = db.prepare<[string], string>("SELECT rel_path FROM synced WHERE root_id = ? AND instr(rel_path, '/') = 0").pluck();
  const syncedAmong = db.prepare<[string, string], string>('SELECT s.rel_path FROM json_each(?) AS p CROSS JOIN synced AS s WHERE s.root_id = ? AND s.rel_path = p.value').pluck();
  // Everything below a folder: the paths from `dir/` up to `dir0` ('0' follows '/'), on the primary key.
  const localBelowAny = db.prepare<[string, string], string>(
    "SELECT l.rel_path FROM json_each(?) AS p CROSS JOIN local_files AS l WHERE l.root_id = ? AND l.rel_path > p.value || '/' AND l.rel_path < p.value || '0'",
  ).pluck();
  const placements = db.prepare<[string, string], { n: number }>('SELECT count(*) AS n FROM synced WHERE root_id = ? AND asset_id = ?');

  return {
    local(rootId: string): Map<string, LocalEntry> {
      return new Map(localAll.all(rootId).map((row) => [row.rel_path, toLocal(row)]));
    },
    /** Only the paths of `local`: cheaper where nothing else of a file is wanted. */
    localPaths: (rootId: string): string[] => localPaths.all(rootId),
    /**
     * The same, one at a time, for a root too big to hold its paths at once. Nothing may be written
     * through this connection until the iteration ends.
     */
    eachLocalPath: (rootId: string): IterableIterator<string> => localPaths.iterate(rootId),
    /** How many local rows the root has. */
    localCount: (rootId: string): number => localCount.get(rootId) ?? 0,
    localEntry(rootId: string, relPath: string): LocalEntry | undefined {
      const row = localOne.get(rootId, relPath);
      return row === undefined ? undefined : toLocal(row);
    },
    putLocal: (rootId: string, entry: LocalEntry) => void localPut.run({ root_id: rootId, ...entry }),
    /**
     * An unread local file that is still exactly the file `synced` describes takes its md5: the
     * service's checksum of the bytes an upload just sent. A file that changed since is left unread.
     */
    fillUnread: (rootId: string, synced: SyncedEntry) =>
      void localFill.run({ root_id: rootId, relPath: synced.relPath, md5: synced.md5, size: synced.size, mtimeMs: synced.mtimeMs, ino: synced.ino, dev: synced.dev }),
    deleteLocal: (rootId: string, relPath: string) => void localDelete.run(rootId, relPath),
    /** The local paths below any of these folders (not the folders' own paths), in one statement. */
    localBelowAny: (rootId: string, relDirs: readonly string[]): string[] => (relDirs.length === 0 ? [] : localBelowAny.all(JSON.stringify(relDirs), rootId)),
    /** The local rows of one folder's own files ('' for the root's), not those of its subfolders. */
    localIn: (rootId: string, relDir: string): LocalEntry[] =>
      (relDir === '' ? localAtTop.all(rootId) : localIn.all(rootId, `${relDir}/`, `${relDir}0`, relDir)).map(toLocal),
    /**
     * The local rows of one folder's own files ('' for the root's), as `localIn` but made as entries by
     * SQLite itself: what a scan asks of the files it finds, in one statement a folder.
     */
    folderRowsIn: (rootId: string, relDir: string): LocalEntry[] =>
      relDir === '' ? folderRowsAtTop.all(rootId) : folderRowsIn.all(rootId, `${relDir}/`, `${relDir}0`, relDir),
    /** The synced paths of one folder's own files ('' for the root's), not those of its subfolders. */
    syncedIn: (rootId: string, relDir: string): string[] => (relDir === '' ? syncedAtTop.all(rootId) : syncedIn.all(rootId, `${relDir}/`, `${relDir}0`, relDir)),
    /** The local rows of these paths (those that have one), in one statement. */
    localAmong: (rootId: string, relPaths: readonly string[]): LocalEntry[] => (relPaths.length === 0 ? [] : localAmong.all(JSON.stringify(relPaths), rootId).map(toLocal)),
    /** Which of these paths have a synced row, in one statement. */
    syncedAmong: (rootId: string, relPaths: readonly string[]): string[] => (relPaths.length === 0 ? [] : syncedAmong.all(JSON.stringify(relPaths), rootId)),
    /** Forgets a path and everything below it. */
    deleteLocalTree: (rootId: string, relPath: string) => void localDeleteTree.run({ root: rootId, dir: relPath, ...belowDir(relPath) }),
    synced(rootId: string): Map<string, SyncedEntry> {
      return new Map(syncedAll.all(rootId).map((row) => [row.rel_path, toSynced(row)]));
    },
    syncedEntry(rootId: string, relPath: string): SyncedEntry | undefined {
      const row = syncedOne.get(rootId, relPath);
      return row === undefined ? undefined : toSynced(row);
    },
    putSynced: (rootId: string, entry: SyncedEntry) => void syncedPut.run({ root_id: rootId, ...entry }),
    deleteSynced: (rootId: string, relPath: string) => void syncedDelete.run(rootId, relPath),
    /** Runs `write` in one transaction (nested: a savepoint). */
    inTransaction(write: () => void): void {
      db.transaction(write)();
    },
    /** How many placements of the asset this root has. */
    placements: (rootId: string, assetId: string) => placements.get(rootId, assetId)?.n ?? 0,
  };
}

export type SnapshotsRepo = ReturnType<typeof snapshotsRepo>;
