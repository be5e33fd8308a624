/**
 * What `asset-sync status` (and later the UI) shows of a state directory: each root with its health,
 * counts, uploads under way, the files that could not sync with their reasons, and held deletions.
 * Reads the state database only; it never talks to the service.
 */
import type { StateDb } from '../db/open-state-db.js';
import { rootsRepo } from '../db/roots-repo.js';
import { issuesRepo } from '../db/issues-repo.js';
import { uploadJournal } from '../db/upload-journal.js';
import { conflictsRepo } from '../db/conflicts-repo.js';

export interface RootStatus {
  id: string;
  path: string;
  server: string;
  remotePath: string;
  publishLive: boolean;
  /** Why the root is stopped (missing folder or marker), or null while it runs. */
  stopped: string | null;
  localFiles: number;
  syncedFiles: number;
  uploadsInProgress: { relPath: string; partsDone: number }[];
  notSynced: { relPath: string; reason: string; detail: string; attempts: number; retryAt: string | null }[];
  heldDeletes: { count: number; confirmed: boolean; sample: string[]; local: number };
  /** Files both sides changed: the service's version at relPath, ours at copyPath (`asset-sync conflicts`). */
  conflicts: { id: number; relPath: string; copyPath: string; dateCreated: string }[];
  /** UP_TO_DATE, SYNCING (uploads under way), NEEDS_ATTENTION (not-synced files, held deletions, conflicts) or STOPPED. */
  state: 'UP_TO_DATE' | 'SYNCING' | 'NEEDS_ATTENTION' | 'STOPPED';
}

export function readStatus(db: StateDb): RootStatus[] {
  const roots = rootsRepo(db);
  const issues = issuesRepo(db);
  const journal = uploadJournal(db);
  const conflicts = conflictsRepo(db);
  const count = (table: 'local_files' | 'synced', rootId: string): number =>
    db.prepare<[string], { n: number }>(`SELECT count(*) AS n FROM ${table} WHERE root_id = ?`).get(rootId)?.n ?? 0;
  return roots.all().map((row) => {
    const held = issues.heldDeletes(row.id);
    const notSynced = issues.notSynced(row.id).map((issue) => ({
      relPath: issue.rel_path,
      reason: issue.reason,
      detail: issue.detail,
      attempts: issue.attempts,
      retryAt: issue.retry_at === null ? null : new Date(issue.retry_at).toISOString(),
    }));
    const uploads = journal.all(row.id).map((entry) => ({ relPath: entry.relPath, partsDone: entry.parts.size }));
    const open = conflicts.ofRoot(row.id).map((conflict) => ({ id: conflict.id, relPath: conflict.relPath, copyPath: conflict.copyPath, dateCreated: conflict.dateCreated }));
    const state = row.stopped !== null ? 'STOPPED' : notSynced.length > 0 || held.length > 0 || open.length > 0 ? 'NEEDS_ATTENTION' : uploads.length > 0 ? 'SYNCING' : 'UP_TO_DATE';
    return {
      id: row.id,
      path: row.path,
      server: row.server,
      remotePath: row.remote_path,
      publishLive: row.publish_live === 1,
      stopped: row.stopped,
      localFiles: count('local_files', row.id),
      syncedFiles: count('synced', row.id),
      uploadsInProgress: uploads,
      notSynced,
      heldDeletes: {
        count: held.length,
        confirmed: held.length > 0 && held.every((entry) => entry.confirmed === 1),
        sample: held.slice(0, 10).map((entry) => entry.rel_path),
        local: held.filter((entry) => entry.direction === 'LOCAL').length,
      },
      conflicts: open,
      state,
    };
  });
}
