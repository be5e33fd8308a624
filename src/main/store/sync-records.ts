/**
 * The records a pass writes across tables: each is one named operation, one transaction (or one group
 * commit), so what the sync layer did is recorded whole or not at all. The state store hands these to
 * the executors and the pass (engine wiring); the single-table writes stay with the repos (db/).
 * Must never: await inside a transaction, or change the order of a record's writes (a crash image taken
 * between two statements is what the next process recovers from).
 */
import type { StateDb } from '../db/open-state-db.js';
import { CommitBatches } from '../db/commit-batches.js';
import type { MoveAhead } from '../db/move-journal.js';
import type { HashedEntry, LocalEntry, SyncedEntry } from '../model/file-entry.js';
import { landedRecord, type Landing } from '../model/landing.js';
import { isScannerReason } from '../model/not-synced-reason.js';
import type { StateRepos } from './state-repos.js';
import type { RemapChoice } from '../../shared/sync/remap-choice.js';

export interface SyncRecords {
  /** A download's landing, written ahead of its rename; resolves once committed (shared with the landings of this turn). */
  landingWritten: (rootId: string, landing: Landing) => Promise<void>;
  /** Downloaded files landed: local and synced rows written, reports cleared, landings finished. */
  downloadsLanded: (rootId: string, landed: readonly { local: HashedEntry; assetId: string }[]) => void;
  /**
   * Landings a crash left unrecorded, found landed: each is recorded as its batch's commit would have.
   * A move's leaves the synced row's old path (unless that row is another asset's by now). A scanner's
   * report on the path stays (an UNREADABLE landed file): it is what has the scan look at the path
   * again, and the scan clears it once it can; any other report clears.
   */
  landingsRecovered: (rootId: string, landed: readonly Landing[]) => void;
  /** The engine moved a file on disk: local `from` → `local`, synced `syncedFrom` → `synced`, its landing finished. */
  localMoved: (rootId: string, from: string, local: LocalEntry, syncedFrom: string, synced: SyncedEntry) => void;
  /** A file went to the trash: its local and synced rows go. */
  localRemoved: (rootId: string, relPath: string) => void;
  /** The local file moved aside to its conflict copy: the copy's local row replaces the file's. */
  conflictCopied: (rootId: string, relPath: string, copy: LocalEntry) => void;
  /** Runs an executor's several writes in one transaction: all of them are recorded, or none. */
  atomically: (work: () => void) => void;
  /** A placement moved on the service: the synced row follows (its conflict's original too), the move written ahead finishes. */
  placementMoved: (rootId: string, from: string, to: SyncedEntry) => void;
  /** A move is written ahead of its first call to the service, with the synced row it settles first when given. */
  movingAhead: (rootId: string, move: MoveAhead, synced?: SyncedEntry) => void;
  /**
   * An upload finished: its synced row, the unread local row's MD5, the journal entry gone and the path's
   * report cleared; resolves once committed (shared with the uploads finishing in this turn).
   */
  uploadCommitted: (rootId: string, synced: SyncedEntry) => Promise<void>;
  /**
   * The root's place in the service changed (a remap), in one transaction. `move`: its folder moved
   * along in the service, so everything it knew stays true. `leave`: what it held in the old place is
   * forgotten (synced rows, the service's listing, the folder cache, journals, held deletions,
   * conflicts), so the next pass is a first sync into the new place: a local file with no synced row is
   * uploaded, never deleted. The local snapshot stays either way.
   */
  rootRemapped: (rootId: string, remotePath: string, choice: RemapChoice) => void;
}

export function syncRecords(db: StateDb, repos: StateRepos): SyncRecords {
  const { snapshots, issues, landings, journal, conflicts, movesAhead } = repos;
  /** A synced row moved from `from` to `synced.relPath`, its conflict's original following it. Call inside a transaction. */
  const syncedMoved = (rootId: string, from: string, synced: SyncedEntry): void => {
    snapshots.deleteSynced(rootId, from);
    snapshots.putSynced(rootId, synced);
    conflicts.originalMoved(rootId, synced.assetId, from, synced.relPath);
  };
  // The landings of the downloads that finish together share a commit.
  const landingCommits = new CommitBatches<{ rootId: string; landing: Landing }>(db, ({ rootId, landing }) => landings.landing(rootId, landing));
  const uploadCommits = new CommitBatches<{ rootId: string; synced: SyncedEntry }>(db, ({ rootId, synced }) => {
    snapshots.putSynced(rootId, synced);
    snapshots.fillUnread(rootId, synced);
    journal.finish(rootId, synced.relPath);
    issues.cleared(rootId, synced.relPath);
  });

  return {
    landingWritten: (rootId, landing) => landingCommits.commit({ rootId, landing }),
    downloadsLanded: db.transaction((rootId: string, landed: readonly { local: HashedEntry; assetId: string }[]) => {
      for (const { local, assetId } of landed) {
        snapshots.putLocal(rootId, local);
        snapshots.putSynced(rootId, { ...local, assetId });
        issues.cleared(rootId, local.relPath);
        landings.finish(rootId, local.relPath);
      }
    }),
    landingsRecovered: db.transaction((rootId: string, landed: readonly Landing[]) => {
      for (const landing of landed) {
        const synced = landedRecord(landing);
        const from = landing.moved?.from;
        if (from !== undefined && snapshots.syncedEntry(rootId, from)?.assetId === synced.assetId) syncedMoved(rootId, from, synced);
        else snapshots.putSynced(rootId, synced);
        snapshots.fillUnread(rootId, { ...synced, md5: landing.local.md5 });
        const report = issues.notSyncedEntry(rootId, synced.relPath);
        if (report !== undefined && !isScannerReason(report.reason)) issues.cleared(rootId, synced.relPath);
        landings.finish(rootId, synced.relPath);
      }
    }),
    localMoved: db.transaction((rootId: string, from: string, local: LocalEntry, syncedFrom: string, synced: SyncedEntry) => {
      snapshots.deleteLocal(rootId, from);
      snapshots.putLocal(rootId, local);
      syncedMoved(rootId, syncedFrom, synced);
      landings.finish(rootId, synced.relPath);
    }),
    localRemoved: db.transaction((rootId: string, relPath: string) => {
      snapshots.deleteLocal(rootId, relPath);
      snapshots.deleteSynced(rootId, relPath);
    }),
    conflictCopied: db.transaction((rootId: string, relPath: string, copy: LocalEntry) => {
      snapshots.deleteLocal(rootId, relPath);
      snapshots.putLocal(rootId, copy);
    }),
    atomically: (work) => db.transaction(work)(),
    placementMoved: db.transaction((rootId: string, from: string, to: SyncedEntry) => {
      syncedMoved(rootId, from, to);
      movesAhead.finish(rootId, from);
    }),
    movingAhead: db.transaction((rootId: string, move: MoveAhead, synced?: SyncedEntry) => {
      if (synced !== undefined) snapshots.putSynced(rootId, synced);
      movesAhead.ahead(rootId, move);
    }),
    uploadCommitted: (rootId, synced) => uploadCommits.commit({ rootId, synced }),
    rootRemapped: db.transaction((rootId: string, remotePath: string, choice: RemapChoice) => repos.rootPlace(rootId, remotePath, choice === 'move')),
  };
}
