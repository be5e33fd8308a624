/**
 * Sync state belongs to one service and one user there. state.db in the state directory is the state of
 * the account that synced last; every other account's state waits, whole, in `accounts/`. Opening the
 * state for an account that does not own state.db sets state.db aside under its owner and brings that
 * account's own state back, or starts a fresh one that carries over the folders only (path, service
 * folder, publish setting and root id, so each folder's marker stays true): its first sync uploads and
 * merges like any first sync, and nothing learnt from one service is read as a fact about another.
 * Must never: hand one account's synced snapshot, folder cache, journal or held deletions to another;
 * lose a state (a switch stopped half-way leaves both files in place, and the next open finishes it).
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { openStateDb, type StateDb } from '../db/open-state-db.js';
import { rootsRepo, type RootRow } from '../db/roots-repo.js';
import { stateOwnerRepo, type StateOwnerRow } from '../db/state-owner-repo.js';

/** The service of a state built against the built-in local library (its URL follows its port). */
export const LOCAL_SERVICE = 'local';

/** Who a state is for. */
export interface StateOwner {
  /** LOCAL_SERVICE for the built-in local library, else the server's base URL. */
  service: string;
  /** The user's id on that service; null when it is not known (offline at start): whoever synced there last. */
  userId: string | null;
  /** The base URL the service answers at now (the local library's follows its port). */
  server: string;
}

/** Where the states of the accounts not signed in now wait. */
export const accountsDir = (stateDir: string): string => join(stateDir, 'accounts');

const SIDE_FILES = ['-wal', '-shm'] as const;

/** Whether the state's owner row names this owner (a row or a request without a user matches any user there). */
function owns(row: StateOwnerRow, owner: StateOwner): boolean {
  const sameService = row.service === owner.service || row.server === owner.server;
  return sameService && (owner.userId === null || row.user_id === null || row.user_id === owner.userId);
}

/** A state written before owners were recorded: the service its folders point at (any, when it has none). */
function ownerOfUnowned(db: StateDb, owner: StateOwner): StateOwnerRow {
  const servers = new Set(rootsRepo(db).all().map((row) => row.server));
  if (servers.size === 0 || (servers.size === 1 && servers.has(owner.server))) return { service: owner.service, server: owner.server, user_id: owner.userId };
  const [server] = [...servers];
  return { service: server ?? owner.service, server: server ?? owner.server, user_id: null };
}

function savedFile(stateDir: string, row: Pick<StateOwnerRow, 'service' | 'user_id'>): string {
  const key = createHash('sha256').update(`${row.service}\n${row.user_id ?? ''}`).digest('hex').slice(0, 16);
  return join(accountsDir(stateDir), `${key}.db`);
}

/** Moves a closed database file with its WAL (a stale WAL never meets another database). */
function moveDb(from: string, to: string): void {
  renameSync(from, to);
  for (const side of SIDE_FILES) {
    if (existsSync(from + side)) renameSync(from + side, to + side);
    else rmSync(to + side, { force: true });
  }
}

function closeFully(db: StateDb): void {
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
}

/** The saved state of `owner`, if one waits in accounts/. */
function findSaved(stateDir: string, owner: StateOwner): string | undefined {
  const dir = accountsDir(stateDir);
  if (!existsSync(dir)) return undefined;
  const exact = savedFile(stateDir, { service: owner.service, user_id: owner.userId });
  if (owner.userId !== null && existsSync(exact)) return exact;
  for (const name of readdirSync(dir).filter((entry) => entry.endsWith('.db')).sort()) {
    const file = join(dir, name);
    const db = openStateDb(file);
    try {
      const row = stateOwnerRepo(db).get();
      if (row !== undefined && owns(row, owner)) return file;
    } finally {
      closeFully(db);
    }
  }
  return undefined;
}

/** A new state for `owner` at `file`, holding the folders of the state before (and nothing else of it). */
function writeFresh(file: string, owner: StateOwner, folders: RootRow[]): void {
  const building = `${file}.new`;
  rmSync(building, { force: true });
  const db = openStateDb(building);
  try {
    db.transaction(() => {
      stateOwnerRepo(db).set({ service: owner.service, server: owner.server, user_id: owner.userId });
      const roots = rootsRepo(db);
      for (const row of folders) roots.insertAs({ ...row, server: owner.server, stopped: null });
    })();
  } finally {
    closeFully(db);
  }
  moveDb(building, file);
}

/** Brings the owner's state to state.db, setting aside the one there; answers it open. */
function switchTo(file: string, stateDir: string, db: StateDb, current: StateOwnerRow, owner: StateOwner): StateDb {
  const folders = rootsRepo(db).all();
  stateOwnerRepo(db).set(current);
  closeFully(db);
  mkdirSync(accountsDir(stateDir), { recursive: true, mode: 0o700 });
  const target = findSaved(stateDir, owner) ?? savedFile(stateDir, { service: owner.service, user_id: owner.userId });
  if (!existsSync(target)) writeFresh(target, owner, folders);
  // Both moves are renames: stopped between them, state.db is missing and the next open takes the saved one.
  moveDb(file, savedFile(stateDir, current));
  moveDb(target, file);
  return claimed(openStateDb(file), owner);
}

/** The state, its owner row saying who opened it (the user's id filled in once known, the server's URL now). */
function claimed(db: StateDb, owner: StateOwner): StateDb {
  const owners = stateOwnerRepo(db);
  const row = owners.get();
  owners.set({ service: row?.service ?? owner.service, server: owner.server, user_id: owner.userId ?? row?.user_id ?? null });
  return db;
}

/**
 * Whether the state in `db` is `service`'s, as far as it can be told without its user: its owner row
 * names the service, or it has none yet (a state from before owners were recorded).
 */
export function ownedByService(db: StateDb, service: string): boolean {
  const row = stateOwnerRepo(db).get();
  return row === undefined || row.service === service;
}

/**
 * Opens state.db for `owner`, the state of that service and user: the one there when it is theirs (or
 * unowned and of the same server), else theirs from accounts/, else a fresh one with the folders.
 */
export function openOwnedState(stateDir: string, file: string, owner: StateOwner): StateDb {
  if (!existsSync(file)) {
    const saved = findSaved(stateDir, owner);
    if (saved !== undefined) moveDb(saved, file);
    return claimed(openStateDb(file), owner);
  }
  const db = openStateDb(file);
  try {
    const current = stateOwnerRepo(db).get() ?? ownerOfUnowned(db, owner);
    if (owns(current, owner)) return claimed(db, owner);
    return switchTo(file, stateDir, db, current, owner);
  } catch (error) {
    if (db.open) db.close();
    throw error;
  }
}
