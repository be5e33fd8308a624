/**
 * Removes a folder that holds nothing but folders (any depth of them, all empty of files): the tree
 * holds nothing to lose. Deepest first, each through LocalDisk.removeEmptyDir (rmdir, never
 * recursive), so a file written into the tree meanwhile stops the removal where it is. A file, a
 * symlink or anything else anywhere in the tree leaves all of it in place: the whole tree is read
 * before the first folder goes. True when the folder is gone.
 */
import { join } from 'node:path';
import type { FileSystem } from './file-system.js';
import type { LocalDisk } from './local-disk.js';

export async function removeEmptyTree(fs: Pick<FileSystem, 'readdir'>, disk: Pick<LocalDisk, 'removeEmptyDir'>, path: string): Promise<boolean> {
  const folders = await foldersDeepestFirst(fs, path);
  if (folders === undefined) return false;
  for (const folder of folders) {
    if (!(await disk.removeEmptyDir(folder))) return false;
  }
  return true;
}

/** The folders of the tree, each after the folders inside it; undefined when anything else is in it. */
async function foldersDeepestFirst(fs: Pick<FileSystem, 'readdir'>, path: string): Promise<string[] | undefined> {
  const folders: string[] = [];
  for (const entry of await fs.readdir(path)) {
    if (entry.kind !== 'directory') return undefined;
    const inner = await foldersDeepestFirst(fs, join(path, entry.name));
    if (inner === undefined) return undefined;
    folders.push(...inner);
  }
  folders.push(path);
  return folders;
}
