/**
 * The modes of everything the service keeps in its data directory: directories 0700, files 0600, so
 * no other local user reads the database, the blobs or the signing keys. A mode given at creation is
 * only ever narrowed by the umask, so creating with these modes holds whatever the umask; a file a
 * library creates with its own mode (sharp's output) is narrowed before it is renamed into place.
 * Nothing here widens a mode or touches a file outside the data directory.
 */
import { chmodSync, closeSync, mkdirSync, openSync, renameSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';

export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/** Makes the directory (and missing parents inside the data directory) 0700; an existing one is left as it is. */
export function makePrivateDir(path: string): string | undefined {
  return mkdirSync(path, { recursive: true, mode: PRIVATE_DIR_MODE });
}

/** makePrivateDir off the event loop. */
export async function makePrivateDirAsync(path: string): Promise<string | undefined> {
  return mkdir(path, { recursive: true, mode: PRIVATE_DIR_MODE });
}

/** Creates the file empty and 0600 when it is missing (SQLite then gives its -wal and -shm files the same mode). */
export function createPrivateFile(path: string): void {
  closeSync(openSync(path, 'a', PRIVATE_FILE_MODE));
}

/** Narrows a finished temporary file to 0600 and renames it to `target`. */
export function renamePrivate(temporary: string, target: string): void {
  chmodSync(temporary, PRIVATE_FILE_MODE);
  renameSync(temporary, target);
}
