/**
 * Bugs the simulation plants in the engine, to prove that its invariants catch them (plants.test.ts):
 * a harness whose seeds all pass proves nothing unless it fails when the engine is wrong. Each plant
 * wraps a seam the engine has for its own reasons (the planner it is given: `EngineDeps.planner`),
 * so no test switch runs through the engine.
 * - `no-conflict-copy`: the conflict rule skipped: where both sides changed a file, the service's
 *   version overwrites ours instead of ours being kept as a conflict copy.
 * - `no-delete-guard`: the mass-delete guard off: every deletion goes through, held or not.
 * - `journal-after-job`: a batch of new files journalled after the asset-and-upload job is created
 *   instead of before, so a crash in between forgets the job's assets.
 * - `journal-outside-commit`: a finished upload's journal entry cleared in a transaction of its own,
 *   before the one that records the file as synced, so a crash between the two forgets the upload.
 */
import { planOperations } from '../src/main/sync/plan-operations.js';
import type { Planner } from '../src/main/sync/plan-pass.js';
import type { Operation, Plan } from '../src/main/sync/sync-types.js';

export const PLAN_PLANTS = ['no-conflict-copy', 'no-delete-guard'] as const;
export const JOURNAL_PLANTS = ['journal-after-job', 'journal-outside-commit'] as const;
export const PLANTED_BUGS = [...PLAN_PLANTS, ...JOURNAL_PLANTS] as const;
export type PlanPlant = (typeof PLAN_PLANTS)[number];
export type JournalPlant = (typeof JOURNAL_PLANTS)[number];
export type PlantedBug = PlanPlant | JournalPlant;

export const isPlanPlant = (bug: string | undefined): bug is PlanPlant => PLAN_PLANTS.some((plant) => plant === bug);
export const isJournalPlant = (bug: string | undefined): bug is JournalPlant => JOURNAL_PLANTS.some((plant) => plant === bug);

/** The planner as the planted bug would have it: the real one, its plan then bent. */
export function plantedPlanner(bug: PlanPlant, planner: Planner = planOperations): Planner {
  return (input) => plantedPlan(planner(input), bug);
}

/** The plan as the planted bug would have made it. */
export function plantedPlan(plan: Plan, bug: PlanPlant): Plan {
  switch (bug) {
    case 'no-conflict-copy':
      return { ...plan, operations: plan.operations.map(overwriteInstead) };
    case 'no-delete-guard':
      return { operations: [...plan.operations, ...plan.heldDeletes], heldDeletes: [] };
  }
}

function overwriteInstead(op: Operation): Operation {
  return op.kind === 'CONFLICT' ? { kind: 'DOWNLOAD', relPath: op.relPath, remote: op.remote, replace: op.local } : op;
}
