/**
 * Bugs the simulation plants in the engine [test-only], to prove that its invariants catch them
 * (sim/plants.test.ts): a harness whose seeds all pass proves nothing unless it fails when the engine
 * is wrong. Each is one switch at the place the bug would be, reached only through
 * `EngineDeps.plantedBug`, which the app and the CLI never set (none is the default).
 * - `no-conflict-copy`: the conflict rule skipped: where both sides changed a file, the service's
 *   version overwrites ours instead of ours being kept as a conflict copy.
 * - `no-delete-guard`: the mass-delete guard off: every deletion goes through, held or not.
 * - `journal-after-job`: a batch of new files journalled after the asset-and-upload job is created
 *   instead of before, so a crash in between forgets the job's assets.
 * - `journal-outside-commit`: a finished upload's journal entry cleared in a transaction of its own,
 *   before the one that records the file as synced, so a crash between the two forgets the upload.
 */
import type { Operation, Plan } from './sync-types.js';

export const PLANTED_BUGS = ['no-conflict-copy', 'no-delete-guard', 'journal-after-job', 'journal-outside-commit'] as const;
export type PlantedBug = (typeof PLANTED_BUGS)[number];

/** The plan as the planted bug would have made it (the planner's own plan when none is planted). */
export function plantedPlan(plan: Plan, bug: PlantedBug | undefined): Plan {
  switch (bug) {
    case 'no-conflict-copy':
      return { ...plan, operations: plan.operations.map(overwriteInstead) };
    case 'no-delete-guard':
      return { operations: [...plan.operations, ...plan.heldDeletes], heldDeletes: [] };
    default:
      return plan;
  }
}

function overwriteInstead(op: Operation): Operation {
  return op.kind === 'CONFLICT' ? { kind: 'DOWNLOAD', relPath: op.relPath, remote: op.remote, replace: op.local } : op;
}
