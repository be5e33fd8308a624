/**
 * The folder policy: the one place that answers, for a caller, what folder limits let them see and
 * change. Every route that reads or changes folders (options of the Folders field, their batches and
 * searches), collections' contents, shares, portals and guest links asks it; asset reads apply the
 * same scope through `assetsRepo.get`/`file` and the search compiler (folder-scope.ts), which take the
 * caller. Rules (docs/security.md, "Folder limits"):
 *
 * - Admins, users in no group and users in any group without a folder limit are unlimited: every
 *   answer here is yes. Options of other fields than Folders are never limited.
 * - A limited caller reaches the folders their groups name and every folder below them (their scope);
 *   they see those and the folders above them (so a path can be named), never the other folders.
 *   Counts shown to them (a folder's children, a collection's assets) leave out what they cannot see.
 * - They create folders only inside their scope, never at the top level. They rename, move and
 *   delete only folders whose parent is inside their scope (so the folders their groups name stay
 *   where an admin put them), and a move's new parent must be inside it too: nothing enters or leaves
 *   a scope through a limited caller.
 * - They aim guest links, portals and shares only at folders and assets inside their scope; a share
 *   shows visitors only what its creator reaches. Groups list only the folders they see.
 * - An asset in no folder is outside every limit. An asset also filed in a folder out of their reach
 *   stays filed there whatever they write; a folder they cannot see is unknown to them by name too.
 *
 * Something the caller cannot see answers 404 exactly like an id of another account; something they
 * see but may not change answers 403 FOLDER_OUT_OF_SCOPE with what to do instead.
 */
import type { FieldOption } from '../../shared/api/resources.js';
import type { Role } from '../accounts/accounts-repo.js';
import type { SessionMembers } from '../auth/session-members.js';
import type { Db } from '../db/open-database.js';
import { ServiceError, notFound } from '../errors/service-error.js';
import type { FieldOptionsRepo, OptionRow } from '../fields/field-options-repo.js';
import { folderScopes, type FolderScope, type ScopedAccount } from './folder-scope.js';

/** A change of an asset's Folders values (metadata edits, uploads into a folder). */
export interface FolderWrite {
  fieldId: string;
  operation: 'REPLACE' | 'ADD' | 'REMOVE';
  values: readonly string[];
}

/** An SQL condition over `field_options o` with its positional parameters. */
export interface OptionFilter {
  sql: string;
  params: string[];
}

export interface FolderPolicy {
  /** The scope of a user's membership in an account (null: unlimited). */
  scopeOf(accountId: string, userId: string, role: Role): FolderScope;
  /** The scope a public share opens to visitors: its creator's (a creator who left: none, as before). */
  creatorScope(accountId: string, userId: string): FolderScope;
  /** Whether the caller sees the option (404 otherwise). */
  maySeeOption(who: ScopedAccount, row: OptionRow): boolean;
  /** The option, or 404 when the caller may not see it. */
  requireVisibleOption(who: ScopedAccount, row: OptionRow | undefined, id: string): OptionRow;
  /** A condition keeping an option search to what the caller sees ('1' when unlimited). */
  optionFilter(who: ScopedAccount): OptionFilter;
  /** The option's wire form as the caller sees it: child counts leave out folders they cannot see. */
  renderOption(who: ScopedAccount, row: OptionRow): FieldOption;
  /** A new option under `parentId` (null: the top level). */
  requireCreate(who: ScopedAccount, fieldId: string, parentId: string | null): void;
  /** A rename, reorder or move of `row` to `nextParentId`. */
  requireChange(who: ScopedAccount, row: OptionRow, nextParentId: string | null): void;
  requireDelete(who: ScopedAccount, row: OptionRow): void;
  /** The folders of a list (a group's) the caller may see, in their order. */
  visibleFolderIds(who: ScopedAccount, folderIds: readonly string[]): string[];
  /** A guest link or portal aimed at a folder: 404 when the caller cannot see it, 403 outside their scope. */
  requireFolderTarget(who: ScopedAccount, folderId: string, what: string): void;
  /** Writes of Folders values on assets: only among folders inside the scope, never removing any. */
  requireFolderValues(who: ScopedAccount, writes: readonly FolderWrite[]): void;
  /** An asset's values of a field once the caller writes `next` over `current`: folders out of their reach stay. */
  valuesAfter(who: ScopedAccount, fieldId: string, current: readonly string[], next: readonly string[]): string[];
  /** The ids (in their order) of assets the caller reaches; ids of other accounts or gone assets are kept out only when limited. */
  visibleAssetIds(who: ScopedAccount, assetIds: readonly string[]): string[];
}

