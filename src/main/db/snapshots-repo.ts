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
  const localOne = db.prepare<[string, string], FileColumns>('SELECT rel_path, size, mtime_ms, ino, dev, md5 FROM local_files WHERE root_id = ? AND rel_path = ?');
  const localPut = db.prepare(
    'INSERT OR REPLACE INTO local_files (root_id, rel_path, size, mtime_ms, ino, dev, md5) VALUES (@root_id, @relPath, @size, @mtimeMs, @ino, @dev, @md5)',
  );
  const localFill = db.prepare(
    'UPDATE local_files SET md5 = @md5 WHERE root_id = @root_id AND rel_path = @relPath AND md5 IS NULL AND size = @size AND mtime_ms = @mtimeMs AND ino = @ino AND dev = @dev',
  );
  const localDelete = db.prepare('DELETE FROM local_files WHERE root_id = ? AND rel_path = ?');
  // Everything below a folder: the paths from `dir/` up to `dir0` ('0' follows '/'), on the primary key.
  const localBelow = db.prepare<[string, string, string], { rel_path: string }>('SELECT rel_path FROM local_files WHERE root_id = ? AND rel_path > ? AND rel_path < ?');
  // Byte for byte, as localBelow: LIKE folds ASCII case, and forgetting `B` must not take `b`'s rows along.
  const localDeleteTree = db.prepare('DELETE FROM local_files WHERE root_id = @root AND (rel_path = @dir OR (rel_path > @below AND rel_path < @above))');
  const syncedAll = db.prepare<[string], SyncedColumns>('SELECT * FROM synced WHERE root_id = ?');
  const syncedOne = db.prepare<[string, string], SyncedColumns>('SELECT * FROM synced WHERE root_id = ? AND rel_path = ?');
  const syncedPut = db.prepare(
    'INSERT OR REPLACE INTO synced (root_id, rel_path, asset_id, md5, size, mtime_ms, ino, dev) VALUES (@root_id, @relPath, @assetId, @md5, @size, @mtimeMs, @ino, @dev)',
  );
  const syncedDelete = db.prepare('DELETE FROM synced WHERE root_id = ? AND rel_path = ?');
  const placements = db.prepare<[string, string], { n: number }>('SELECT count(*) AS n FROM synced WHERE root_id = ? AND asset_id = ?');

  return {
    local(rootId: string): Map<string, LocalEntry> {
      return new Map(localAll.all(rootId).map((row) => [row.rel_path, toLocal(row)]));
    },
    /** Only the paths of `local`: cheaper where nothing else of a file is wanted. */
    localPaths: (rootId: string): string[] => localPaths.all(rootId),
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
    /** The local paths below a folder (not the folder's own path). */
    localBelow: (rootId: string, relDir: string): string[] => localBelow.all(rootId, `${relDir}/`, `${relDir}0`).map((row) => row.rel_path),
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
