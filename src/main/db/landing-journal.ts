/**
 * The download journal: one row per verified download about to be renamed into place, written before
 * the rename and removed with the record of the landed file (the state store commits both in one
 * transaction). After a crash, recover-landings.ts reads what is left. The engine's own moves of a
 * synced file (`LOCAL_MOVE`) are written here too, with the synced row they replace (`moved`).
 */
import type { StateDb } from './open-state-db.js';
import type { Landing } from '../model/landing.js';

export type { Landing } from '../model/landing.js';

interface LandingRow {
  rel_path: string;
  asset_id: string;
  temp_path: string;
  size: number;
  mtime_ms: number;
  ino: number;
  dev: number;
  md5: string;
  synced_from: string | null;
  synced_md5: string | null;
}

export function landingJournal(db: StateDb) {
  const all = db.prepare<[string], LandingRow>(
    'SELECT rel_path, asset_id, temp_path, size, mtime_ms, ino, dev, md5, synced_from, synced_md5 FROM landings WHERE root_id = ? ORDER BY rel_path',
  );
  const put = db.prepare(
    `INSERT OR REPLACE INTO landings (root_id, rel_path, asset_id, temp_path, size, mtime_ms, ino, dev, md5, synced_from, synced_md5)
     VALUES (@rootId, @relPath, @assetId, @tempPath, @size, @mtimeMs, @ino, @dev, @md5, @syncedFrom, @syncedMd5)`,
  );
  const remove = db.prepare('DELETE FROM landings WHERE root_id = ? AND rel_path = ?');
  return {
    /** Written before the rename: from here on a crash leaves a row to recover. */
    landing: (rootId: string, { local, assetId, tempPath, moved }: Landing) =>
      void put.run({ rootId, assetId, tempPath, ...local, syncedFrom: moved?.from ?? null, syncedMd5: moved?.md5 ?? null }),
    /** The rename did not happen, or the landed file is recorded. */
    finish: (rootId: string, relPath: string) => void remove.run(rootId, relPath),
    all: (rootId: string): Landing[] =>
      all.all(rootId).map((row) => ({
        local: { relPath: row.rel_path, size: row.size, mtimeMs: row.mtime_ms, ino: row.ino, dev: row.dev, md5: row.md5 },
        assetId: row.asset_id,
        tempPath: row.temp_path,
        ...(row.synced_from === null || row.synced_md5 === null ? {} : { moved: { from: row.synced_from, md5: row.synced_md5 } }),
      })),
  };
}

export type LandingJournal = ReturnType<typeof landingJournal>;
