/**
 * The state store's status queries: what `asset-sync status`, the app and the simulation show of a state
 * directory — each root with its health, counts, uploads under way, the files that could not sync with
 * their reasons, held deletions and conflicts, and what waits while the service is away. Reads the
 * state database only; it never talks to the service and never writes.
 *
 * It must never say more than it knows: a root whose service was never reached is not up to date; a
 * local file counts as synced only while it is still the file both sides agreed on (a synced row whose
 * file was deleted or edited since is not), so "synced" never exceeds "local"; a file changed since
 * (an edit, `resolve --keep mine`) waits to upload; what the scanner could not read is a local item
 * that is not synced.
 */
import type { StateDb } from '../db/open-state-db.js';
import { rootsRepo } from '../db/roots-repo.js';
import { issuesRepo } from '../db/issues-repo.js';
import { uploadJournal } from '../db/upload-journal.js';
import { conflictsRepo } from '../db/conflicts-repo.js';
import { remoteRepo } from '../db/remote-repo.js';

export interface RootStatus {
  id: string;
  path: string;
  server: string;
  remotePath: string;
  publishLive: boolean;
  /** Why the root is stopped (missing folder or marker), or null while it runs. */
  stopped: string | null;
  /**
   * Files on disk the engine knows of, with the items it could not read (an unreadable folder counts
   * once). Symlinks and names the service refuses are reported, not counted: they are not files to sync.
   */
  localFiles: number;
  /** Local files still exactly as both sides last agreed (never more than localFiles). */
  syncedFiles: number;
  /** Local files new or changed since they were synced, to be uploaded (conflict copies and reported files aside). */
  pendingUploads: number;
  /** Whether the service was ever read in full for this root; until then nothing is known to be in step. */
  reachedService: boolean;
  uploadsInProgress: { relPath: string; partsDone: number }[];
  notSynced: { relPath: string; reason: string; detail: string; isFolder: boolean; attempts: number; retryAt: string | null }[];
  /** `local`: how many would be deleted on this computer, that is, were deleted in the service. */
  heldDeletes: { count: number; confirmed: boolean; sample: string[]; local: number };
  /** Files both sides changed: the service's version at relPath, ours at copyPath (`asset-sync conflicts`). */
  conflicts: { id: number; relPath: string; copyPath: string; dateCreated: string }[];
  /**
   * STOPPED; NEEDS_ATTENTION (not-synced files, held deletions, conflicts); NEVER_SYNCED (the service
   * was never reached); SYNCING (uploads under way or waiting); else UP_TO_DATE.
   */
  state: 'UP_TO_DATE' | 'SYNCING' | 'NEVER_SYNCED' | 'NEEDS_ATTENTION' | 'STOPPED';
}

/** A local file that is still the synced one: same bytes when both are known, else the same file. */
const AGREES = `(CASE WHEN l.md5 IS NOT NULL THEN l.md5 = s.md5 ELSE l.size = s.size AND l.mtime_ms = s.mtime_ms AND l.ino = s.ino END)`;

export function readStatus(db: StateDb): RootStatus[] {
  const roots = rootsRepo(db);
  const issues = issuesRepo(db);
  const journal = uploadJournal(db);
  const conflicts = conflictsRepo(db);
  const remote = remoteRepo(db);
  const localCount = db.prepare<[string], { n: number }>('SELECT count(*) AS n FROM local_files WHERE root_id = ?');
  const syncedCount = db.prepare<[string], { n: number }>(`SELECT count(*) AS n FROM local_files l JOIN synced s ON s.root_id = l.root_id AND s.rel_path = l.rel_path WHERE l.root_id = ? AND ${AGREES}`);
  const changed = db.prepare<[string], { rel_path: string }>(
    `SELECT l.rel_path FROM local_files l LEFT JOIN synced s ON s.root_id = l.root_id AND s.rel_path = l.rel_path WHERE l.root_id = ? AND (s.rel_path IS NULL OR NOT ${AGREES})`,
  );
  const isLocal = db.prepare<[string, string], { n: number }>('SELECT count(*) AS n FROM local_files WHERE root_id = ? AND rel_path = ?');
  return roots.all().map((row) => {
    const held = issues.heldDeletes(row.id);
    const notSynced = issues.notSynced(row.id).map((issue) => ({
      relPath: issue.rel_path,
      reason: issue.reason,
      detail: issue.detail,
      isFolder: issue.is_folder === 1,
      attempts: issue.attempts,
      retryAt: issue.retry_at === null ? null : new Date(issue.retry_at).toISOString(),
    }));
    const uploads = journal.all(row.id).map((entry) => ({ relPath: entry.relPath, partsDone: entry.parts.size }));
    const open = conflicts.ofRoot(row.id).map((conflict) => ({ id: conflict.id, relPath: conflict.relPath, copyPath: conflict.copyPath, dateCreated: conflict.dateCreated }));
    // Items the scanner could not read are on disk too, and not synced.
    const unreadable = notSynced.filter((issue) => issue.reason === 'UNREADABLE' && (isLocal.get(row.id, issue.relPath)?.n ?? 0) === 0).length;
    const accounted = new Set([...notSynced.map((issue) => issue.relPath), ...open.map((conflict) => conflict.copyPath)]);
    const pendingUploads = changed.all(row.id).filter((file) => !accounted.has(file.rel_path)).length;
    const reachedService = remote.state(row.id).lastFull !== null;
    const attention = notSynced.length > 0 || held.length > 0 || open.length > 0;
    const state = row.stopped !== null ? 'STOPPED' : attention ? 'NEEDS_ATTENTION' : !reachedService ? 'NEVER_SYNCED' : uploads.length > 0 || pendingUploads > 0 ? 'SYNCING' : 'UP_TO_DATE';
    return {
      id: row.id,
      path: row.path,
      server: row.server,
      remotePath: row.remote_path,
      publishLive: row.publish_live === 1,
      stopped: row.stopped,
      localFiles: (localCount.get(row.id)?.n ?? 0) + unreadable,
      syncedFiles: syncedCount.get(row.id)?.n ?? 0,
      pendingUploads,
      reachedService,
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
