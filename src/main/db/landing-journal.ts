/**
 * The download journal: one row per verified download about to be renamed into place, written before
 * the rename and removed with the record of the landed file (engine.ts commits both in one
 * transaction). After a crash, DownloadExecutor.recover reads what is left.
 */
import type { StateDb } from './open-state-db.js';
import type { HashedEntry } from '../sync/sync-types.js';

/** A download on its way to its final path: the file as it will land, its asset, and the temp file it is now. */
export interface Landing {
  local: HashedEntry;
  assetId: string;
  tempPath: string;
}

interface LandingRow {
  rel_path: string;
  asset_id: string;
  temp_path: string;
  size: number;
  mtime_ms: number;
  ino: number;
  dev: number;
  md5: string;
}

export function landingJournal(db: StateDb) {
  const all = db.prepare<[string], LandingRow>('SELECT rel_path, asset_id, temp_path, size, mtime_ms, ino, dev, md5 FROM landings WHERE root_id = ? ORDER BY rel_path');
  const put = db.prepare(
    `INSERT OR REPLACE INTO landings (root_id, rel_path, asset_id, temp_path, size, mtime_ms, ino, dev, md5)
     VALUES (@rootId, @relPath, @assetId, @tempPath, @size, @mtimeMs, @ino, @dev, @md5)`,
  );
  const remove = db.prepare('DELETE FROM landings WHERE root_id = ? AND rel_path = ?');
  return {
    /** Written before the rename: from here on a crash leaves a row to recover. */
    landing: (rootId: string, { local, assetId, tempPath }: Landing) => void put.run({ rootId, assetId, tempPath, ...local }),
    /** The rename did not happen, or the landed file is recorded. */
    finish: (rootId: string, relPath: string) => void remove.run(rootId, relPath),
    all: (rootId: string): Landing[] =>
      all.all(rootId).map((row) => ({
        local: { relPath: row.rel_path, size: row.size, mtimeMs: row.mtime_ms, ino: row.ino, dev: row.dev, md5: row.md5 },
        assetId: row.asset_id,
        tempPath: row.temp_path,
      })),
  };
}

export type LandingJournal = ReturnType<typeof landingJournal>;
