/**
 * Journal bugs the simulation plants in the upload executor [test-only], to prove that its invariants
 * catch them (sim/plants.ts, sim/plants.test.ts). Reached only through `EngineDeps.plantedBug`, which
 * the app and the CLI never set. The plan's plants wrap the planner from sim/ instead (sim/plants.ts);
 * these two follow once the journal writes are the state store's, which sim/ can wrap the same way.
 * - `journal-after-job`: a batch of new files journalled after the asset-and-upload job is created.
 * - `journal-outside-commit`: a finished upload's journal entry cleared in a transaction of its own.
 */
export type PlantedBug = 'journal-after-job' | 'journal-outside-commit';
