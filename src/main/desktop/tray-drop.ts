/**
 * Files dropped on the macOS tray icon are copied into the default folder (`~/Asset Sync`, or the one
 * given with `--folder`): the folder the user set up first, by path, not whichever folder happens to
 * be listed first. When that folder is not synced (the user removed it), the first synced folder takes
 * them; with no folder at all, nothing is copied and the user is told why.
 */
import { resolve } from 'node:path';
import type { FolderView } from '../../shared/bridge/app-state.js';

export type TrayDrop = { kind: 'copy'; folderId: string; paths: string[] } | { kind: 'nothing' } | { kind: 'no-folder'; message: string };

export function trayDrop(folders: readonly Pick<FolderView, 'id' | 'path'>[], defaultFolder: string, files: readonly string[]): TrayDrop {
  if (files.length === 0) return { kind: 'nothing' };
  const wanted = resolve(defaultFolder);
  const target = folders.find((folder) => resolve(folder.path) === wanted) ?? folders[0];
  if (target === undefined) return { kind: 'no-folder', message: 'No folder is synced yet: open Asset Sync and set one up, then drop the files again.' };
  return { kind: 'copy', folderId: target.id, paths: [...files] };
}
