/**
 * The upload journal: one row per file being uploaded, written before anything is sent and updated as
 * each step lands (job created, upload known, each part confirmed). After a crash the engine reads it
 * to resume — sending only missing parts, adopting an asset created just before the crash — instead of
 * starting over or creating a duplicate.
 */
import type { StateDb } from './open-state-db.js';
import type { LocalEntry } from '../model/file-entry.js';

export interface UploadRow {
  root_id: string;
  rel_path: string;
  kind: 'NEW' | 'VERSION';
  batch_item_id: string;
  job_id: string | null;
  asset_id: string | null;
  upload_id: string | null;
  size: number;
  mtime_ms: number;
  ino: number;
  dev: number;
  md5: string | null;
  part_size: number | null;
  parts: string;
  date_created: string;
  folder_option: string | null;
}

export interface JournalEntry {
  rootId: string;
  relPath: string;
  kind: 'NEW' | 'VERSION';
  batchItemId: string;
  jobId: string | null;
  assetId: string | null;
  uploadId: string | null;
  /** The file as it was when the upload began; a file that no longer matches restarts its upload. */
  local: LocalEntry;
  partSize: number | null;
  /** partNumber → eTag of the parts the service confirmed. */
  parts: Map<number, string>;
  /** When the intent was written (the engine's clock, ISO), before anything was sent. */
  dateCreated: string;
  /**
   * The Folders option the job filed a new file's asset under (it keeps its id when the folder is
   * renamed on the service); null for the top level, a version, or an intent from before it was kept.
   */
  folderOption: string | null;
}

const toEntry = (row: UploadRow): JournalEntry => ({
  rootId: row.root_id,
  relPath: row.rel_path,
  kind: row.kind,
  batchItemId: row.batch_item_id,
  jobId: row.job_id,
  assetId: row.asset_id,
  uploadId: row.upload_id,
  local: { relPath: row.rel_path, size: row.size, mtimeMs: row.mtime_ms, ino: row.ino, dev: row.dev, md5: row.md5 },
  partSize: row.part_size,
  parts: new Map(Object.entries(JSON.parse(row.parts) as Record<string, string>).map(([part, etag]) => [Number(part), etag])),
  dateCreated: row.date_created,
  folderOption: row.folder_option,
});

