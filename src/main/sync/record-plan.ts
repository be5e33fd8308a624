/**
 * Writes what a pass's plan decided besides its operations (plan-pass.ts), in the order the pass has
 * always written them: the conflicts table's bookkeeping, the held deletions (or none), the reports and
 * version journal entries that say nothing true any more, and the successors let go. Decides nothing:
 * every choice here was the plan's.
 */
import type { ConflictsRepo } from '../db/conflicts-repo.js';
import type { IssuesRepo } from '../db/issues-repo.js';
import type { SuccessorsRepo } from '../db/successors-repo.js';
import type { UploadJournal } from '../db/upload-journal.js';
import type { PassReport } from './pass-report.js';
import type { PassPlan } from './plan-pass.js';

export interface RecordPlanDeps {
  conflicts: Pick<ConflictsRepo, 'originalMoved' | 'copyMoved' | 'resolved'>;
  issues: Pick<IssuesRepo, 'holdDeletes' | 'clearHeld' | 'cleared'>;
  journal: Pick<UploadJournal, 'finish'>;
  successors: Pick<SuccessorsRepo, 'drop'>;
  log(event: { level: 'info' | 'warn'; message: string; relPath?: string }): void;
}

/** Also counts the plan's operations and held deletions in the report. */
export function recordPlan(deps: RecordPlanDeps, rootId: string, planned: PassPlan, report: PassReport): void {
  for (const change of planned.conflictChanges) {
    if (change.kind === 'ORIGINAL_MOVED') deps.conflicts.originalMoved(rootId, change.assetId, change.from, change.to);
    else if (change.kind === 'COPY_MOVED') deps.conflicts.copyMoved(change.id, change.to);
    else deps.conflicts.resolved(change.id);
  }
  const held = planned.plan.heldDeletes;
  if (held.length > 0) deps.issues.holdDeletes(rootId, held.map((op) => ({ relPath: op.relPath, assetId: op.assetId, direction: op.kind === 'LOCAL_DELETE' ? 'LOCAL' : 'REMOTE' })));
  else deps.issues.clearHeld(rootId);
  report.heldDeletes = held.length;
  const waiting = planned.deletionsWaiting;
  if (waiting > 0) deps.log({ level: 'info', message: `${waiting} deletion${waiting === 1 ? '' : 's'} wait: the folder changed while it was being looked at` });
  report.operations += planned.operations.length;
  for (const { relPath, version } of planned.settled) {
    deps.issues.cleared(rootId, relPath);
    if (version) deps.journal.finish(rootId, relPath);
  }
  for (const relPath of planned.successorsSettled) deps.successors.drop(rootId, relPath);
}
