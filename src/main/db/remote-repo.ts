/**
 * The remote snapshot of each root (DESIGN.md §3): the assets the service holds in the root's scope, its
 * folder tree, and the feed's progress. Written only by the remote feed; read whole by the planner.
 */
import type { StateDb } from './open-state-db.js';

export interface RemoteAssetRow {
  assetId: string;
  fileId: string;
  filename: string;
  md5: string;
  size: number;
  dateModified: string;
  dateAdded: string;
  /** Folders option ids of the asset (all of them, in or out of the root's tree). */
  folders: string[];
}

export interface RemoteFolderRow {
  optionId: string;
  /** null: a child of the root's own option (or of the top level). */
  parentId: string | null;
  value: string;
  /** Where the folder lives on disk, relative to the root. */
  relDir: string;
}

export interface RemoteState {
  watermark: string | null;
  lastFull: string | null;
  /** The option the root maps to: '' for the top level, null when not resolved yet. */
  rootOption: string | null;
}

interface AssetColumns {
  asset_id: string;
  file_id: string;
  filename: string;
  md5: string;
  size: number;
  date_modified: string;
  date_added: string;
  folders: string;
}

const parseFolders = (json: string): string[] => {
  const value: unknown = JSON.parse(json);
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
};

const toAsset = (row: AssetColumns): RemoteAssetRow => ({
  assetId: row.asset_id,
  fileId: row.file_id,
  filename: row.filename,
  md5: row.md5,
  size: row.size,
  dateModified: row.date_modified,
  dateAdded: row.date_added,
  folders: parseFolders(row.folders),
});

export function remoteRepo(db: StateDb) {
  const assets = db.prepare<[string], AssetColumns>('SELECT * FROM remote_assets WHERE root_id = ?');
  // Writes only what differs: a poll reads its overlap window again every time, and an unchanged row
  // left as it is leaves the database unchanged, so a resting root stays at rest (root-sync.ts).
  const putAsset = db.prepare(
    `INSERT INTO remote_assets (root_id, asset_id, file_id, filename, md5, size, date_modified, date_added, folders)
     VALUES (@root_id, @assetId, @fileId, @filename, @md5, @size, @dateModified, @dateAdded, @folders)
     ON CONFLICT (root_id, asset_id) DO UPDATE SET file_id = excluded.file_id, filename = excluded.filename, md5 = excluded.md5,
       size = excluded.size, date_modified = excluded.date_modified, date_added = excluded.date_added, folders = excluded.folders
     WHERE (file_id, filename, md5, size, date_modified, date_added, folders)
       IS NOT (excluded.file_id, excluded.filename, excluded.md5, excluded.size, excluded.date_modified, excluded.date_added, excluded.folders)`,
  );
  const deleteAsset = db.prepare('DELETE FROM remote_assets WHERE root_id = ? AND asset_id = ?');
  const assetIds = db.prepare<[string], string>('SELECT asset_id FROM remote_assets WHERE root_id = ?').pluck();
  const folders = db.prepare<[string], { option_id: string; parent_id: string | null; value: string; rel_dir: string }>('SELECT * FROM remote_folders WHERE root_id = ? ORDER BY rel_dir');
  // As putAsset: a folder as it was stays untouched.
  const putFolder = db.prepare(
    `INSERT INTO remote_folders (root_id, option_id, parent_id, value, rel_dir) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (root_id, option_id) DO UPDATE SET parent_id = excluded.parent_id, value = excluded.value, rel_dir = excluded.rel_dir
     WHERE (parent_id, value, rel_dir) IS NOT (excluded.parent_id, excluded.value, excluded.rel_dir)`,
  );
  const folderIds = db.prepare<[string], string>('SELECT option_id FROM remote_folders WHERE root_id = ?').pluck();
  const deleteFolder = db.prepare('DELETE FROM remote_folders WHERE root_id = ? AND option_id = ?');
  const addFolder = db.prepare('INSERT OR REPLACE INTO remote_folders (root_id, option_id, parent_id, value, rel_dir) VALUES (?, ?, ?, ?, ?)');
  const state = db.prepare<[string], { watermark: string | null; last_full: string | null; root_option: string | null }>('SELECT * FROM remote_state WHERE root_id = ?');
  const putState = db.prepare(
    `INSERT INTO remote_state (root_id, watermark, last_full, root_option) VALUES (@root_id, @watermark, @lastFull, @rootOption)
     ON CONFLICT (root_id) DO UPDATE SET watermark = excluded.watermark, last_full = excluded.last_full, root_option = excluded.root_option
     WHERE (watermark, last_full, root_option) IS NOT (excluded.watermark, excluded.last_full, excluded.root_option)`,
  );
  const put = (rootId: string, row: RemoteAssetRow): void => void putAsset.run({ root_id: rootId, ...row, folders: JSON.stringify(row.folders) });

  return {
    assets: (rootId: string): RemoteAssetRow[] => assets.all(rootId).map(toAsset),
    putAsset: put,
    deleteAsset: (rootId: string, assetId: string) => void deleteAsset.run(rootId, assetId),
    /**
     * Replaces every asset of the root (a full listing) in one transaction, writing only what differs:
     * a listing that found what was stored rewrites nothing (it was every row of the root, each time).
     */
    replaceAssets: (rootId: string, rows: readonly RemoteAssetRow[]) =>
      db.transaction(() => {
        const kept = new Set(rows.map((row) => row.assetId));
        for (const assetId of assetIds.all(rootId)) if (!kept.has(assetId)) deleteAsset.run(rootId, assetId);
        for (const row of rows) put(rootId, row);
      })(),
    folders: (rootId: string): RemoteFolderRow[] => folders.all(rootId).map((row) => ({ optionId: row.option_id, parentId: row.parent_id, value: row.value, relDir: row.rel_dir })),
    /** Replaces the root's folder tree (a walk), writing only what differs, as replaceAssets. */
    replaceFolders: (rootId: string, rows: readonly RemoteFolderRow[]) =>
      db.transaction(() => {
        const kept = new Set(rows.map((row) => row.optionId));
        for (const optionId of folderIds.all(rootId)) if (!kept.has(optionId)) deleteFolder.run(rootId, optionId);
        for (const row of rows) putFolder.run(rootId, row.optionId, row.parentId, row.value, row.relDir);
      })(),
    /** Adds folders to the stored tree (ones the engine itself just created), keeping the rest. */
    addFolders: (rootId: string, rows: readonly RemoteFolderRow[]) =>
      db.transaction(() => {
        for (const row of rows) addFolder.run(rootId, row.optionId, row.parentId, row.value, row.relDir);
      })(),
    /** Runs `write` (several of the calls above) as one transaction. */
    inTransaction(write: () => void): void {
      db.transaction(write)();
    },
    state(rootId: string): RemoteState {
      const row = state.get(rootId);
      return { watermark: row?.watermark ?? null, lastFull: row?.last_full ?? null, rootOption: row?.root_option ?? null };
    },
    putState: (rootId: string, next: RemoteState) => void putState.run({ root_id: rootId, ...next }),
  };
}

export type RemoteRepo = ReturnType<typeof remoteRepo>;
