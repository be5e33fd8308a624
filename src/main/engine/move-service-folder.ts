/**
 * The `move` half of a remap: the folder of a root's old place in the service becomes its new place,
 * by moving the one Folders option (a rename and a new parent), so every asset and subfolder in it
 * follows with its id unchanged and the root's sync state stays true. Only ever changes options in the
 * service; never the disk. Refuses (REMAP_CANNOT_MOVE, REMAP_TARGET_IN_USE) before it changes anything
 * when the move cannot be one option's: the top level, a place inside the old one, a new place that
 * already holds something.
 */
import type { AssetApi } from '../api/index.js';
import { isApiError, unlessNotFound } from '../api/index.js';
import type { FolderMapper, FolderRoot } from '../remote/folder-mapper.js';
import { remoteSegments } from '../remote/folder-mapper.js';
import { SyncError } from '../model/sync-error.js';

/** `moved`, or `nothing-there` when the old place does not exist in the service (nothing to move). */
export type FolderMove = 'moved' | 'nothing-there';

export async function moveServiceFolder(api: AssetApi, folders: FolderMapper, from: FolderRoot, to: string): Promise<FolderMove> {
  const leave = `choose to leave what is in ${from.remotePath} there instead`;
  if (from.remotePath === '/') throw new SyncError('REMAP_CANNOT_MOVE', `Everything in the service cannot move into ${to}: ${leave}.`);
  if (to === '/') throw new SyncError('REMAP_CANNOT_MOVE', `${from.remotePath} cannot become the top level of the service: ${leave}.`);
  if (to.startsWith(`${from.remotePath}/`)) throw new SyncError('REMAP_CANNOT_MOVE', `${from.remotePath} cannot move into a folder inside itself (${to}): ${leave}.`);
  const cached = folders.knownOption(from, '');
  const known = typeof cached === 'string' && (await unlessNotFound(api.getFieldOption(cached))) !== undefined ? cached : undefined;
  const option = known ?? (await folders.optionAtPath(from.remotePath, false));
  if (option === undefined || option === null) return 'nothing-there';
  const segments = remoteSegments(to);
  const leaf = segments.at(-1) ?? '';
  const parent = await folders.optionAtPath(`/${segments.slice(0, -1).join('/')}`, true);
  const fieldId = await folders.fieldId();
  const there = (await api.listFieldOptionChildren(fieldId, parent ?? null)).find((candidate) => candidate.value.normalize('NFC') === leaf);
  if (there?.id === option) return 'moved';
  if (there !== undefined) {
    // Only an empty folder gives way: the service refuses to delete one that holds an asset or a folder.
    try {
      await api.deleteFieldOption(there.id);
    } catch (error) {
      if (!isApiError(error, 'FIELD_OPTION_IN_USE')) throw error;
      throw new SyncError('REMAP_TARGET_IN_USE', `${to} already holds files in the service, so what is in ${from.remotePath} cannot move there: ${leave} (${to} then gets this folder's files and keeps its own), or choose another place.`, { cause: error });
    }
  }
  await api.changeFieldOption(option, { value: leaf, parentId: parent ?? null });
  return 'moved';
}
