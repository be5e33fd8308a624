/**
 * Asset shares and collection shares in the database. A share is reached by its id or by any slug it
 * ever had (share_slugs), so links handed out before a rename keep working. SQL only; the routes decide
 * who may do what and whether a share is still valid.
 */
import { randomUUID } from 'node:crypto';
import type { AssetRow } from '../assets/assets-repo.js';
import type { Db } from '../db/open-database.js';
import { scopePredicate, type FolderScope } from '../groups/folder-scope.js';

export type ShareKind = 'ASSET' | 'COLLECTION';
export type ShareAccess = 'VIEW' | 'VIEW_AND_DOWNLOAD';
export const SHARE_ACCESS: readonly ShareAccess[] = ['VIEW', 'VIEW_AND_DOWNLOAD'];

export interface ShareRow {
  id: string;
  account_id: string;
  kind: ShareKind;
  collection_id: string | null;
  access: ShareAccess;
  slug: string | null;
  created_by: string;
  date_created: string;
  date_expires: string | null;
}

export interface NewShare {
  accountId: string;
  kind: ShareKind;
  collectionId: string | null;
  assetIds: readonly string[];
  access: ShareAccess;
  slug: string | null;
  createdBy: string;
  now: string;
  expires: string | null;
}

export function sharesRepo(db: Db) {
  const byId = db.prepare<[string, string, ShareKind], ShareRow>('SELECT * FROM shares WHERE account_id = ? AND id = ? AND kind = ?');
  const byKey = db.prepare<[ShareKind, string, string], ShareRow>(
    'SELECT * FROM shares WHERE kind = ? AND id = coalesce((SELECT share_id FROM share_slugs WHERE slug = ?), ?)',
  );
  const ofAccount = db.prepare<[string, ShareKind], ShareRow>('SELECT * FROM shares WHERE account_id = ? AND kind = ?');
  const insert = db.prepare(
    'INSERT INTO shares (id, account_id, kind, collection_id, access, slug, created_by, date_created, date_expires) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const insertAsset = db.prepare('INSERT OR IGNORE INTO share_assets (share_id, asset_id, position) VALUES (?, ?, ?)');
  const slugOwner = db.prepare<[string], { share_id: string }>('SELECT share_id FROM share_slugs WHERE slug = ?');
  const insertSlug = db.prepare('INSERT OR IGNORE INTO share_slugs (slug, share_id) VALUES (?, ?)');
  const slugsOf = db.prepare<[string], { slug: string }>('SELECT slug FROM share_slugs WHERE share_id = ? ORDER BY slug');
  const update = db.prepare('UPDATE shares SET access = ?, slug = ?, date_expires = ? WHERE id = ?');
  const remove = db.prepare('DELETE FROM shares WHERE id = ?');
  const assetIds = db.prepare<[string], { asset_id: string }>('SELECT asset_id FROM share_assets WHERE share_id = ? ORDER BY position');
  // What a visitor sees: the shared assets that still exist, are not in the bin and that the share's
  // creator reaches (@field NULL: an unlimited creator), in the share's order.
  const reached = `(@field IS NULL OR ${scopePredicate('a', '@field', '@ids')})`;
  type Scoped = { field: string | null; ids: string };
  const visibleOfShare = db.prepare<[Scoped & { share: string; limit: number; offset: number }], AssetRow>(
    `SELECT a.* FROM share_assets s JOIN assets a ON a.id = s.asset_id
      WHERE s.share_id = @share AND a.state != 'BINNED' AND ${reached} ORDER BY s.position LIMIT @limit OFFSET @offset`,
  );
  const countOfShare = db.prepare<[Scoped & { share: string }], { n: number }>(
    `SELECT count(*) AS n FROM share_assets s JOIN assets a ON a.id = s.asset_id WHERE s.share_id = @share AND a.state != 'BINNED' AND ${reached}`,
  );
  const visibleOfCollection = db.prepare<[Scoped & { collection: string; limit: number; offset: number }], AssetRow>(
    `SELECT a.* FROM collection_assets c JOIN assets a ON a.id = c.asset_id
      WHERE c.collection_id = @collection AND a.state != 'BINNED' AND ${reached} ORDER BY c.date_added, a.id LIMIT @limit OFFSET @offset`,
  );
  const countOfCollection = db.prepare<[Scoped & { collection: string }], { n: number }>(
    `SELECT count(*) AS n FROM collection_assets c JOIN assets a ON a.id = c.asset_id WHERE c.collection_id = @collection AND a.state != 'BINNED' AND ${reached}`,
  );
  const visibleOne = db.prepare<[Scoped & { asset: string; share: string; collection: string }], AssetRow>(
    `SELECT a.* FROM assets a WHERE a.id = @asset AND a.state != 'BINNED' AND ${reached} AND (
       EXISTS (SELECT 1 FROM share_assets s WHERE s.share_id = @share AND s.asset_id = a.id)
       OR EXISTS (SELECT 1 FROM collection_assets c WHERE c.collection_id = @collection AND c.asset_id = a.id))`,
  );
  const scoped = (scope: FolderScope): Scoped => (scope === null ? { field: null, ids: '[]' } : { field: scope.foldersFieldId, ids: JSON.stringify(scope.folderIds) });

  return {
    get: (accountId: string, id: string, kind: ShareKind) => byId.get(accountId, id, kind),
    /** A share of this kind by id or by any of its slugs, in any account (public routes). */
    byKey: (key: string, kind: ShareKind) => byKey.get(kind, key, key),
    ofAccount: (accountId: string, kind: ShareKind) => ofAccount.all(accountId, kind),
    /** The share that holds this slug (now or before), if any. */
    slugOwner: (slug: string) => slugOwner.get(slug)?.share_id,
    slugs: (shareId: string) => slugsOf.all(shareId).map((row) => row.slug),
    assetIds: (shareId: string) => assetIds.all(shareId).map((row) => row.asset_id),
    create(share: NewShare): ShareRow {
      const row: ShareRow = {
        id: randomUUID(),
        account_id: share.accountId,
        kind: share.kind,
        collection_id: share.collectionId,
        access: share.access,
        slug: share.slug,
        created_by: share.createdBy,
        date_created: share.now,
        date_expires: share.expires,
      };
      insert.run(row.id, row.account_id, row.kind, row.collection_id, row.access, row.slug, row.created_by, row.date_created, row.date_expires);
      share.assetIds.forEach((assetId, position) => insertAsset.run(row.id, assetId, position));
      if (row.slug !== null) insertSlug.run(row.slug, row.id);
      return row;
    },
    update(row: ShareRow): void {
      update.run(row.access, row.slug, row.date_expires, row.id);
      if (row.slug !== null) insertSlug.run(row.slug, row.id);
    },
    remove: (id: string) => void remove.run(id),
    /** A page of what a visitor sees (within `scope`, the creator's folder limit), and how many there are in all. */
    visibleAssets(row: ShareRow, scope: FolderScope, from: number, pageSize: number): { rows: AssetRow[]; total: number } {
      const within = scoped(scope);
      if (row.collection_id !== null) {
        const collection = { ...within, collection: row.collection_id };
        return { rows: pageSize === 0 ? [] : visibleOfCollection.all({ ...collection, limit: pageSize, offset: from }), total: countOfCollection.get(collection)?.n ?? 0 };
      }
      const share = { ...within, share: row.id };
      return { rows: pageSize === 0 ? [] : visibleOfShare.all({ ...share, limit: pageSize, offset: from }), total: countOfShare.get(share)?.n ?? 0 };
    },
    visibleAsset: (row: ShareRow, scope: FolderScope, assetId: string) => visibleOne.get({ ...scoped(scope), asset: assetId, share: row.id, collection: row.collection_id ?? '' }),
  };
}

export type SharesRepo = ReturnType<typeof sharesRepo>;
