/** The engine's numbered migrations, in order. Append only: a shipped migration is never edited. */
import engine from './0001-engine.js';

export const migrations: readonly string[] = [engine];
