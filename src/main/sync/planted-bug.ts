/**
 * The type of the journal switches still in upload-executor.ts [test-only]. Nothing sets them any more:
 * the simulation plants its bugs from sim/ by wrapping the engine's seams (sim/plants.ts). This file goes
 * once upload-executor.ts no longer reads `plantedBug`.
 */
export type PlantedBug = 'journal-after-job' | 'journal-outside-commit';
