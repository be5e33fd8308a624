/** Saved searches (migration 0012) as rows: a user's criterion, sorts and e-mail choice. */
import type { Db } from '../db/open-database.js';

export interface SavedSearchRow {
  id: string;
  account_id: string;
  owner_id: string;
  name: string;
  criterion: string;
  sorts: string;
  email_updates: number;
  checked_from: string;
  date_created: string;
  date_last_modified: string;
}

export function savedSearchesRepo(db: Db) {
  const byId = db.prepare<[string, string], SavedSearchRow>('SELECT * FROM saved_searches WHERE account_id = ? AND id = ?');
  const ofOwner = db.prepare<[string, string], SavedSearchRow>('SELECT * FROM saved_searches WHERE account_id = ? AND owner_id = ? ORDER BY name, id');
  const mailed = db.prepare<[], SavedSearchRow>('SELECT * FROM saved_searches WHERE email_updates = 1 ORDER BY account_id, owner_id, name, id');
  const insert = db.prepare(
    `INSERT INTO saved_searches (id, account_id, owner_id, name, criterion, sorts, email_updates, checked_from, date_created, date_last_modified)
     VALUES (@id, @account_id, @owner_id, @name, @criterion, @sorts, @email_updates, @checked_from, @date_created, @date_last_modified)`,
  );
  const update = db.prepare(
    'UPDATE saved_searches SET name = @name, criterion = @criterion, sorts = @sorts, email_updates = @email_updates, checked_from = @checked_from, date_last_modified = @date_last_modified WHERE id = @id',
  );
  const remove = db.prepare('DELETE FROM saved_searches WHERE id = ?');
  const setCheckedFrom = db.prepare('UPDATE saved_searches SET checked_from = ? WHERE id = ?');
  const notified = db.prepare('INSERT OR IGNORE INTO saved_search_notified (saved_search_id, asset_id) VALUES (?, ?)');

  return {
    get: (accountId: string, id: string) => byId.get(accountId, id),
    ofOwner: (accountId: string, ownerId: string) => ofOwner.all(accountId, ownerId),
    withEmailUpdates: () => mailed.all(),
    insert: (row: SavedSearchRow) => void insert.run(row),
    update: (row: SavedSearchRow) => void update.run(row),
    remove: (id: string) => void remove.run(id),
    /** Records what a sent e-mail covered, and where the next check starts. Call inside a transaction. */
    markNotified(id: string, assetIds: readonly string[], checkedFrom: string): void {
      for (const assetId of assetIds) notified.run(id, assetId);
      setCheckedFrom.run(checkedFrom, id);
    },
  };
}

export type SavedSearchesRepo = ReturnType<typeof savedSearchesRepo>;
