/**
 * Resolving a conflict (DESIGN.md §3, §5): `mine` puts our copy back under the file's name, so the next
 * pass uploads it as a new version of the asset; `theirs` sends our copy to the trash; `both` lets the
 * copy sync as a file of its own (a new asset beside the original). After mine or theirs no conflict
 * copy is left in the folder. Works on the state database and the disk only: the sync that follows
 * does the talking to the service, so resolving works offline and while a sync is running.
 * Must never: delete anything but through the trash; lose the service's version (it stays in the
 * asset's version history, and a local edit of it made since goes to the trash, not into the void).
 */
import { dirname } from 'node:path';
import type { Conflict, ConflictsRepo } from '../db/conflicts-repo.js';
import type { RootRow } from '../db/roots-repo.js';
import type { SnapshotsRepo } from '../db/snapshots-repo.js';
import { resolveInsideRoot, sameSignature, type FileSystem, type Trash } from '../local/index.js';
import { locateFile } from './locate-file.js';
import { SyncError } from '../model/sync-error.js';
import type { LocalChange } from '../../shared/sync/transfer-event.js';

export type Keep = 'mine' | 'theirs' | 'both';

export interface ResolveDeps {
  fs: FileSystem;
  trash: Trash;
  conflicts: ConflictsRepo;
  snapshots: SnapshotsRepo;
  root(rootId: string): RootRow | undefined;
  /** A change made to the root's folder on disk, once it is recorded (the app's activity hears of each). */
  changed?(rootId: string, change: LocalChange): void;
}

/** Resolves conflict `id`; answers what was done, for people. */
export async function resolveConflict(deps: ResolveDeps, id: number, keep: Keep): Promise<string> {
  const conflict = deps.conflicts.byId(id);
  if (conflict === undefined) throw new SyncError('CONFLICT_NOT_FOUND', `There is no conflict ${id}; \`asset-sync conflicts\` lists them.`);
  const root = deps.root(conflict.rootId);
  if (root === undefined) throw new SyncError('CONFLICT_NOT_FOUND', `Conflict ${id} belongs to a folder that is no longer synced.`);
  const copy = await locateFile(deps.fs, root.path, conflict.copyPath).catch(() => undefined);
  switch (keep) {
    case 'both':
      deps.conflicts.resolved(id);
      return `${conflict.copyPath} stays and syncs as a file of its own on the next pass.`;
    case 'theirs':
      if (copy !== undefined) await deps.trash(copy.absPath);
      deps.snapshots.deleteLocal(root.id, conflict.copyPath);
      deps.conflicts.resolved(id);
      if (copy !== undefined) deps.changed?.(root.id, { relPath: conflict.copyPath, change: 'trashed' });
      return `${conflict.copyPath} went to the trash; ${conflict.relPath} keeps the service's version.`;
    case 'mine':
      if (copy === undefined) throw new SyncError('CONFLICT_NOT_FOUND', `The conflict copy ${conflict.copyPath} is gone; nothing to keep.`);
      await keepMine(deps, root, conflict, copy.absPath);
      deps.conflicts.resolved(id);
      return `${conflict.relPath} has your version again; the next sync uploads it as a new version.`;
  }
}

async function keepMine(deps: ResolveDeps, root: RootRow, conflict: Conflict, copyPath: string): Promise<void> {
  const { fs, snapshots } = deps;
  const original = await locateFile(fs, root.path, conflict.relPath).catch(() => undefined);
  const synced = snapshots.syncedEntry(root.id, conflict.relPath);
  if (original !== undefined) {
    // The service's version as downloaded can be overwritten (the service keeps it); anything else
    // at that path was written since, and goes to the trash first.
    const untouched = synced !== undefined && sameSignature(original.stat, synced);
    if (!untouched) {
      await deps.trash(original.absPath);
      deps.changed?.(root.id, { relPath: conflict.relPath, change: 'trashed' });
    }
  }
  const target = original?.absPath ?? (await resolveInsideRoot(fs, root.path, conflict.relPath));
  await fs.mkdirp(dirname(target));
  await fs.rename(copyPath, target);
  const stat = await fs.lstat(target);
  // The local snapshot follows the file, so that `status` shows the upload waiting from now on (it
  // said "up to date" until the next sync scanned). The copy's hash still holds for the same file.
  const copied = snapshots.localEntry(root.id, conflict.copyPath);
  const md5 = copied !== undefined && sameSignature(stat, copied) ? copied.md5 : null;
  snapshots.inTransaction(() => {
    snapshots.deleteLocal(root.id, conflict.copyPath);
    snapshots.putLocal(root.id, { relPath: conflict.relPath, size: stat.size, mtimeMs: stat.mtimeMs, ino: stat.ino, dev: stat.dev, md5 });
    // The next pass compares our bytes with what both sides last agreed on: the service's version.
    if (synced === undefined) {
      snapshots.putSynced(root.id, { relPath: conflict.relPath, assetId: conflict.assetId, md5: conflict.remote.md5, size: stat.size, mtimeMs: stat.mtimeMs, ino: stat.ino, dev: stat.dev });
    }
  });
  deps.changed?.(root.id, { relPath: conflict.relPath, change: 'moved', from: conflict.copyPath });
}
