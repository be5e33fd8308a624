/**
 * Where the state store lives: state.db in the state directory. The engine opens it for as long as it
 * runs; a command that runs without an engine (`status`, `folders`, `conflicts`, `confirm-deletes`, the
 * app before sign-in) opens it for one use and closes it after.
 * Must never: create a state directory for a use that only reads (no state yet means nothing to show).
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { openStateDb, type StateDb } from '../db/open-state-db.js';
import { openStateStore, type StateStore } from './state-store.js';
import { openOwnedState, ownedByService, type StateOwner } from './state-owner.js';

/** The state database's file in a state directory. */
export const stateFile = (stateDir: string): string => join(stateDir, 'state.db');

/**
 * Opens the state directory's database for an engine, creating the directory (owner only) when missing:
 * with an owner, the state of that service and user (state-owner.ts); without, whatever state is there.
 */
export function openStateFile(stateDir: string, owner?: StateOwner): StateDb {
  mkdirSync(stateDir, { recursive: true, mode: 0o700 });
  return owner === undefined ? openStateDb(stateFile(stateDir)) : openOwnedState(stateDir, stateFile(stateDir), owner);
}

/**
 * Runs `read` on the state directory's store and closes it; undefined when the directory holds no state
 * yet, or, with `service`, when the state there is another service's (state-owner.ts).
 */
export function readStateDir<T>(stateDir: string, read: (store: StateStore) => T, service?: string): T | undefined {
  const file = stateFile(stateDir);
  if (!existsSync(file)) return undefined;
  const db = openStateDb(file);
  if (service !== undefined && !ownedByService(db, service)) {
    db.close();
    return undefined;
  }
  const store = openStateStore(db);
  try {
    return read(store);
  } finally {
    store.close();
  }
}

/** As readStateDir, for a use that awaits (the store closes once it settled). */
export async function withStateDir<T>(stateDir: string, use: (store: StateStore) => Promise<T>): Promise<T | undefined> {
  const file = stateFile(stateDir);
  if (!existsSync(file)) return undefined;
  const store = openStateStore(openStateDb(file));
  try {
    return await use(store);
  } finally {
    store.close();
  }
}
