/**
 * Collections in the database: the collection rows, their assets and their collaborators. SQL only;
 * who may do what is decided in collection-access.ts, and the routes wire the two together.
 */
import type { Db } from '../db/open-database.js';
import { timeOrderedUuid } from '../db/time-ordered-id.js';

export type CollaboratorRole = 'VIEWER' | 'EDITOR';
export const COLLABORATOR_ROLES: readonly CollaboratorRole[] = ['VIEWER', 'EDITOR'];

export interface CollectionRow {
  id: string;
  account_id: string;
  name: string;
  description: string | null;
  owner_id: string;
  date_created: string;
  date_last_modified: string;
}

export interface CollaboratorRow {
  user_id: string;
  role: CollaboratorRole;
}

/** The wire form of a collection [ours]; its assets are not embedded (SERVICE-SPEC §2.10). */
export interface Collection {
  id: string;
  accountId: string;
  name: string;
  description: string | null;
  ownerId: string;
  dateCreated: string;
  dateLastModified: string;
  numberOfAssets: number;
  collaborators: { userId: string; role: CollaboratorRole }[];
}

export function collectionsRepo(db: Db) {
  const byId = db.prepare<[string, string], CollectionRow>('SELECT * FROM collections WHERE account_id = ? AND id = ?');
  const ofAccount = db.prepare<[string], CollectionRow>('SELECT * FROM collections WHERE account_id = ?');
  const insert = db.prepare('INSERT INTO collections (id, account_id, name, description, owner_id, date_created, date_last_modified) VALUES (?, ?, ?, ?, ?, ?, ?)');
  const update = db.prepare('UPDATE collections SET name = ?, description = ?, date_last_modified = ? WHERE id = ?');
  const touch = db.prepare('UPDATE collections SET date_last_modified = ? WHERE id = ?');
  const remove = db.prepare('DELETE FROM collections WHERE id = ?');
  const count = db.prepare<[string], { n: number }>('SELECT count(*) AS n FROM collection_assets WHERE collection_id = ?');
  const addAsset = db.prepare('INSERT OR IGNORE INTO collection_assets (collection_id, asset_id, date_added) VALUES (?, ?, ?)');
  const removeAsset = db.prepare('DELETE FROM collection_assets WHERE collection_id = ? AND asset_id = ?');
  const assetIds = db.prepare<[string], { asset_id: string }>('SELECT asset_id FROM collection_assets WHERE collection_id = ? ORDER BY date_added, asset_id');
  const collaborators = db.prepare<[string], CollaboratorRow>('SELECT user_id, role FROM collection_collaborators WHERE collection_id = ? ORDER BY user_id');
  const setCollaborator = db.prepare(
    'INSERT INTO collection_collaborators (collection_id, user_id, role) VALUES (?, ?, ?) ON CONFLICT (collection_id, user_id) DO UPDATE SET role = excluded.role',
  );
  const removeCollaborator = db.prepare('DELETE FROM collection_collaborators WHERE collection_id = ? AND user_id = ?');

  return {
    get: (accountId: string, id: string) => byId.get(accountId, id),
    ofAccount: (accountId: string) => ofAccount.all(accountId),
    create(accountId: string, ownerId: string, name: string, description: string | null, now: string): CollectionRow {
      const row: CollectionRow = { id: timeOrderedUuid(), account_id: accountId, name, description, owner_id: ownerId, date_created: now, date_last_modified: now };
      insert.run(row.id, accountId, name, description, ownerId, now, now);
      return row;
    },
    update: (id: string, name: string, description: string | null, now: string) => void update.run(name, description, now, id),
    touch: (id: string, now: string) => void touch.run(now, id),
    remove: (id: string) => void remove.run(id),
    /** Adds the assets (already present ones are kept as they are); returns how many were new. */
    addAssets(id: string, ids: readonly string[], now: string): number {
      let added = 0;
      for (const assetId of ids) added += addAsset.run(id, assetId, now).changes;
      return added;
    },
    removeAssets(id: string, ids: readonly string[]): number {
      let removed = 0;
      for (const assetId of ids) removed += removeAsset.run(id, assetId).changes;
      return removed;
    },
    assetIds: (id: string) => assetIds.all(id).map((row) => row.asset_id),
    collaborators: (id: string) => collaborators.all(id),
    setCollaborator: (id: string, userId: string, role: CollaboratorRole) => void setCollaborator.run(id, userId, role),
    removeCollaborator: (id: string, userId: string) => removeCollaborator.run(id, userId).changes > 0,
    render(row: CollectionRow): Collection {
      return {
        id: row.id,
        accountId: row.account_id,
        name: row.name,
        description: row.description,
        ownerId: row.owner_id,
        dateCreated: row.date_created,
        dateLastModified: row.date_last_modified,
        numberOfAssets: count.get(row.id)?.n ?? 0,
        collaborators: collaborators.all(row.id).map((collaborator) => ({ userId: collaborator.user_id, role: collaborator.role })),
      };
    },
  };
}

export type CollectionsRepo = ReturnType<typeof collectionsRepo>;