export function uploadJournal(db: StateDb) {
  const all = db.prepare<[string], UploadRow>('SELECT * FROM uploads WHERE root_id = ? ORDER BY date_created, rel_path');
  const one = db.prepare<[string, string], UploadRow>('SELECT * FROM uploads WHERE root_id = ? AND rel_path = ?');
  const insert = db.prepare(
    `INSERT OR REPLACE INTO uploads (root_id, rel_path, kind, batch_item_id, job_id, asset_id, upload_id, size, mtime_ms, ino, dev, md5, part_size, parts, date_created, folder_option)
     VALUES (@root_id, @rel_path, @kind, @batch_item_id, NULL, @asset_id, NULL, @size, @mtime_ms, @ino, @dev, @md5, NULL, '{}', @date_created, @folder_option)`,
  );
  // Many paths in one statement (a JSON array of them), each found on the primary key (the list is the outer loop).
  const among = db.prepare<[string, string], UploadRow>('SELECT u.* FROM json_each(?) AS p CROSS JOIN uploads AS u WHERE u.root_id = ? AND u.rel_path = p.value');
  // By path: batch item ids (f0, f1…) repeat from one batch to the next.
  // The batch's paths as a JSON array, one statement for all of them (each row found on the primary key).
  const setJob = db.prepare('UPDATE uploads SET job_id = ? WHERE root_id = ? AND rel_path IN (SELECT value FROM json_each(?)) AND asset_id IS NULL');
  const setUpload = db.prepare("UPDATE uploads SET asset_id = ?, upload_id = ?, part_size = ?, parts = '{}' WHERE root_id = ? AND rel_path = ?");
  const forgetUpload = db.prepare("UPDATE uploads SET asset_id = ?, upload_id = NULL, part_size = NULL, parts = '{}' WHERE root_id = ? AND rel_path = ?");
  const setParts = db.prepare('UPDATE uploads SET parts = ? WHERE root_id = ? AND rel_path = ?');
  const remove = db.prepare('DELETE FROM uploads WHERE root_id = ? AND rel_path = ?');
  // Joined on each table's primary key: the cost is the journal's size in SQLite, and only the rows
  // that need a look come out (no JSON parsed, no file looked at, for the thousands that do not).
  const unbacked = db.prepare<[string], UploadRow & { holder: string | null }>(
    `SELECT u.*, CASE WHEN s.asset_id IS NOT u.asset_id THEN s.asset_id END AS holder
       FROM uploads u
       LEFT JOIN local_files l ON l.root_id = u.root_id AND l.rel_path = u.rel_path
       LEFT JOIN synced s ON s.root_id = u.root_id AND s.rel_path = u.rel_path
      WHERE u.root_id = ? AND u.kind = 'NEW' AND (l.rel_path IS NULL OR (s.asset_id IS NOT NULL AND s.asset_id IS NOT u.asset_id))
      ORDER BY u.date_created, u.rel_path`,
  );

  return {
    all: (rootId: string) => all.all(rootId).map(toEntry),
    /**
     * New files' entries the snapshots no longer back: no local file recorded at the path as spelled
     * (gone, renamed, a case-only rename too), or another asset's file synced there (`holder`).
     */
    unbacked: (rootId: string): { entry: JournalEntry; holder: string | undefined }[] => unbacked.all(rootId).map((row) => ({ entry: toEntry(row), holder: row.holder ?? undefined })),
    get(rootId: string, relPath: string): JournalEntry | undefined {
      const row = one.get(rootId, relPath);
      return row === undefined ? undefined : toEntry(row);
    },
    /** The entries of these paths (those that have one), in one statement: path → entry. */
    among: (rootId: string, relPaths: readonly string[]): Map<string, JournalEntry> =>
      new Map((relPaths.length === 0 ? [] : among.all(JSON.stringify(relPaths), rootId)).map((row) => [row.rel_path, toEntry(row)])),
    /** `folderOption`: the option a new file's job files its asset under (null: the top level). */
    begin(rootId: string, kind: 'NEW' | 'VERSION', batchItemId: string, local: LocalEntry, assetId: string | null, now: string, folderOption: string | null = null): void {
      insert.run({ root_id: rootId, rel_path: local.relPath, kind, batch_item_id: batchItemId, asset_id: assetId, size: local.size, mtime_ms: local.mtimeMs, ino: local.ino, dev: local.dev, md5: local.md5, date_created: now, folder_option: folderOption });
    },
    /** The job that creates these paths' assets, heard before its outcome (a crash in between adopts by it). */
    jobCreated: (rootId: string, relPaths: readonly string[], jobId: string) => void setJob.run(jobId, rootId, JSON.stringify(relPaths)),
    uploadCreated: (rootId: string, relPath: string, assetId: string, uploadId: string, partSize: number) => void setUpload.run(assetId, uploadId, partSize, rootId, relPath),
    /** Drops the upload (its file changed, or the service forgot it) but keeps the asset for the next one. */
    forgetUpload: (rootId: string, relPath: string, assetId: string) => void forgetUpload.run(assetId, rootId, relPath),
    partsConfirmed: (rootId: string, relPath: string, parts: ReadonlyMap<number, string>) =>
      void setParts.run(JSON.stringify(Object.fromEntries(parts)), rootId, relPath),
    finish: (rootId: string, relPath: string) => void remove.run(rootId, relPath),
    /** Runs `write` (several of the calls above) as one transaction. */
    inTransaction(write: () => void): void {
      db.transaction(write)();
    },
  };
}

export type UploadJournal = ReturnType<typeof uploadJournal>;
