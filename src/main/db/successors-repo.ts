/**
 * Files that outlive their asset (migration 0008): each path's binned asset, whose name on the service
 * the file's new asset takes (upload-executor.ts).
 */
import type { StateDb } from './open-state-db.js';

export function successorsRepo(db: StateDb) {
  const put = db.prepare('INSERT OR REPLACE INTO successors (root_id, rel_path, asset_id) VALUES (?, ?, ?)');
  const all = db.prepare<[string], { rel_path: string; asset_id: string }>('SELECT rel_path, asset_id FROM successors WHERE root_id = ?');
  const remove = db.prepare('DELETE FROM successors WHERE root_id = ? AND rel_path = ?');
  return {
    /** The file at `relPath` outlives `assetId` (its synced row lets go in the same transaction). */
    outlives: (rootId: string, relPath: string, assetId: string) => void put.run(rootId, relPath, assetId),
    /** Each path's binned asset: one query for a batch of new files (the table is empty but for a rare few). */
    outlived: (rootId: string): Map<string, string> => new Map(all.all(rootId).map((row) => [row.rel_path, row.asset_id])),
    /** The path syncs again, or its file is gone. */
    drop: (rootId: string, relPath: string) => void remove.run(rootId, relPath),
  };
}

export type SuccessorsRepo = ReturnType<typeof successorsRepo>;
