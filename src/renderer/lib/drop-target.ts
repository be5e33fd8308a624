/**
 * Where a drop goes: the folder whose row is under the pointer (a row takes drops for its own folder),
 * else the first synced folder. The window's drop overlay names this folder while the drag is over it,
 * and the drop itself goes to the same one, so what the overlay says is where the files land.
 */
import type { FolderView } from '../../shared/bridge/app-state.js';

export function dropFolder(target: EventTarget | null, folders: readonly FolderView[]): FolderView | undefined {
  const row = target instanceof Element ? target.closest<HTMLElement>('li[data-folder-id]') : null;
  const id = row?.dataset.folderId;
  return (id === undefined ? undefined : folders.find((folder) => folder.id === id)) ?? folders[0];
}
