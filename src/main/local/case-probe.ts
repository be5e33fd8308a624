/**
 * Whether a root's disk folds case (APFS and NTFS by default; DESIGN.md §3: "on case-insensitive disks
 * case-folded"): there `Logo.png` and `logo.png` are one entry, so the engine must never place both in
 * one folder. Probed per root, since a folder can differ from the system disk (a case-sensitive APFS
 * volume, a case-sensitive NTFS folder, an ext4 drive on a Mac): the root's engine directory
 * (`.asset-sync`, there once the root is marked) looked up under its upper-case spelling is the same
 * entry only on a disk that folds case.
 */
import { join } from 'node:path';
import { ENGINE_DIR_NAME } from './default-ignores.js';
import type { FileStat, FileSystem } from './file-system.js';
import { errnoCode } from './local-error.js';

/** true or false when the disk answered; undefined when it could not be asked (ask again later). */
export async function foldsCase(fs: FileSystem, root: string): Promise<boolean | undefined> {
  const lower = await probe(fs, join(root, ENGINE_DIR_NAME));
  if (lower === 'missing' || lower === 'unknown') return undefined;
  const upper = await probe(fs, join(root, ENGINE_DIR_NAME.toUpperCase()));
  if (upper === 'unknown') return undefined;
  return upper !== 'missing' && upper.ino === lower.ino && upper.dev === lower.dev;
}

async function probe(fs: FileSystem, path: string): Promise<FileStat | 'missing' | 'unknown'> {
  try {
    return await fs.lstat(path);
  } catch (error) {
    const code = errnoCode(error);
    if (code === undefined) throw error;
    return code === 'ENOENT' ? 'missing' : 'unknown';
  }
}
