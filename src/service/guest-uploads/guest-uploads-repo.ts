/**
 * Guest upload links in the database. The link's secret key is stored only as its SHA-256, so the
 * database alone does not open a link; the key is shown once, when the link is made. SQL only.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Db } from '../db/open-database.js';
import { timeOrderedUuid } from '../db/time-ordered-id.js';

export interface GuestUploadRow {
  id: string;
  account_id: string;
  key_hash: string;
  name: string;
  folder_id: string;
  max_file_size: number;
  max_files: number;
  created_by: string;
  date_created: string;
  date_expires: string | null;
}

export const hashKey = (key: string): string => createHash('sha256').update(key).digest('hex');

export function guestUploadsRepo(db: Db) {
  const byId = db.prepare<[string, string], GuestUploadRow>('SELECT * FROM guest_uploads WHERE account_id = ? AND id = ?');
  const byKeyHash = db.prepare<[string], GuestUploadRow>('SELECT * FROM guest_uploads WHERE key_hash = ?');
  const ofAccount = db.prepare<[string], GuestUploadRow>('SELECT * FROM guest_uploads WHERE account_id = ? ORDER BY date_created, id');
  const insert = db.prepare(
    'INSERT INTO guest_uploads (id, account_id, key_hash, name, folder_id, max_file_size, max_files, created_by, date_created, date_expires) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const update = db.prepare('UPDATE guest_uploads SET name = ?, max_file_size = ?, max_files = ?, date_expires = ? WHERE id = ?');
  const remove = db.prepare('DELETE FROM guest_uploads WHERE id = ?');
  const count = db.prepare<[string], { n: number }>('SELECT count(*) AS n FROM guest_upload_assets WHERE guest_upload_id = ?');
  const addAsset = db.prepare('INSERT INTO guest_upload_assets (guest_upload_id, asset_id) VALUES (?, ?)');
  const hasAsset = db.prepare<[string, string], { n: number }>('SELECT count(*) AS n FROM guest_upload_assets WHERE guest_upload_id = ? AND asset_id = ?');

  return {
    get: (accountId: string, id: string) => byId.get(accountId, id),
    byKey: (key: string) => byKeyHash.get(hashKey(key)),
    ofAccount: (accountId: string) => ofAccount.all(accountId),
    /** Makes a link; returns its row and its secret key (the only time the key exists in the clear). */
    create(fields: Omit<GuestUploadRow, 'id' | 'key_hash'>): { row: GuestUploadRow; key: string } {
      const key = randomBytes(24).toString('base64url');
      const row: GuestUploadRow = { ...fields, id: timeOrderedUuid(), key_hash: hashKey(key) };
      insert.run(row.id, row.account_id, row.key_hash, row.name, row.folder_id, row.max_file_size, row.max_files, row.created_by, row.date_created, row.date_expires);
      return { row, key };
    },
    update: (row: GuestUploadRow) => void update.run(row.name, row.max_file_size, row.max_files, row.date_expires, row.id),
    remove: (id: string) => void remove.run(id),
    /** Files started through the link that still exist (they count against max_files). */
    filesUploaded: (id: string) => count.get(id)?.n ?? 0,
    addAsset: (id: string, assetId: string) => void addAsset.run(id, assetId),
    hasAsset: (id: string, assetId: string) => (hasAsset.get(id, assetId)?.n ?? 0) > 0,
  };
}

export type GuestUploadsRepo = ReturnType<typeof guestUploadsRepo>;
