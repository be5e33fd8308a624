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

  return {
    notSynced: (rootId: string) => notSynced.all(rootId),
    notSyncedEntry: (rootId: string, relPath: string) => notSyncedOne.get(rootId, relPath),
    /** Records (or re-records, counting attempts) why a path did not sync; `isFolder` when it is a folder. */
    failed: (rootId: string, relPath: string, reason: string, detail: string, retryAt: number | null, isFolder = false) =>
      void putNotSynced.run({ root_id: rootId, rel_path: relPath, reason, detail, is_folder: isFolder ? 1 : 0, retry_at: retryAt }),
    cleared: (rootId: string, relPath: string) => void clearNotSynced.run(rootId, relPath),
    clearedReason: (rootId: string, reason: string) => void clearReason.run(rootId, reason),
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
