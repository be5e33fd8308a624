/** Portals in the database: name, passcode hash and the folders they show. SQL only. */
import type { Db } from '../db/open-database.js';
import { timeOrderedUuid } from '../db/time-ordered-id.js';

export interface PortalRow {
  id: string;
  account_id: string;
  name: string;
  passcode_hash: string | null;
  passcode_salt: string | null;
  date_created: string;
  date_last_modified: string;
}

export function portalsRepo(db: Db) {
  const byId = db.prepare<[string], PortalRow>('SELECT * FROM portals WHERE id = ?');
  const ofAccount = db.prepare<[string], PortalRow>('SELECT * FROM portals WHERE account_id = ? ORDER BY name, id');
  const insert = db.prepare('INSERT INTO portals (id, account_id, name, passcode_hash, passcode_salt, date_created, date_last_modified) VALUES (?, ?, ?, ?, ?, ?, ?)');
  const update = db.prepare('UPDATE portals SET name = ?, passcode_hash = ?, passcode_salt = ?, date_last_modified = ? WHERE id = ?');
  const remove = db.prepare('DELETE FROM portals WHERE id = ?');
  const folders = db.prepare<[string], { option_id: string }>('SELECT option_id FROM portal_folders WHERE portal_id = ? ORDER BY option_id');
  const clearFolders = db.prepare('DELETE FROM portal_folders WHERE portal_id = ?');
  const addFolder = db.prepare('INSERT OR IGNORE INTO portal_folders (portal_id, option_id) VALUES (?, ?)');

  const setFolders = (id: string, folderIds: readonly string[]): void => {
    clearFolders.run(id);
    for (const folderId of folderIds) addFolder.run(id, folderId);
  };
  return {
    /** By id in any account (visitors), or only in `accountId` when given. */
    get(id: string, accountId?: string): PortalRow | undefined {
      const row = byId.get(id);
      return accountId === undefined || row?.account_id === accountId ? row : undefined;
    },
    ofAccount: (accountId: string) => ofAccount.all(accountId),
    create(row: PortalRow, folderIds: readonly string[]): void {
      insert.run(row.id, row.account_id, row.name, row.passcode_hash, row.passcode_salt, row.date_created, row.date_last_modified);
      setFolders(row.id, folderIds);
    },
    update(row: PortalRow, folderIds: readonly string[] | undefined): void {
      update.run(row.name, row.passcode_hash, row.passcode_salt, row.date_last_modified, row.id);
      if (folderIds !== undefined) setFolders(row.id, folderIds);
    },
    remove: (id: string) => void remove.run(id),
    folderIds: (id: string) => folders.all(id).map((row) => row.option_id),
    newId: () => timeOrderedUuid(),
  };
}

export type PortalsRepo = ReturnType<typeof portalsRepo>;
