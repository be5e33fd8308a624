/**
 * The app's activity entries (migration 0012), newest kept: a batch of entries written (new ones and
 * ones that changed, by id) and the rows older than the newest `cap` dropped, by the caller's
 * transaction (the state store's `keepActivity`).
 */
import type { StateDb } from './open-state-db.js';

export interface ActivityRow {
  id: number;
  folder_id: string;
  rel_path: string;
  kind: string;
  from_path: string | null;
  status: string;
  bytes_done: number;
  bytes_total: number | null;
  at: string;
  /** JSON of the failure, or null. */
  error: string | null;
}

export function activityRepo(db: StateDb) {
  const put = db.prepare<[ActivityRow]>(
    `INSERT OR REPLACE INTO activity (id, folder_id, rel_path, kind, from_path, status, bytes_done, bytes_total, at, error)
     VALUES (@id, @folder_id, @rel_path, @kind, @from_path, @status, @bytes_done, @bytes_total, @at, @error)`,
  );
  const trim = db.prepare<[number]>('DELETE FROM activity WHERE id <= (SELECT MAX(id) FROM activity) - ?');
  const newest = db.prepare<[number], ActivityRow>('SELECT * FROM activity ORDER BY id DESC LIMIT ?');
  return {
    /** Writes the rows (a row with a known id replaces it). */
    put: (row: ActivityRow) => void put.run(row),
    /** Drops every row but the newest `cap` ids. */
    trim: (cap: number) => void trim.run(cap),
    /** The newest `limit` rows, newest first. */
    newest: (limit: number): ActivityRow[] => newest.all(limit),
  };
}

export type ActivityRepo = ReturnType<typeof activityRepo>;
