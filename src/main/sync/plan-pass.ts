/**
 * The plan of one pass (DESIGN.md §3): every rule that decides which operations a pass makes, run in
 * order over what the pass gathered. Pure: no I/O, no clock; the pass (root-sync.ts) gathers the look,
 * asks this once, records what it answers and carries the operations out. Must never read or write
 * the state database, the disk or the service.
 *
 * The steps, in order:
 * 1. own uploads (plan-own-uploads.ts): own unsettled new-file uploads are the resume's; a file of one
 *    moved on disk waits (busy).
 * 2. conflict copies (plan-conflict-copies.ts): the copies still waiting for the user are left alone.
 * 3. the planner (plan-operations.ts, or the `Planner` the engine was given): the three-way table and
 *    the mass-delete guard.
 * 4. deletions seen whole (deletions-seen-whole.ts): deletions on the service wait for a quiet disk.
 * 5. settled reports (settled-reports.ts): reports the plan shows out of date go.
 * 6. settled successors (settled-successors.ts): files that outlived a binned asset are let go.
 * 7. work left: whether abandoned uploads are looked for, and what keeps the root from resting.
 */
import { conflictCopies, type ConflictChange, type ConflictRecord } from './plan-conflict-copies.js';
import { deletionsSeenWhole } from './deletions-seen-whole.js';
import type { NameKey } from '../local/local-names.js';
import { shapeOwnUploads, type OwnUpload } from './plan-own-uploads.js';
import { planOperations } from './plan-operations.js';
import { settledReports } from './settled-reports.js';
import { settledSuccessors } from './settled-successors.js';
import type { LocalEntry, Operation, PendingSignature, Plan, PlanInput, RemoteView, SyncedEntry } from './sync-types.js';

/** The planner proper: snapshots in, operations out (plan-operations.ts). The engine may be given another (a wrapped one). */
export type Planner = (input: PlanInput) => Plan;

/** What a pass gathered before it plans. */
export interface PassLook {
  /** Stable local files (the unstable ones left out), after the content the plan needs was read. */
  local: ReadonlyMap<string, LocalEntry>;
  /** The whole local snapshot, unstable paths too. */
  snapshot: ReadonlyMap<string, LocalEntry>;
  unstable: ReadonlySet<string>;
  pending: ReadonlyMap<string, PendingSignature>;
  /** The disk as scanned, before the content reads: own uploads are judged on it. */
  scanned: { local: ReadonlyMap<string, LocalEntry>; unstable: ReadonlySet<string> };
  /** Whether the look covered the whole root (not only hinted paths). */
  sawWholeRoot: boolean;
  synced: ReadonlyMap<string, SyncedEntry>;
  /** Paths waiting out a retry: left alone this pass. */
  busy: ReadonlySet<string>;
  /** The service's side; undefined before the first full listing. */
  view: RemoteView | undefined;
  /** With no view: the paths the persisted snapshot places assets at. */
  lastKnown: ReadonlySet<string> | undefined;
  /** Whether the service answered this pass (else the view is the last complete one). */
  remoteAnswered: boolean;
  /** The upload journal's entries. */
  uploads: readonly OwnUpload[];
  conflicts: readonly ConflictRecord[];
  /** The user confirmed the held deletions. */
  deletesConfirmed: boolean;
  /** Paths of the "not synced" reports that are not the scanner's. */
  reports: readonly string[];
  /** Paths of the files that outlived a binned asset. */
  outlived: Iterable<string>;
  now: number;
  nameKey: NameKey;
  /** When the pass began to look at the disk, and when its watcher last heard of a change (if it has one). */
  lookedAt: number;
  lastLocalEventAt: number | undefined;
  /** Interrupted uploads the pass finished before it looked. */
  resumed: number;
}

export interface PassPlan {
  /** The planner's plan: every operation it made, and the deletions the guard held. */
  plan: Plan;
  /** The operations to carry out this pass. */
  operations: readonly Operation[];
  /** Deletions on the service that wait for a quiet disk. */
  deletionsWaiting: number;
  /** What the conflicts table learns, in order. */
  conflictChanges: ConflictChange[];
  /** Reports that say nothing true any more; `version`: an unfinished version upload's journal entry goes too. */
  settled: { relPath: string; version: boolean }[];
  /** Files done outliving their binned asset. */
  successorsSettled: string[];
  /** Whether the pass looks for abandoned uploads after it carried out the plan. */
  endAbandoned: boolean;
  /** Files held for their upload's record: work left, so the next pass plans them. */
  heldForUpload: number;
  /** The view the plan was made with (own uploads' assets unknown). */
  view: RemoteView | undefined;
}

export function planPass(look: PassLook, planner: Planner = planOperations): PassPlan {
  const own = shapeOwnUploads(look.uploads, look.scanned, look.synced, look.view);
  const copies = conflictCopies(look);
  const plan = planner({
    local: look.local,
    unstable: look.unstable,
    pending: look.pending,
    synced: look.synced,
    busy: own.moved.size === 0 ? look.busy : new Set([...look.busy, ...own.moved.keys()]),
    deletesConfirmed: look.deletesConfirmed,
    ...(own.view === undefined ? {} : { remote: own.view }),
    ...(look.lastKnown === undefined ? {} : { lastKnownRemote: look.lastKnown }),
    conflictCopies: copies.copies,
    now: look.now,
    nameKey: look.nameKey,
  });
  const seenWhole = deletionsSeenWhole(plan.operations, look.lookedAt, look.lastLocalEventAt);
  return {
    plan,
    operations: seenWhole.operations,
    deletionsWaiting: seenWhole.waiting,
    conflictChanges: copies.changes,
    settled: reportsSettled(look, plan, own.view),
    successorsSettled: settledSuccessors(look),
    endAbandoned: plan.operations.length > 0 || look.resumed > 0 || own.moved.size > 0,
    heldForUpload: own.moved.size,
    view: own.view,
  };
}

/**
 * Reports and unfinished version uploads whose paths agree on both sides now (or are gone everywhere)
 * say nothing true any more: an edit undone before its retry, a download that landed. Left, they would
 * keep `status` from "up to date" and `--once` from converging for good.
 */
function reportsSettled(look: PassLook, plan: Plan, view: RemoteView | undefined): { relPath: string; version: boolean }[] {
  const versions = new Set(look.uploads.flatMap((entry) => (entry.kind === 'VERSION' ? [entry.relPath] : [])));
  const reports = new Set([...look.reports, ...versions]);
  if (reports.size === 0) return [];
  const waiting = new Set([...look.busy, ...look.unstable]);
  const settled = settledReports({ local: look.local, synced: look.synced, plan, waiting, reports: [...reports], ...(look.remoteAnswered && view !== undefined ? { remote: view } : {}) });
  return settled.map((relPath) => ({ relPath, version: versions.has(relPath) }));
}
