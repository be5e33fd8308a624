/**
 * Checks a service data directory before anything reads or writes it, so no other local user can
 * read its database (client secrets, small files), its blobs or its signing keys:
 * - A missing directory is created 0700 (its missing parents as the umask makes them).
 * - One that belongs to another user is refused (DATA_DIR_NOT_OWNED): its owner reads everything in
 *   it whatever the modes.
 * - One that group or others can read, search or write is refused (DATA_DIR_EXPOSED) with the fix,
 *   `chmod 700 DIR`, and a key rotation, as the keys may already have been copied. The directory's
 *   mode is the owner's decision (a backup group, a shared mount) and its having been open is news
 *   they need, so it is never changed silently. An empty one is the exception: nothing in it can
 *   have been read, so it is made 0700 and used (`mkdir data && asset-sync serve --data data`).
 * - In a private directory, the files and folders the service itself made (by name) are narrowed to
 *   0600/0700 when an older version left them wider. Safe: nobody else can reach them through a 0700
 *   directory anyway, so no one relied on their wider modes. A folder tree is walked only while its
 *   top is still wide, and its top is narrowed last, so an interrupted walk is resumed next start.
 * Windows has no such modes (access is by ACL, the profile's own by default): nothing is checked there.
 * Must never: widen a mode, follow a symbolic link while narrowing, or touch entries it did not make.
 */
import { chmodSync, lstatSync, mkdirSync, readdirSync, statSync, type Stats } from 'node:fs';
import { dirname, join } from 'node:path';
import { AdminError } from '../cli/admin-error.js';
import { LOCK_FILE } from '../cli/data-dir-lock.js';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from './private-files.js';

export const DATABASE_FILE = 'service.db';
/** The signing keys (auth/signing-keys.ts), beside the database and never in it. */
export const KEY_FILE = 'signing-keys.json';
/** Files the service makes at the top of the data directory. */
const SERVICE_FILES = [DATABASE_FILE, `${DATABASE_FILE}-wal`, `${DATABASE_FILE}-shm`, `${DATABASE_FILE}-journal`, LOCK_FILE, KEY_FILE];
/** Folders the service makes there, with everything in them. */
const SERVICE_FOLDERS = ['blobs', 'previews', 'transforms', 'uploads', 'reference-images'];
/** Group and others' bits. */
const OPEN_BITS = 0o077;

export interface DataDirPlatform {
  platform: NodeJS.Platform;
  /** The effective user id (undefined where there is none: Windows). */
  uid: number | undefined;
}

const thisProcess = (): DataDirPlatform => ({ platform: process.platform, uid: process.geteuid?.() });

/** Makes `dataDir` exist and be the caller's alone, or throws an AdminError naming the fix. */
export function secureDataDir(dataDir: string, host: DataDirPlatform = thisProcess()): void {
  if (host.platform === 'win32' || host.uid === undefined) {
    mkdirSync(dataDir, { recursive: true });
    return;
  }
  let stat = statIfAny(dataDir);
  if (stat === undefined) {
    mkdirSync(dirname(dataDir), { recursive: true });
    try {
      mkdirSync(dataDir, { mode: PRIVATE_DIR_MODE });
      // The umask only narrows the mode; this makes it exact (a umask of 0277 would leave it unusable).
      chmodSync(dataDir, PRIVATE_DIR_MODE);
    } catch (error) {
      // Another start made it meanwhile: check it like any existing directory.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    stat = statSync(dataDir);
  }
  if (!stat.isDirectory()) throw new AdminError('INVALID_INPUT', `${dataDir} is not a directory: name a directory for --data.`);
  if (stat.uid !== host.uid) {
    throw new AdminError(
      'DATA_DIR_NOT_OWNED',
      `${dataDir} belongs to another user (uid ${stat.uid}), who can read its keys and data whatever its mode. Serve it as that user, or make it this user's: \`chown -R ${host.uid} ${shellWord(dataDir)}\`.`,
    );
  }
  if ((stat.mode & OPEN_BITS) !== 0) {
    if (readdirSync(dataDir).length > 0) throw exposed(dataDir, stat.mode);
    chmodSync(dataDir, PRIVATE_DIR_MODE);
  }
  for (const name of SERVICE_FILES) narrow(join(dataDir, name), host.uid);
  for (const name of SERVICE_FOLDERS) narrowTree(join(dataDir, name), host.uid);
}

function exposed(dataDir: string, mode: number): AdminError {
  const dir = shellWord(dataDir);
  return new AdminError(
    'DATA_DIR_EXPOSED',
    `${dataDir} is open to other users of this machine (mode ${(mode & 0o777).toString(8)}), and it holds the service's database, files and signing keys. ` +
      `Make it private with \`chmod 700 ${dir}\`, then, as anyone who could read it may have copied the keys, run \`asset-sync keys rotate --data ${dir}\` and start again.`,
  );
}

function statIfAny(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

function lstatIfAny(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** Narrows one file or directory of ours to its private mode (links and others' entries are left alone). */
function narrow(path: string, uid: number, stat = lstatIfAny(path)): void {
  if (stat === undefined || stat.uid !== uid || (stat.mode & OPEN_BITS) === 0) return;
  if (stat.isDirectory()) chmodSync(path, PRIVATE_DIR_MODE);
  else if (stat.isFile()) chmodSync(path, PRIVATE_FILE_MODE);
}

/** Narrows a folder the service made and everything in it, its top last; nothing to do once its top is private. */
function narrowTree(root: string, uid: number): void {
  const top = lstatIfAny(root);
  if (top === undefined || !top.isDirectory() || (top.mode & OPEN_BITS) === 0) return;
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      if (entry.isDirectory() || entry.isFile()) narrow(path, uid);
    }
  };
  walk(root);
  narrow(root, uid, top);
}

/** The path as one shell word, for commands in messages. */
export function shellWord(path: string): string {
  return /^[\w@%+=:,./-]+$/.test(path) ? path : `'${path.replaceAll("'", "'\\''")}'`;
}
