/** Groups of an account with their members and folder limits (migration 0011), read and written as rows. */
import type { Db } from '../db/open-database.js';
import { timeOrderedUuid } from '../db/time-ordered-id.js';

export interface GroupRecord {
  id: string;
  accountId: string;
  name: string;
  description: string | null;
  /** No folder limit: members reach every asset their role allows. */
  allFolders: boolean;
  folderIds: string[];
  memberIds: string[];
  dateCreated: string;
  dateLastModified: string;
}

export interface GroupChanges {
  name: string;
  description: string | null;
  allFolders: boolean;
  folderIds: readonly string[];
  memberIds: readonly string[];
}

interface GroupRow {
  id: string;
  account_id: string;
  name: string;
  description: string | null;
  all_folders: number;
  date_created: string;
  date_last_modified: string;
}

export function groupsRepo(db: Db) {
  const byId = db.prepare<[string, string], GroupRow>('SELECT * FROM groups WHERE account_id = ? AND id = ?');
  const byName = db.prepare<[string, string], GroupRow>('SELECT * FROM groups WHERE account_id = ? AND name = ?');
  const all = db.prepare<[string], GroupRow>('SELECT * FROM groups WHERE account_id = ? ORDER BY name, id');
  const membersOf = db.prepare<[string], string>('SELECT user_id FROM group_members WHERE group_id = ? ORDER BY user_id').pluck();
  const foldersOf = db.prepare<[string], string>('SELECT folder_option_id FROM group_folders WHERE group_id = ? ORDER BY folder_option_id').pluck();
  const insert = db.prepare(
    `INSERT INTO groups (id, account_id, name, description, all_folders, date_created, date_last_modified)
     VALUES (@id, @account_id, @name, @description, @all_folders, @date_created, @date_last_modified)`,
  );
  const update = db.prepare('UPDATE groups SET name = @name, description = @description, all_folders = @all_folders, date_last_modified = @now WHERE id = @id');
  const clearMembers = db.prepare('DELETE FROM group_members WHERE group_id = ?');
  const addMember = db.prepare('INSERT INTO group_members (group_id, user_id) VALUES (?, ?)');
  const clearFolders = db.prepare('DELETE FROM group_folders WHERE group_id = ?');
  const addFolder = db.prepare('INSERT INTO group_folders (group_id, folder_option_id) VALUES (?, ?)');
  const remove = db.prepare('DELETE FROM groups WHERE id = ?');

  const record = (row: GroupRow): GroupRecord => ({
    id: row.id,
    accountId: row.account_id,
    name: row.name,
    description: row.description,
    allFolders: row.all_folders === 1,
    folderIds: foldersOf.all(row.id),
    memberIds: membersOf.all(row.id),
    dateCreated: row.date_created,
    dateLastModified: row.date_last_modified,
  });
  const setLists = (id: string, changes: GroupChanges): void => {
    clearMembers.run(id);
    for (const userId of new Set(changes.memberIds)) addMember.run(id, userId);
    clearFolders.run(id);
    if (!changes.allFolders) for (const folderId of new Set(changes.folderIds)) addFolder.run(id, folderId);
  };

  return {
    get: (accountId: string, id: string): GroupRecord | undefined => {
      const row = byId.get(accountId, id);
      return row === undefined ? undefined : record(row);
    },
    nameTaken: (accountId: string, name: string, exceptId?: string): boolean => {
      const row = byName.get(accountId, name);
      return row !== undefined && row.id !== exceptId;
    },
    list: (accountId: string): GroupRecord[] => all.all(accountId).map(record),
    /** Call inside a transaction. */
    create(accountId: string, changes: GroupChanges, now: string): string {
      const id = timeOrderedUuid();
      insert.run({ id, account_id: accountId, name: changes.name, description: changes.description, all_folders: changes.allFolders ? 1 : 0, date_created: now, date_last_modified: now });
      setLists(id, changes);
      return id;
    },
    /** Call inside a transaction. */
    update(id: string, changes: GroupChanges, now: string): void {
      update.run({ id, name: changes.name, description: changes.description, all_folders: changes.allFolders ? 1 : 0, now });
      setLists(id, changes);
    },
    remove: (id: string) => void remove.run(id),
  };
}

export type GroupsRepo = ReturnType<typeof groupsRepo>;
