/**
 * The bridge commands on synced folders and what needs attention in them: add, remove and change a
 * folder, sync now, resolve a conflict, retry not-synced files, confirm or undo held deletions, and
 * open a folder or file. Each needs a session (NOT_SIGNED_IN without one) and publishes the change;
 * work that must not overlap a pass waits for the runner. Never deletes a user's file: removing a
 * folder forgets it and takes away only the engine's marker.
 */
import { mkdir, rm, rmdir } from 'node:fs/promises';
import { dirname, resolve as resolvePath } from 'node:path';
import { markerPath } from '../local/index.js';
import { resolveConflict as resolveConflictOnDisk } from '../sync/resolve-conflict.js';
import type { AppBridge } from '../../shared/bridge/app-bridge.js';
import { isRemapChoice } from '../../shared/sync/remap-choice.js';
import type { AppEdges } from './app-edges.js';
import { AppError } from './app-error.js';
import type { AppSession } from './app-session.js';
import type { ActivityLog } from './activity-log.js';
import { localChangeActivity } from './local-change-activity.js';
import { targetDir } from './copy-in.js';
import { rootOf } from './session-root.js';
import type { PauseState } from './pause-state.js';

export type FolderCommands = Pick<AppBridge, 'addFolder' | 'removeFolder' | 'updateFolder' | 'syncNow' | 'resolveConflict' | 'retry' | 'confirmDeletions' | 'restoreDeletions' | 'openPath'>;

export interface FolderCommandParts {
  edges: AppEdges;
  session: AppSession;
  pauses: PauseState;
  /** Hears of every change a command makes to a synced folder on disk. */
  activity: Pick<ActivityLog, 'add'>;
  changed: () => void;
}

export function folderCommands({ edges, session, pauses, activity, changed }: FolderCommandParts): FolderCommands {
  return {
    async addFolder(request) {
      const current = session.require();
      if (typeof request.path !== 'string' || request.path.trim() === '') throw new AppError('INVALID_REQUEST', 'Choose a folder to sync.');
      const path = resolvePath(request.path);
      const created = await mkdir(path, { recursive: true });
      try {
        await current.engine.addRoot({ path, remotePath: request.remotePath === '' ? '/' : request.remotePath, publishLive: request.publishLive });
      } catch (error) {
        // A refused folder leaves nothing behind: the empty folders made for it go again.
        if (created !== undefined) await removeEmptyUpTo(path, created);
        throw error;
      }
      current.runner.rootsChanged();
      changed();
    },

    async removeFolder(request) {
      const current = session.require();
      const root = rootOf(current, request.folderId);
      // Forget the folder; its files stay. Only the engine's marker goes, so it can be added again.
      await current.runner.exclusive(async () => {
        current.engine.store.forgetRoot(root.id);
        await rm(markerPath(root.path), { force: true });
      });
      pauses.forget(root.id);
      current.runner.rootsChanged();
      changed();
    },

    async updateFolder(request) {
      const current = session.require();
      const root = current.engine.store.root(request.folderId);
      if (root === undefined) throw new AppError('NOT_FOUND', `There is no synced folder ${request.folderId}.`);
      if (request.remap !== undefined && !isRemapChoice(request.remap)) throw new AppError('INVALID_REQUEST', `remap is "move" or "leave", got ${JSON.stringify(request.remap)}.`);
      const input = { path: root.path, remotePath: request.remotePath ?? root.remote_path, publishLive: request.publishLive ?? root.publish_live === 1, ...(request.remap === undefined ? {} : { remap: request.remap }) };
      // A new place is taken between passes: the pass in flight ends first, on the old place.
      if (input.remotePath !== root.remote_path) await current.runner.exclusive(() => current.engine.addRoot(input));
      else await current.engine.addRoot(input);
      current.runner.rootsChanged();
      changed();
    },

    async syncNow() {
      const current = session.require();
      current.api.retryNow();
      current.runner.requestFullPass();
      await current.connectivity.retryNow();
      changed();
    },

    async resolveConflict(request) {
      const current = session.require();
      const store = current.engine.store;
      if (!['mine', 'theirs', 'both'].includes(request.keep)) throw new AppError('INVALID_REQUEST', 'keep is "mine", "theirs" or "both".');
      // Between passes: a pass in flight may still be landing the service's version of this file.
      await current.runner.exclusive(() =>
        resolveConflictOnDisk({ fs: edges.fs, trash: edges.trash, ...store.resolution, changed: (rootId, change) => activity.add(localChangeActivity(rootId, change)) }, request.conflictId, request.keep),
      );
      changed();
    },

    async retry(request) {
      const current = session.require();
      const root = rootOf(current, request.folderId);
      current.engine.store.retryNow(root.id, request.relPath);
      current.runner.requestFullPass();
      await current.connectivity.retryNow();
      changed();
    },

    async confirmDeletions(request) {
      const current = session.require();
      const root = rootOf(current, request.folderId);
      current.engine.store.confirmDeletes(root.id);
      current.runner.requestFullPass();
      changed();
    },

    async restoreDeletions(request) {
      const current = session.require();
      const root = rootOf(current, request.folderId);
      // Forgetting that both sides agreed on these files makes the side that still has them the
      // source: the next pass copies them back instead of deleting them.
      await current.runner.exclusive(async () => {
        current.engine.store.restoreHeldDeletions(root.id);
      });
      changed();
    },

    async openPath(request) {
      const current = session.require();
      const root = rootOf(current, request.folderId);
      const target = request.relPath === undefined || request.relPath === '' ? root.path : await targetDir(root.path, request.relPath);
      const open = edges.deps.openPath;
      if (open === undefined) throw new AppError('OPEN_FAILED', `Opening folders is not available here; the folder is ${target}.`);
      await open(target, { reveal: request.reveal === true });
    },
  };
}

/** Removes `path` and its parents up to `top`, each only while empty (rmdir refuses a folder with anything in it). */
async function removeEmptyUpTo(path: string, top: string): Promise<void> {
  for (let dir = path; dir.startsWith(top); dir = dirname(dir)) {
    const removed = await rmdir(dir).then(() => true, () => false);
    if (!removed || dir === top) return;
  }
}
