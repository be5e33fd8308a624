/**
 * Writes the stored folder tree of one root (the remote snapshot's folders): a walked tree replaces
 * it, with the folder cache's stale directories forgotten in the same transaction; an own folder
 * rename moves its rows; folders the folder mapper made for uploads join it without a walk.
 *
 * Sits under remote-feed.ts, above the db edge and the folder mapper. Must never keep a cached
 * directory mapped to an option the stored tree no longer holds there, nor ask the service anything.
 */
import type { RemoteFolderRow, RemoteRepo } from '../db/remote-repo.js';
import { relDirOf, type FolderMapper, type FolderRoot } from './folder-mapper.js';
import type { FolderChange } from './remote-tree.js';

export interface StoredFolderTreeDeps {
  folders: FolderMapper;
  repo: RemoteRepo;
}

/**
 * Stores a walked tree and, in the same transaction, forgets the folder cache's directory for every
 * option the tree no longer holds where the cache has it (removed, or moved elsewhere), and every
 * directory of the tree the cache maps to an option the tree does not hold there. The stored tree is
 * what the next walk is compared with, so a change stored here is never found again: when the cache
 * learns of it only as the change is applied on disk, a crash or a failure before that
 * (applyFolderChanges goes on past errors) leaves the directory mapped to a deleted option for good,
 * and every upload into it asks the service to create a folder under an option that no longer
 * exists, on every pass.
 */
export function storeTree(deps: StoredFolderTreeDeps, root: FolderRoot, tree: readonly RemoteFolderRow[], changes: readonly FolderChange[]): void {
  const { folders, repo } = deps;
  repo.inTransaction(() => {
    repo.replaceFolders(root.id, tree);
    for (const change of changes) {
      if (change.kind === 'CREATED') continue;
      const cached = folders.dirOf(root, change.optionId);
      if (cached !== undefined && !(change.kind === 'MOVED' && cached === change.to)) folders.forget(root, cached);
    }
    // The tree names the options a directory is now; a cache that names it another is behind, though
    // no change above says so: a client caches `A/C` for an upload before any walk of its holds it,
    // another renames `A/C` to `D` file by file and deletes the emptied option, and a new `A/C` is
    // made, all before this client's next walk, which reads only a new folder. Kept, every move out of
    // `A/C` would ask the service to take the asset out of the deleted option as well, refused
    // (INVALID_FIELD_VALUE) on every pass: no convergence.
    const held = new Map<string, Set<string>>();
    for (const row of tree) held.set(row.relDir, (held.get(row.relDir) ?? new Set<string>()).add(row.optionId));
    for (const [relDir, options] of held) {
      const cached = folders.knownOption(root, relDir);
      if (typeof cached === 'string' && !options.has(cached)) folders.forget(root, relDir);
    }
  });
}

/**
 * Our own folder rename, one option PATCH: the stored tree follows it as a walk would find it.
 * Returns false when the new parent is not in the stored tree yet (made by the rename): only a walk
 * finds it.
 */
export function renameStoredFolder(deps: StoredFolderTreeDeps, root: FolderRoot, from: string, to: string): boolean {
  const { repo } = deps;
  const rows = repo.folders(root.id);
  const parentDir = relDirOf(to);
  const parent = parentDir === '' ? null : rows.find((row) => row.relDir === parentDir)?.optionId;
  const value = to.slice(parentDir === '' ? 0 : parentDir.length + 1);
  repo.replaceFolders(
    root.id,
    rows.map((row) => {
      if (row.relDir === from) return { ...row, value, relDir: to, ...(parent === undefined ? {} : { parentId: parent }) };
      return row.relDir.startsWith(`${from}/`) ? { ...row, relDir: `${to}${row.relDir.slice(from.length)}` } : row;
    }),
  );
  return parent !== undefined;
}

/**
 * Adds to the stored tree the folders among `optionIds` that the folder mapper made for directories
 * of this root (with their parents), unless the tree has another folder at that place: then only a
 * walk can tell how the service's names map to disk.
 */
export function addMappedFolders(deps: StoredFolderTreeDeps, root: FolderRoot, optionIds: readonly string[], rootOption: string | null): void {
  const { folders, repo } = deps;
  const tree = repo.folders(root.id);
  const known = new Set(tree.map((row) => row.optionId));
  const taken = new Set(tree.map((row) => row.relDir));
  const added: RemoteFolderRow[] = [];
  const place = (optionId: string): boolean => {
    if (optionId === rootOption || known.has(optionId)) return true;
    const relDir = folders.dirOf(root, optionId);
    if (relDir === undefined || relDir === '' || taken.has(relDir)) return false;
    const parentDir = relDirOf(relDir);
    const parentId = parentDir === '' ? null : folders.knownOption(root, parentDir);
    if (parentId === undefined || (parentId !== null && !place(parentId))) return false;
    added.push({ optionId, parentId, value: relDir.slice(relDir.lastIndexOf('/') + 1), relDir });
    known.add(optionId);
    taken.add(relDir);
    return true;
  };
  for (const optionId of new Set(optionIds)) place(optionId);
  if (added.length > 0) repo.addFolders(root.id, added);
}
