/**
 * The blob store's layout on disk, settled once when the store is created (before the service listens):
 * blobs/ab/<sha256>, one level of fan-out, 256 directories, as git does. Stores written by earlier
 * versions used two levels, blobs/ab/cd/<sha256>: up to 65,536 leaf directories, in a young store nearly
 * one per new small file (an inode, a mkdir and a parent fsync each). Those blobs move up one level here.
 *
 * The marker file `layout` in the root says the store is in the one-level layout. It is written (and the
 * root synced) only once every blob has moved, and a fresh store gets it at creation, so a large store is
 * scanned once, never on every start. Without it the whole store is scanned. The moves can be repeated,
 * so a crash half-way (blobs in both places, old directories not yet removed) is finished by the next
 * start: a blob already at its new name — the same bytes, by construction — drops its old copy. Each
 * ab directory is synced after its renames and before its emptied ab/cd directories are removed (a
 * removal must never reach the disk before the new name does), and again before the marker is written.
 *
 * Must never: delete anything but a blob's old copy and an emptied old directory. Entries it does not
 * recognise stay where they are; something that is not a directory where a directory of blobs must be
 * stops the start with an error a person can act on.
 */
import { closeSync, fsyncSync, lstatSync, openSync, readFileSync, readdirSync, renameSync, rmdirSync, statSync, unlinkSync, writeSync, type Dirent } from 'node:fs';
import { join } from 'node:path';
import { PRIVATE_FILE_MODE } from '../data-dir/private-files.js';

const MARKER = 'layout';
const ONE_LEVEL = 'one-level';
const PREFIX = /^[0-9a-f]{2}$/;
const SHA256 = /^[0-9a-f]{64}$/;

export type BlobLayoutErrorCode = 'BLOB_DIRECTORY_BLOCKED' | 'BLOB_NAME_BLOCKED' | 'BLOB_LAYOUT_UNKNOWN';

/** The data directory's blob store cannot be used as it is; the message says what to do. */
export class BlobLayoutError extends Error {
  override readonly name = 'BlobLayoutError';
  constructor(
    readonly code: BlobLayoutErrorCode,
    message: string,
    readonly path: string,
  ) {
    super(message);
  }
}

/** Where the blob with this hash lives in a store rooted at `root`. */
export function blobPath(root: string, sha256: string): string {
  if (!SHA256.test(sha256)) throw new Error(`not a sha256: ${sha256}`);
  return join(root, sha256.slice(0, 2), sha256);
}

/**
 * Brings the store at `root` (an existing directory) to the one-level layout, moving blobs out of the
 * two-level one where an earlier version left them. Blocking; `syncNow` fsyncs a directory.
 */
export function settleBlobLayout(root: string, syncNow: (dir: string) => void): void {
  const marker = join(root, MARKER);
  const recorded = readMarker(marker);
  if (recorded === ONE_LEVEL) return;
  if (recorded !== undefined) {
    throw new BlobLayoutError(
      'BLOB_LAYOUT_UNKNOWN',
      `The blob store ${root} is marked with layout "${recorded.slice(0, 40)}" in ${marker}, which this version of the service does not know. ` +
        'Was the data directory used by a newer version? Start that version again, or restore the data directory from a backup.',
      marker,
    );
  }
  // Every ab entry is checked before anything moves, so a blocked store is left exactly as it was found.
  const prefixes = readdirSync(root, { withFileTypes: true }).filter((entry) => PREFIX.test(entry.name));
  for (const entry of prefixes) {
    const dir = join(root, entry.name);
    if (!isDirectory(dir, entry)) {
      throw new BlobLayoutError(
        'BLOB_DIRECTORY_BLOCKED',
        `${dir} is not a directory, but the blob store keeps the blobs whose hashes start with "${entry.name}" there. ` +
          `The service did not make it and does not delete it: move it out of ${root}, then start the service again.`,
        dir,
      );
    }
  }
  for (const entry of prefixes) liftBlobs(join(root, entry.name), entry.name, syncNow);
  writeMarker(root, marker, syncNow);
}

/** Moves the blobs of the two-level directories dir/cd up into `dir` (root/ab), then removes the emptied ones. */
function liftBlobs(dir: string, prefix: string, syncNow: (dir: string) => void): void {
  const emptied: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const old = join(dir, entry.name);
    // Blobs of the new layout sit here too; they and anything unknown are not ours to touch.
    if (!PREFIX.test(entry.name) || !isDirectory(old, entry)) continue;
    let left = 0;
    for (const blob of readdirSync(old, { withFileTypes: true })) {
      if (!blob.isFile() || !SHA256.test(blob.name) || !blob.name.startsWith(prefix + entry.name)) {
        left += 1;
        continue;
      }
      const from = join(old, blob.name);
      const to = join(dir, blob.name);
      const existing = lstatSync(to, { throwIfNoEntry: false });
      if (existing === undefined) {
        renameSync(from, to);
      } else if (existing.isFile()) {
        unlinkSync(from);
      } else {
        throw new BlobLayoutError(
          'BLOB_NAME_BLOCKED',
          `${to} is not a file, but it is where the blob ${from} moves to. ` +
            `The service did not make it and does not delete it: move it out of ${dir}, then start the service again.`,
          to,
        );
      }
    }
    // A symbolic link to a directory had its blobs moved; the link itself stays.
    if (left === 0 && entry.isDirectory()) emptied.push(old);
  }
  if (emptied.length > 0) {
    syncNow(dir);
    for (const old of emptied) rmdirSync(old);
  }
  // Also covers moves an earlier, interrupted start made and may not have synced.
  syncNow(dir);
}

function isDirectory(path: string, entry: Dirent): boolean {
  if (entry.isDirectory()) return true;
  return entry.isSymbolicLink() && statSync(path, { throwIfNoEntry: false })?.isDirectory() === true;
}

function readMarker(marker: string): string | undefined {
  try {
    return readFileSync(marker, 'utf8').trim();
  } catch (error) {
    if (error instanceof Error && 'code' in error && error.code === 'ENOENT') return undefined;
    throw error;
  }
}

/** Writes the marker whole or not at all: a temporary file, synced, renamed into place, the root synced. */
function writeMarker(root: string, marker: string, syncNow: (dir: string) => void): void {
  const temporary = `${marker}.tmp`;
  const fd = openSync(temporary, 'w', PRIVATE_FILE_MODE);
  try {
    writeSync(fd, `${ONE_LEVEL}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temporary, marker);
  syncNow(root);
}