export function folderPolicy(db: Db, options: FieldOptionsRepo, sessions: SessionMembers): FolderPolicy {
  const scopes = folderScopes(db);
  // The scope's folders and every folder above one of them.
  const aboveAll = db.prepare<[string], string>(
    `WITH RECURSIVE up(id, parent) AS (SELECT o.id, o.parent_id FROM field_options o WHERE o.id IN (SELECT value FROM json_each(?))
       UNION SELECT o.id, o.parent_id FROM field_options o JOIN up u ON o.id = u.parent)
     SELECT id FROM up`,
  ).pluck();
  const childIds = db.prepare<[string], string>('SELECT id FROM field_options WHERE parent_id = ?').pluck();
  const inScope = db.prepare<[{ ids: string; field: string; scope: string }], string>(
    `SELECT j.value FROM json_each(@ids) j
      WHERE EXISTS (SELECT 1 FROM asset_values sv WHERE sv.asset_id = j.value AND sv.field_id = @field AND sv.value IN (SELECT value FROM json_each(@scope)))
      ORDER BY j.key`,
  ).pluck();
  // Computed once per scope (a scope lives for one request or job run).
  const seen = new WeakMap<object, ReadonlySet<string>>();
  const visible = (scope: NonNullable<FolderScope>): ReadonlySet<string> => {
    let ids = seen.get(scope);
    if (ids === undefined) {
      ids = new Set(aboveAll.all(JSON.stringify(scope.folderIds)));
      seen.set(scope, ids);
    }
    return ids;
  };
  /** The limit that applies to an option: none for unlimited callers and for other fields than Folders. */
  const limitOn = (who: ScopedAccount, fieldId: string): NonNullable<FolderScope> | undefined =>
    who.folders !== null && who.folders.foldersFieldId === fieldId ? who.folders : undefined;
  // Folders made during this request (a batch's new parent) are not in the precomputed sets: asked live.
  const contains = (scope: NonNullable<FolderScope>, folderId: string | null): boolean => folderId !== null && scopes.contains(scope, folderId);
  const sees = (scope: NonNullable<FolderScope>, folderId: string): boolean => visible(scope).has(folderId) || contains(scope, folderId);
  const nameOf = (row: OptionRow): string => JSON.stringify(row.value);
  const outOfScope = (message: string): ServiceError => new ServiceError('FOLDER_OUT_OF_SCOPE', message);

  const maySeeOption = (who: ScopedAccount, row: OptionRow): boolean => {
    const scope = limitOn(who, row.field_id);
    return scope === undefined || sees(scope, row.id);
  };
  /** The parent of a change must be inside the scope; says what to do when it is not. */
  const requireParentInside = (who: ScopedAccount, scope: NonNullable<FolderScope>, parentId: string | null, action: string): void => {
    if (contains(scope, parentId)) return;
    if (parentId === null) throw outOfScope(`Your groups limit you to some folders: you cannot ${action} at the top level; choose a folder inside yours.`);
    const parent = options.get(who.accountId, parentId);
    if (parent === undefined || !sees(scope, parent.id)) throw notFound('field option', parentId);
    throw outOfScope(`Your groups limit you to some folders: you cannot ${action} in ${nameOf(parent)}; choose a folder inside yours, or ask an admin.`);
  };

  return {
    scopeOf: (accountId, userId, role) => scopes.of(accountId, userId, role),
    creatorScope(accountId, userId) {
      const member = sessions.byAccount(accountId, userId);
      return member === undefined ? null : scopes.of(accountId, userId, member.role);
    },
    maySeeOption,
    requireVisibleOption(who, row, id) {
      if (row === undefined || !maySeeOption(who, row)) throw notFound('field option', id);
      return row;
    },
    optionFilter(who) {
      if (who.folders === null) return { sql: '1', params: [] };
      return { sql: '(o.field_id != ? OR o.id IN (SELECT value FROM json_each(?)))', params: [who.folders.foldersFieldId, JSON.stringify([...visible(who.folders)])] };
    },
    renderOption(who, row) {
      const rendered = options.render(row);
      const scope = limitOn(who, row.field_id);
      if (scope === undefined) return rendered;
      // Folders above the scope have children the caller does not see: counted out.
      for (let node: FieldOption | null = rendered; node !== null; node = node.parent) {
        const shown = childIds.all(node.id).filter((id) => sees(scope, id)).length;
        node.numberOfChildren = shown;
        node.leaf = shown === 0;
      }
      return rendered;
    },
    requireCreate(who, fieldId, parentId) {
      const scope = limitOn(who, fieldId);
      if (scope !== undefined) requireParentInside(who, scope, parentId, 'create folders');
    },
    requireChange(who, row, nextParentId) {
      const scope = limitOn(who, row.field_id);
      if (scope === undefined) return;
      if (!sees(scope, row.id)) throw notFound('field option', row.id);
      if (!contains(scope, row.parent_id)) {
        throw outOfScope(`Your groups give you ${nameOf(row)} itself: you can change what is inside it, but only an admin can rename or move it.`);
      }
      if (nextParentId !== row.parent_id) requireParentInside(who, scope, nextParentId, 'move folders');
    },
    requireDelete(who, row) {
      const scope = limitOn(who, row.field_id);
      if (scope === undefined) return;
      if (!sees(scope, row.id)) throw notFound('field option', row.id);
      if (!contains(scope, row.parent_id)) throw outOfScope(`Your groups give you ${nameOf(row)} itself: only an admin can delete it.`);
    },
    visibleFolderIds(who, folderIds) {
      const scope = who.folders;
      return scope === null ? [...folderIds] : folderIds.filter((id) => sees(scope, id));
    },
    requireFolderTarget(who, folderId, what) {
      const scope = who.folders;
      if (scope === null) return;
      const row = options.get(who.accountId, folderId);
      if (row === undefined || row.field_id !== scope.foldersFieldId || !sees(scope, folderId)) throw new ServiceError('NOT_FOUND', `No folder with id ${JSON.stringify(folderId)}.`);
      if (!contains(scope, folderId)) {
        throw outOfScope(`Your groups limit you to some folders: a ${what} can only go to one of them or a folder inside, not to ${nameOf(row)}.`);
      }
    },
    requireFolderValues(who, writes) {
      const scope = who.folders;
      if (scope === null) return;
      for (const write of writes) {
        if (write.fieldId !== scope.foldersFieldId) continue;
        if (write.operation === 'REMOVE' || write.values.length === 0) {
          throw outOfScope('Your groups limit you to some folders: you can move assets between them but not take an asset out of its folders.');
        }
        const outside = write.values.find((folderId) => !scopes.contains(scope, folderId));
        if (outside === undefined) continue;
        // Named only when the caller may see it: a hidden folder's id is not confirmed.
        const shown = sees(scope, outside) ? options.get(who.accountId, outside) : undefined;
        throw outOfScope(`${shown === undefined ? 'A folder you chose' : `The folder ${nameOf(shown)}`} is outside the folders your groups give you; choose one of yours.`);
      }
    },
    valuesAfter(who, fieldId, current, next) {
      const scope = limitOn(who, fieldId);
      if (scope === undefined) return [...next];
      return [...new Set([...next, ...current.filter((folderId) => !scopes.contains(scope, folderId))])];
    },
    visibleAssetIds(who, assetIds) {
      if (who.folders === null) return [...assetIds];
      return inScope.all({ ids: JSON.stringify(assetIds), field: who.folders.foldersFieldId, scope: JSON.stringify(who.folders.folderIds) });
    },
  };
}
