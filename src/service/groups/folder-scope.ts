/**
 * Which assets a caller may reach, from the folder limits of their groups (SERVICE-SPEC §1: the Folders
 * field "defines asset permissions for a user group"). Computed once per caller (request or job run) and
 * carried on the `Caller`; every path that reads assets applies it in one place: the search compiler
 * (searches, scrolls, batch selectors, saved searches) and `assetsRepo.get`/`file` (every single-asset
 * call, downloads, uploads, batch items). What the scope lets a caller see and change of folders,
 * collections, shares, portals and guest links is the folder policy's (folder-policy.ts), which every
 * route asks. Rules: admins are never limited; a user in no group, or in any group without a folder
 * limit, is not limited; otherwise the user reaches the assets filed in one of their groups' folders or a
 * subfolder of one. An asset in no folder is outside every limit.
 */
import type { Role } from '../accounts/accounts-repo.js';
import type { Db } from '../db/open-database.js';

/** null: not limited; otherwise the reachable folder option ids (subfolders included) of the Folders field. */
export type FolderScope = { readonly foldersFieldId: string; readonly folderIds: readonly string[] } | null;

export interface ScopedAccount {
  readonly accountId: string;
  readonly folders: FolderScope;
}

export interface FolderScopes {
  /** The scope of a user's membership in an account. */
  of(accountId: string, userId: string, role: Role): FolderScope;
  /** Whether a folder (possibly created after the scope was computed) lies within the scope. */
  contains(scope: FolderScope, folderId: string): boolean;
}

export function folderScopes(db: Db): FolderScopes {
  const limits = db.prepare<[string, string], { all_folders: number; folder_option_id: string | null }>(
    `SELECT g.all_folders, f.folder_option_id FROM group_members m JOIN groups g ON g.id = m.group_id
       LEFT JOIN group_folders f ON f.group_id = g.id WHERE m.user_id = ? AND g.account_id = ?`,
  );
  const foldersField = db.prepare<[string], string>("SELECT id FROM fields WHERE account_id = ? AND role = 'FOLDERS'").pluck();
  // The chosen folders and every option below them.
  const below = db.prepare<[string], string>(
    `WITH RECURSIVE tree(id) AS (SELECT value FROM json_each(?) UNION SELECT o.id FROM field_options o JOIN tree t ON o.parent_id = t.id)
     SELECT id FROM tree`,
  ).pluck();
  const above = db.prepare<[string], string>(
    `WITH RECURSIVE up(id, parent) AS (SELECT id, parent_id FROM field_options WHERE id = ?
       UNION SELECT o.id, o.parent_id FROM field_options o JOIN up u ON o.id = u.parent)
     SELECT id FROM up`,
  ).pluck();
  return {
    of(accountId, userId, role) {
      if (role === 'admin') return null;
      const rows = limits.all(userId, accountId);
      if (rows.length === 0 || rows.some((row) => row.all_folders === 1)) return null;
      const foldersFieldId = foldersField.get(accountId);
      const chosen = rows.flatMap((row) => (row.folder_option_id === null ? [] : [row.folder_option_id]));
      // Without a Folders field no asset is in a folder: the limit leaves nothing reachable.
      if (foldersFieldId === undefined) return { foldersFieldId: '', folderIds: [] };
      return { foldersFieldId, folderIds: below.all(JSON.stringify(chosen)) };
    },
    contains(scope, folderId) {
      if (scope === null) return true;
      const reachable = new Set(scope.folderIds);
      return above.all(folderId).some((id) => reachable.has(id));
    },
  };
}

/**
 * A boolean SQL expression over `assets a` that holds for the assets the scope reaches, with the two
 * parameter names it binds (the caller supplies their values from `scopeParams`).
 */
export function scopePredicate(alias: string, fieldParam: string, idsParam: string): string {
  return `EXISTS (SELECT 1 FROM asset_values sv WHERE sv.asset_id = ${alias}.id AND sv.field_id = ${fieldParam} AND sv.value IN (SELECT value FROM json_each(${idsParam})))`;
}
