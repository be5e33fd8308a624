/** The engine, as the app, the CLI, the simulation and the tests import it: createEngine and its contract. */
export { createEngine, rootHealth } from './create-engine.js';
export { DEFAULT_RESCAN_INTERVAL_MS, type Engine, type EngineConfig, type EngineDeps, type EngineEvent, type OnceResult, type RootInput, type WatchOptions, type WatchSession } from './engine-types.js';
export { refuseOverlap } from './refuse-overlap.js';
