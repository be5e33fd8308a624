/**
 * Moves written ahead (migration 0009): a synced file's asset on its way to the file's new place on the
 * service, by more than one call, from before the first until the move's record (which finishes it in
 * the same transaction). resume-moves.ts finishes what a crash or a failure left.
 */
import type { StateDb } from './open-state-db.js';
import type { HashedEntry } from '../model/file-entry.js';

/**
 * The synced row at `from` moves to the file `local` (at `local.relPath`), its asset `assetId`
 * brought back from the bin first when `restore`.
 */
export interface MoveAhead {
  from: string;
  assetId: string;
  local: HashedEntry;
  restore: boolean;
}

interface MoveRow {
  from_path: string;
  to_path: string;
  asset_id: string;
  restore: number;
  size: number;
  mtime_ms: number;
  ino: number;
  dev: number;
  md5: string;
}

export function moveJournal(db: StateDb) {
  const put = db.prepare(
    `INSERT OR REPLACE INTO moves_ahead (root_id, from_path, to_path, asset_id, restore, size, mtime_ms, ino, dev, md5)
     VALUES (@rootId, @from, @relPath, @assetId, @restore, @size, @mtimeMs, @ino, @dev, @md5)`,
  );
  const all = db.prepare<[string], MoveRow>('SELECT from_path, to_path, asset_id, restore, size, mtime_ms, ino, dev, md5 FROM moves_ahead WHERE root_id = ? ORDER BY from_path');
  const remove = db.prepare('DELETE FROM moves_ahead WHERE root_id = ? AND from_path = ?');
  return {
    /** Written before the move's first call to the service. */
    ahead: (rootId: string, { from, assetId, local, restore }: MoveAhead) => void put.run({ rootId, from, assetId, restore: restore ? 1 : 0, ...local }),
    /** The move is recorded, or off (nothing of it is left to finish). */
    finish: (rootId: string, from: string) => void remove.run(rootId, from),
    all: (rootId: string): MoveAhead[] =>
      all.all(rootId).map((row) => ({
        from: row.from_path,
        assetId: row.asset_id,
        local: { relPath: row.to_path, size: row.size, mtimeMs: row.mtime_ms, ino: row.ino, dev: row.dev, md5: row.md5 },
        restore: row.restore === 1,
      })),
  };
}

export type MoveJournal = ReturnType<typeof moveJournal>;
