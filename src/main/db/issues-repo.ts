/**
 * What stands between a root and "up to date": files that could not sync (with a reason code, a
 * message and when to try again) and deletions the mass-delete guard is holding for confirmation.
 */
import type { StateDb } from './open-state-db.js';

export interface NotSyncedRow {
  root_id: string;
  rel_path: string;
  reason: string;
  detail: string;
  /** 1 when the path is a folder (nothing below it syncs while it is listed). */
  is_folder: number;
  attempts: number;
  retry_at: number | null;
}

export interface HeldDeleteRow {
  root_id: string;
  rel_path: string;
  asset_id: string;
  confirmed: number;
  /** REMOTE: the placement on the service would go; LOCAL: the file on disk would go to the trash. */
  direction: 'REMOTE' | 'LOCAL';
}

export function issuesRepo(db: StateDb) {
  const notSynced = db.prepare<[string], NotSyncedRow>('SELECT * FROM not_synced WHERE root_id = ? ORDER BY rel_path');
  const notSyncedOne = db.prepare<[string, string], NotSyncedRow>('SELECT * FROM not_synced WHERE root_id = ? AND rel_path = ?');
  const putNotSynced = db.prepare(
    `INSERT INTO not_synced (root_id, rel_path, reason, detail, is_folder, attempts, retry_at) VALUES (@root_id, @rel_path, @reason, @detail, @is_folder, 1, @retry_at)
     ON CONFLICT (root_id, rel_path) DO UPDATE SET reason = excluded.reason, detail = excluded.detail, is_folder = excluded.is_folder, attempts = attempts + 1, retry_at = excluded.retry_at`,
  );
  const clearNotSynced = db.prepare('DELETE FROM not_synced WHERE root_id = ? AND rel_path = ?');
  const clearReason = db.prepare('DELETE FROM not_synced WHERE root_id = ? AND reason = ?');
  const held = db.prepare<[string], HeldDeleteRow>('SELECT * FROM held_deletes WHERE root_id = ? ORDER BY rel_path');
  const hold = db.prepare('INSERT OR IGNORE INTO held_deletes (root_id, rel_path, asset_id, direction) VALUES (?, ?, ?, ?)');
  const confirmAll = db.prepare('UPDATE held_deletes SET confirmed = 1 WHERE root_id = ?');
  const clearHeld = db.prepare('DELETE FROM held_deletes WHERE root_id = ?');
  const retryRoot = db.prepare('UPDATE not_synced SET retry_at = NULL WHERE root_id = ?');
  const retryPath = db.prepare('UPDATE not_synced SET retry_at = NULL WHERE root_id = ? AND rel_path = ?');

  const rootPaths = db.prepare<[string], string>('SELECT rel_path FROM not_synced WHERE root_id = ?').pluck();
  /**
   * Per root, every path that may have a report: a superset of the rows, never missing one, so a path
   * outside it has none and is neither looked up nor cleared (most paths of a pass never failed). This
   * repo writes every row (the store is the one writer of the database): a report adds its path, and a
   * clear drops it once committed (inside a transaction it stays: a rollback would bring the row back).
   * A path left over (a root's rows gone with it, a clear inside a transaction) only costs a statement
   * that finds nothing. Each full listing of the root, outside a transaction, is the set again exactly:
   * the pass lists the reports every time (local-refresh.ts), so another process's report (a second
   * engine on the same state) is seen by the next pass. Every delete here reads the set first, so a
   * set read inside a transaction holds every row a rollback could bring back.
   */
  const mayHave = new Map<string, Set<string>>();
  const pathsOf = (rootId: string): Set<string> => {
    let paths = mayHave.get(rootId);
    if (paths === undefined) {
      paths = new Set(rootPaths.all(rootId));
      mayHave.set(rootId, paths);
    }
    return paths;
  };

  return {
    notSynced(rootId: string): NotSyncedRow[] {
      const rows = notSynced.all(rootId);
      if (!db.inTransaction) mayHave.set(rootId, new Set(rows.map((row) => row.rel_path)));
      return rows;
    },
    notSyncedEntry: (rootId: string, relPath: string) => (pathsOf(rootId).has(relPath) ? notSyncedOne.get(rootId, relPath) : undefined),
    /** Records (or re-records, counting attempts) why a path did not sync; `isFolder` when it is a folder. */
    failed(rootId: string, relPath: string, reason: string, detail: string, retryAt: number | null, isFolder = false): void {
      putNotSynced.run({ root_id: rootId, rel_path: relPath, reason, detail, is_folder: isFolder ? 1 : 0, retry_at: retryAt });
      pathsOf(rootId).add(relPath);
    },
    cleared(rootId: string, relPath: string): void {
      const paths = pathsOf(rootId);
      if (!paths.has(relPath)) return;
      clearNotSynced.run(rootId, relPath);
      if (!db.inTransaction) paths.delete(relPath);
    },
    clearedReason(rootId: string, reason: string): void {
      // The set is read before the rows go, so a rollback cannot leave a row it lacks; the paths stay.
      pathsOf(rootId);
      clearReason.run(rootId, reason);
    },
    /** The root's failed paths (or the one path) are due again now: the next pass tries them, whatever their back-off said. */
    retryNow(rootId: string, relPath?: string): void {
      if (relPath === undefined) retryRoot.run(rootId);
      else retryPath.run(rootId, relPath);
    },
    heldDeletes: (rootId: string) => held.all(rootId),
    /** Replaces the held set with this pass's held deletions, keeping confirmations of the same set. */
    holdDeletes(rootId: string, deletes: readonly { relPath: string; assetId: string; direction?: 'REMOTE' | 'LOCAL' }[]): void {
      db.transaction(() => {
        const before = new Set(held.all(rootId).map((row) => row.rel_path));
        const same = before.size === deletes.length && deletes.every((entry) => before.has(entry.relPath));
        if (same) return;
        clearHeld.run(rootId);
        for (const entry of deletes) hold.run(rootId, entry.relPath, entry.assetId, entry.direction ?? 'REMOTE');
      })();
    },
    confirmDeletes: (rootId: string) => confirmAll.run(rootId).changes,
    deletesConfirmed: (rootId: string) => {
      const rows = held.all(rootId);
      return rows.length > 0 && rows.every((row) => row.confirmed === 1);
    },
    clearHeld: (rootId: string) => void clearHeld.run(rootId),
  };
}

export type IssuesRepo = ReturnType<typeof issuesRepo>;
