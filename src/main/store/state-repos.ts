/**
 * The repos of one state database, built once: each table's SQL (db/) behind one object, which the
 * state store composes into its operations and queries and hands to the sync layer for the writes
 * that touch one table (a scan's local rows, a failure's report, the remote feed's snapshot).
 * Must never: open or close the database (the store does), or hold a transaction of its own.
 */
import type { StateDb } from '../db/open-state-db.js';
import { conflictsRepo, type ConflictsRepo } from '../db/conflicts-repo.js';
import { foldersRepo, type FoldersRepo } from '../db/folders-repo.js';
import { issuesRepo, type IssuesRepo } from '../db/issues-repo.js';
import { landingJournal, type LandingJournal } from '../db/landing-journal.js';
import { moveJournal, type MoveJournal } from '../db/move-journal.js';
import { remoteRepo, type RemoteRepo } from '../db/remote-repo.js';
import { renameDirRows } from '../db/rename-dir.js';
import { rootPlaceRows } from '../db/root-place-rows.js';
import { remapJournal, type RemapJournal } from '../db/remap-journal.js';
import { rootsRepo, type RootsRepo } from '../db/roots-repo.js';
import { snapshotsRepo, type SnapshotsRepo } from '../db/snapshots-repo.js';
import { successorsRepo, type SuccessorsRepo } from '../db/successors-repo.js';
import { uploadJournal, type UploadJournal } from '../db/upload-journal.js';

export interface StateRepos {
  roots: RootsRepo;
  snapshots: SnapshotsRepo;
  /** The upload journal. */
  journal: UploadJournal;
  /** The download journal. */
  landings: LandingJournal;
  issues: IssuesRepo;
  successors: SuccessorsRepo;
  movesAhead: MoveJournal;
  /** Remaps that move the root's folder in the service, written ahead (migration 0011). */
  remapsAhead: RemapJournal;
  /** The folder cache: local directory → Folders option. */
  folders: FoldersRepo;
  remote: RemoteRepo;
  conflicts: ConflictsRepo;
  /** Every row below a directory follows its rename, in one transaction. */
  renameDir: (rootId: string, from: string, to: string) => void;
  /** A root's place in the service changes; `carry: false` forgets what it held there (db/root-place-rows.ts). */
  rootPlace: (rootId: string, remotePath: string, carry: boolean) => void;
}

export function stateRepos(db: StateDb): StateRepos {
  return {
    roots: rootsRepo(db),
    snapshots: snapshotsRepo(db),
    journal: uploadJournal(db),
    landings: landingJournal(db),
    issues: issuesRepo(db),
    successors: successorsRepo(db),
    movesAhead: moveJournal(db),
    remapsAhead: remapJournal(db),
    folders: foldersRepo(db),
    remote: remoteRepo(db),
    conflicts: conflictsRepo(db),
    renameDir: renameDirRows(db),
    rootPlace: rootPlaceRows(db),
  };
}
