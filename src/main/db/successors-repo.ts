/**
 * Files that outlive their asset (migration 0008): each path's binned asset, whose name on the service
 * the file's new asset takes (upload-executor.ts).
 */
import type { StateDb } from './open-state-db.js';

export function successorsRepo(db: StateDb) {
  const put = db.prepare('INSERT OR REPLACE INTO successors (root_id, rel_path, asset_id) VALUES (?, ?, ?)');
  const get = db.prepare<[string, string], { asset_id: string }>('SELECT asset_id FROM successors WHERE root_id = ? AND rel_path = ?');
  const paths = db.prepare<[string], string>('SELECT rel_path FROM successors WHERE root_id = ?').pluck();
  const remove = db.prepare('DELETE FROM successors WHERE root_id = ? AND rel_path = ?');
  return {
    /** The file at `relPath` outlives `assetId` (its synced row lets go in the same transaction). */
    outlives: (rootId: string, relPath: string, assetId: string) => void put.run(rootId, relPath, assetId),
    /** The binned asset the file at `relPath` outlives, if it does. */
    outlived: (rootId: string, relPath: string): string | undefined => get.get(rootId, relPath)?.asset_id,
    paths: (rootId: string): string[] => paths.all(rootId),
    /** The path syncs again, or its file is gone. */
    drop: (rootId: string, relPath: string) => void remove.run(rootId, relPath),
  };
}

export type SuccessorsRepo = ReturnType<typeof successorsRepo>;
