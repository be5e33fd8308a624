/**
 * Bugs the simulation plants in the engine, to prove that its invariants catch them (plants.test.ts):
 * a harness whose seeds all pass proves nothing unless it fails when the engine is wrong. Each plant
 * wraps a seam the engine has for its own reasons (the planner it is given, `EngineDeps.planner`; the
 * state store it builds, `EngineDeps.openStore`; the service API), so no test switch runs through the
 * engine.
 * - `no-conflict-copy`: the conflict rule skipped: where both sides changed a file, the service's
 *   version overwrites ours instead of ours being kept as a conflict copy.
 * - `no-delete-guard`: the mass-delete guard off: every deletion goes through, held or not.
 * - `journal-after-job`: a batch of new files journalled after the asset-and-upload job is created
 *   instead of before, so a crash in between forgets the job's assets.
 * - `journal-outside-commit`: a finished upload's journal entry cleared in a transaction of its own,
 *   before the one that records the file as synced, so a crash between the two forgets the upload.
 */
import type { AssetApi } from '../src/main/api/index.js';
import type { StateDb } from '../src/main/db/open-state-db.js';
import { openStateStore, type StateStore } from '../src/main/store/state-store.js';
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

/** The seams a journal plant wraps: the state store the engine builds, and the API it calls. */
export interface JournalPlanted {
  openStore: (db: StateDb) => StateStore;
  api: (api: AssetApi) => AssetApi;
}

/**
 * One engine's journal plant (a new one for each engine built: a restarted engine starts clean).
 * `journal-after-job` holds the store's journal writes of a new-file batch until the asset-and-upload
 * job call returns (dropped when it fails, as a late write after a failed call never came);
 * `journal-outside-commit` clears an upload's journal entry on its own before the store's commit of
 * the synced row.
 */
export function journalPlant(bug: JournalPlant): JournalPlanted {
  /** The held journal writes of the batch whose job call is under way. */
  let held: (() => void)[] = [];
  let journalOf: StateStore['repos']['journal'] | undefined;
  const openStore = (db: StateDb): StateStore => {
    const store = openStateStore(db);
    const { journal } = store.repos;
    journalOf = journal;
    if (bug === 'journal-outside-commit') {
      return { ...store, records: { ...store.records, uploadCommitted: (rootId, synced) => {
        journal.finish(rootId, synced.relPath);
        return store.records.uploadCommitted(rootId, synced);
      } } };
    }
    const late: typeof journal = {
      ...journal,
      begin: (rootId, kind, batchItemId, local, assetId, now, folderOption) => {
        if (kind === 'NEW' && assetId === null) held.push(() => journal.begin(rootId, kind, batchItemId, local, assetId, now, folderOption));
        else journal.begin(rootId, kind, batchItemId, local, assetId, now, folderOption);
      },
    };
    return { ...store, repos: { ...store.repos, journal: late } };
  };
  const api = (inner: AssetApi): AssetApi => {
    if (bug !== 'journal-after-job') return inner;
    return new Proxy(inner, {
      get(target, property, receiver): unknown {
        if (property !== 'createAssetsWithUploads') return Reflect.get(target, property, receiver);
        const create: AssetApi['createAssetsWithUploads'] = async (items, onCreated) => {
          const writes = held;
          held = [];
          const outcome = await target.createAssetsWithUploads(items, onCreated);
          journalOf?.inTransaction(() => writes.forEach((write) => write()));
          return outcome;
        };
        return create;
      },
    });
  };
  return { openStore, api };
}

/** The API as the engine's journal plant (if any) wraps it. */
export function withJournalPlant(planted: JournalPlanted | undefined, api: AssetApi): AssetApi {
  return planted === undefined ? api : planted.api(api);
}
