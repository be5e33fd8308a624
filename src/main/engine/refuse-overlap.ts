/**
 * Asks the overlap rule (folder-overlap.ts) about a folder against the other synced folders, with
 * their real paths and case-folding read from the disk, and refuses an overlap with FOLDERS_OVERLAP.
 * Engine.addRoot and `folders relink --to` go through it; nothing is written before it answers.
 */
import { sep } from 'node:path';
import type { RootRow } from '../db/roots-repo.js';
import { foldsCase, type FileSystem } from '../local/index.js';
import { SyncError } from '../model/sync-error.js';
import { findOverlap, overlapMessage, type FolderPlace, type OverlapCheck } from './folder-overlap.js';

export async function refuseOverlap(fs: FileSystem, candidate: { path: string; remotePath: string }, others: readonly RootRow[], check: OverlapCheck): Promise<void> {
  if (others.length === 0) return;
  // A folder that is missing or unreadable is compared as it was added.
  const realPathOf = (path: string): Promise<string> => fs.realpath(path).catch(() => path);
  const place = { ...candidate, realPath: await realPathOf(candidate.path) };
  const placed = await Promise.all(
    others.map(
      async (row): Promise<FolderPlace> => ({
        path: row.path,
        realPath: await realPathOf(row.path),
        remotePath: row.remote_path,
        foldsCase: (await foldsCase(fs, row.path).catch(() => undefined)) === true,
      }),
    ),
  );
  const overlap = findOverlap(place, placed, { separator: sep, check });
  if (overlap !== undefined) throw new SyncError('FOLDERS_OVERLAP', overlapMessage(place, overlap));
}
