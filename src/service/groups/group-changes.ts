/**
 * A group's new state from a create or patch body, checked against the account: members must be users
 * of the account, folders must be options of its Folders field, names are unique per account. Shared
 * by the HTTP routes and `asset-sync group`, so both refuse the same things with the same codes.
 */
import { z } from 'zod';
import { oneLineName } from '../http/one-line-name.js';
import type { AccountsRepo } from '../accounts/accounts-repo.js';
import { ServiceError } from '../errors/service-error.js';
import type { FieldOptionsRepo } from '../fields/field-options-repo.js';
import type { FieldsRepo } from '../fields/fields-repo.js';
import type { GroupChanges, GroupRecord, GroupsRepo } from './groups-repo.js';

const ids = z.array(z.string().min(1).max(200)).max(10_000);

export const groupInputSchema = z.object({
  name: oneLineName.optional(),
  description: z.string().max(10_000).optional(),
  memberIds: ids.optional(),
  /** true: no folder limit. Defaults to true on create unless folderIds are given. */
  allFolders: z.boolean().optional(),
  folderIds: ids.optional(),
});
export type GroupInput = z.infer<typeof groupInputSchema>;
/** A new group must be named; a PATCH may leave the name out. */
export const newGroupSchema = groupInputSchema.extend({ name: oneLineName });

export interface GroupChangeDeps {
  accounts: AccountsRepo;
  fields: FieldsRepo;
  fieldOptions: FieldOptionsRepo;
  groups: GroupsRepo;
}

/** The group as it will be (`current` undefined: a new group). Throws 400 / 409 with the offending property. */
export function groupChanges(deps: GroupChangeDeps, accountId: string, current: GroupRecord | undefined, input: GroupInput): GroupChanges {
  const name = input.name ?? current?.name;
  if (name === undefined) throw new ServiceError('INVALID_BODY', 'Invalid request: name: is required.');
  if (deps.groups.nameTaken(accountId, name, current?.id)) throw new ServiceError('GROUP_NAME_TAKEN', `A group named ${JSON.stringify(name)} already exists.`);
  // Giving folders without saying otherwise means "limit to these".
  const allFolders = input.allFolders ?? (input.folderIds === undefined ? (current?.allFolders ?? true) : false);
  const folderIds = allFolders ? [] : (input.folderIds ?? current?.folderIds ?? []);
  if (allFolders && input.folderIds !== undefined && input.folderIds.length > 0) {
    throw new ServiceError('INVALID_BODY', 'Invalid request: folderIds: a group with allFolders true has no folder list.');
  }
  const foldersField = deps.fields.byRole(accountId, 'FOLDERS');
  folderIds.forEach((folderId, index) => {
    if (foldersField === undefined || deps.fieldOptions.get(accountId, folderId)?.field_id !== foldersField.id) {
      throw new ServiceError('INVALID_BODY', `Invalid request: folderIds[${index}]: ${JSON.stringify(folderId)} is not a folder of this account.`);
    }
  });
  const memberIds = input.memberIds ?? current?.memberIds ?? [];
  memberIds.forEach((userId, index) => {
    if (deps.accounts.membership(accountId, userId) === undefined) {
      throw new ServiceError('INVALID_BODY', `Invalid request: memberIds[${index}]: ${JSON.stringify(userId)} is not a user of this account.`);
    }
  });
  return { name, description: input.description ?? current?.description ?? null, allFolders, folderIds, memberIds };
}
