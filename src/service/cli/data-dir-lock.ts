/**
 * One service per data directory. Two would share the database but not their memory of it: each
 * sweeps uploads the other is receiving, runs the other's queued jobs a second time and moves blobs
 * the other is reading. `service.lock` names the process serving the directory; a second start is
 * refused with DATA_DIR_IN_USE, naming that process. A lock left by a process that is gone (killed,
 * crashed, the machine restarted) is taken over. The administration commands (`token`, `user …`) do
 * not take it: they are short, and SQLite serialises their writes with the service's.
 * Must never: refuse a directory whose lock names no live process (for longer than a lock takes to
 * write), or let two starts both take it (the file is created exclusively; a stale one is removed and
 * the creation raced again; an unreadable one is stale only once it is seconds old, as one being
 * written would be read empty).
 */
import { readFileSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AdminError } from './admin-error.js';

export const LOCK_FILE = 'service.lock';
/** An unreadable lock younger than this may be one another start is writing right now: not stale. */
const WRITING_MS = 5000;

export interface DataDirLock {
  /** Removes the lock if it is still ours. */
  release(): void;
}

interface LockOwner {
  pid: number;
  since: string;
}

/** Whether a process with this id exists (EPERM: it exists but is someone else's). */
function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readOwner(path: string): LockOwner | undefined {
  try {
    const owner: unknown = JSON.parse(readFileSync(path, 'utf8'));
    if (typeof owner === 'object' && owner !== null && 'pid' in owner && Number.isSafeInteger(owner.pid)) {
      return { pid: Number(owner.pid), since: 'since' in owner ? String(owner.since) : 'an unknown time' };
    }
  } catch {
    // Missing, half-written or not ours: no live owner can be named.
  }
  return undefined;
}

/**
 * Lock files this process holds. A lock naming this process's id that is not among them was left by
 * an earlier process that had the same id: in a container the service is often process 1 every time.
 */
const heldHere = new Set<string>();

export function lockDataDir(dataDir: string, options: { pid?: number; isAlive?: (pid: number) => boolean } = {}): DataDirLock {
  const pid = options.pid ?? process.pid;
  const isAlive = options.isAlive ?? processAlive;
  const path = join(dataDir, LOCK_FILE);
  /** Whether the lock's holder may still be serving: a live process, or a lock still being written. */
  const held = (holder: LockOwner | undefined): boolean => {
    if (holder === undefined) return justCreated(path);
    return holder.pid === pid ? heldHere.has(path) : isAlive(holder.pid);
  };
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(path, `${JSON.stringify({ pid, since: new Date().toISOString() })}\n`, { flag: 'wx', mode: 0o600 });
      heldHere.add(path);
      return { release: () => release(path, pid) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = readOwner(path);
    if (held(holder)) throw inUse(dataDir, holder);
    // Stale: its process is gone. Remove it and race for the creation once more.
    try {
      unlinkSync(path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  // Another start took it between our removal and our creation.
  throw inUse(dataDir, readOwner(path));
}

/** Whether the file was modified within WRITING_MS (false when it is gone). */
function justCreated(path: string): boolean {
  try {
    return Date.now() - statSync(path).mtimeMs < WRITING_MS;
  } catch {
    return false;
  }
}

function release(path: string, pid: number): void {
  heldHere.delete(path);
  if (readOwner(path)?.pid !== pid) return;
  try {
    unlinkSync(path);
  } catch {
    // Already gone: nothing to release.
  }
}

function inUse(dataDir: string, holder: LockOwner | undefined): AdminError {
  const who = holder === undefined ? 'another service' : `process ${holder.pid} (since ${holder.since})`;
  return new AdminError(
    'DATA_DIR_IN_USE',
    `${dataDir} is already served by ${who}. Stop that service first, or serve another --data directory; if no such process runs, remove ${join(dataDir, LOCK_FILE)}.`,
  );
}
