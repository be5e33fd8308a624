/**
 * Conflicts (DESIGN.md §3 "both changed"): the service's version took the file's name and ours was kept
 * beside it as a conflict copy, which is not uploaded until the user resolves the conflict. One row per
 * conflict copy with both versions' details, for `asset-sync conflicts` and the UI.
 */
import type { StateDb } from './open-state-db.js';
import { belowDir } from './rename-dir.js';

export interface ConflictInput {
  relPath: string;
  copyPath: string;
  assetId: string;
  local: { md5: string; size: number; mtimeMs: number };
  remote: { md5: string; size: number; fileId: string; dateModified: string };
  dateCreated: string;
  /**
   * The copy's file on disk (a rename keeps both), so the conflict follows a copy the user moves
   * without renaming it. Absent on conflicts recorded before migration 0005.
   */
  copyFile?: { ino: number; dev: number };
}

export interface Conflict extends ConflictInput {
  id: number;
  rootId: string;
}

interface ConflictColumns {
  id: number;
  root_id: string;
  rel_path: string;
  copy_path: string;
  asset_id: string;
  local_md5: string;
  local_size: number;
  local_mtime_ms: number;
  remote_md5: string;
  remote_size: number;
  remote_file_id: string;
  remote_modified: string;
  date_created: string;
  copy_ino: number | null;
  copy_dev: number | null;
}

const toConflict = (row: ConflictColumns): Conflict => ({
  id: row.id,
  rootId: row.root_id,
  relPath: row.rel_path,
  copyPath: row.copy_path,
  assetId: row.asset_id,
  local: { md5: row.local_md5, size: row.local_size, mtimeMs: row.local_mtime_ms },
  remote: { md5: row.remote_md5, size: row.remote_size, fileId: row.remote_file_id, dateModified: row.remote_modified },
  dateCreated: row.date_created,
  ...(row.copy_ino === null || row.copy_dev === null ? {} : { copyFile: { ino: row.copy_ino, dev: row.copy_dev } }),
});

export function conflictsRepo(db: StateDb) {
  const all = db.prepare<[], ConflictColumns>('SELECT * FROM conflicts ORDER BY id');
  const ofRoot = db.prepare<[string], ConflictColumns>('SELECT * FROM conflicts WHERE root_id = ? ORDER BY id');
  const byId = db.prepare<[number], ConflictColumns>('SELECT * FROM conflicts WHERE id = ?');
  const insert = db.prepare(
    `INSERT OR REPLACE INTO conflicts (root_id, rel_path, copy_path, asset_id, local_md5, local_size, local_mtime_ms, remote_md5, remote_size, remote_file_id, remote_modified, date_created, copy_ino, copy_dev)
     VALUES (@root_id, @rel_path, @copy_path, @asset_id, @local_md5, @local_size, @local_mtime_ms, @remote_md5, @remote_size, @remote_file_id, @remote_modified, @date_created, @copy_ino, @copy_dev)`,
  );
  const remove = db.prepare('DELETE FROM conflicts WHERE id = ?');
  const moveCopy = db.prepare('UPDATE conflicts SET copy_path = ? WHERE id = ?');
  const moveOriginal = db.prepare('UPDATE conflicts SET rel_path = @to WHERE root_id = @root_id AND asset_id = @asset_id AND rel_path = @from');
  const renameUnder = db.prepare(
    `UPDATE conflicts SET rel_path = CASE WHEN rel_path > @from AND rel_path < @above THEN @to || substr(rel_path, length(@from) + 1) ELSE rel_path END,
                          copy_path = CASE WHEN copy_path > @from AND copy_path < @above THEN @to || substr(copy_path, length(@from) + 1) ELSE copy_path END
     WHERE root_id = @root_id`,
  );

  return {
    all: () => all.all().map(toConflict),
    ofRoot: (rootId: string) => ofRoot.all(rootId).map(toConflict),
    byId(id: number): Conflict | undefined {
      const row = byId.get(id);
      return row === undefined ? undefined : toConflict(row);
    },
    /** Records a conflict; returns its id. */
    add(rootId: string, input: ConflictInput): number {
      const result = insert.run({
        root_id: rootId,
        rel_path: input.relPath,
        copy_path: input.copyPath,
        asset_id: input.assetId,
        local_md5: input.local.md5,
        local_size: input.local.size,
        local_mtime_ms: input.local.mtimeMs,
        remote_md5: input.remote.md5,
        remote_size: input.remote.size,
        remote_file_id: input.remote.fileId,
        remote_modified: input.remote.dateModified,
        date_created: input.dateCreated,
        copy_ino: input.copyFile?.ino ?? null,
        copy_dev: input.copyFile?.dev ?? null,
      });
      return Number(result.lastInsertRowid);
    },
    resolved: (id: number) => void remove.run(id),
    /** The user moved the copy (itself, or a folder above it) without renaming it: still waiting, now at `copyPath`. */
    copyMoved: (id: number, copyPath: string) => void moveCopy.run(copyPath, id),
    /**
     * The original's synced placement moved (a folder the user renamed, a move either side made): the
     * conflict names the file where it is now, so status and `resolve` act on it, not on a path gone.
     */
    originalMoved: (rootId: string, assetId: string, from: string, to: string) => void moveOriginal.run({ root_id: rootId, asset_id: assetId, from, to }),
    /** Follows a directory rename (`from/…` → `to/…`). */
    renameDir: (rootId: string, from: string, to: string) => void renameUnder.run({ root_id: rootId, from: `${from}/`, to: `${to}/`, above: belowDir(from).above }),
  };
}

export type ConflictsRepo = ReturnType<typeof conflictsRepo>;
