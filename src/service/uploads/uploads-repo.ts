/** Multipart uploads and their received parts. */
import type { Db } from '../db/open-database.js';

export interface UploadRow {
  upload_id: string;
  id: string;
  account_id: string;
  asset_id: string;
  replace_file_id: string | null;
  asset_file_id: string | null;
  filename: string;
  folder_option_id: string | null;
  size: number;
  part_size: number;
  part_count: number;
  created_by: string;
  date_created: string;
  last_activity: number;
  completed_parts: string | null;
  /** The guest link the upload was started through (null: the account's own upload). */
  guest_upload_id: string | null;
}

export interface PartRow {
  part_number: number;
  size: number;
  etag: string;
}

export function uploadsRepo(db: Db) {
  const byUploadId = db.prepare<[string], UploadRow>('SELECT * FROM uploads WHERE upload_id = ?');
  const exists = db.prepare<[string], { n: number }>('SELECT 1 AS n FROM uploads WHERE upload_id = ?');
  const forPart = db.prepare<[number, string], UploadRow & { has_part: 0 | 1 }>(
    'SELECT u.*, EXISTS (SELECT 1 FROM upload_parts p WHERE p.upload_id = u.upload_id AND p.part_number = ?) AS has_part FROM uploads u WHERE u.upload_id = ?',
  );
  const insert = db.prepare(
    `INSERT INTO uploads (upload_id, id, account_id, asset_id, replace_file_id, asset_file_id, filename, folder_option_id, size, part_size, part_count, created_by, date_created, last_activity, guest_upload_id)
     VALUES (@upload_id, @id, @account_id, @asset_id, @replace_file_id, NULL, @filename, @folder_option_id, @size, @part_size, @part_count, @created_by, @date_created, @last_activity, @guest_upload_id)`,
  );
  const parts = db.prepare<[string], PartRow>('SELECT part_number, size, etag FROM upload_parts WHERE upload_id = ? ORDER BY part_number');
  const hasPart = db.prepare<[string, number], { n: number }>('SELECT 1 AS n FROM upload_parts WHERE upload_id = ? AND part_number = ?');
  const deletePart = db.prepare('DELETE FROM upload_parts WHERE upload_id = ? AND part_number = ?');
  // Only while the upload exists: one statement both checks that it was not discarded meanwhile and records.
  const putPart = db.prepare(
    'INSERT OR REPLACE INTO upload_parts (upload_id, part_number, size, etag) SELECT @uploadId, @partNumber, @size, @etag WHERE EXISTS (SELECT 1 FROM uploads WHERE upload_id = @uploadId)',
  );
  const touch = db.prepare('UPDATE uploads SET last_activity = ? WHERE upload_id = ?');
  // last_activity stays: only open uploads are swept by it, and moving it would rewrite its index entry.
  const complete = db.prepare('UPDATE uploads SET asset_file_id = ?, completed_parts = ? WHERE upload_id = ?');
  const deleteParts = db.prepare('DELETE FROM upload_parts WHERE upload_id = ?');
  const abandoned = db.prepare<[number], { upload_id: string }>('SELECT upload_id FROM uploads WHERE asset_file_id IS NULL AND last_activity < ?');
  const remove = db.prepare('DELETE FROM uploads WHERE upload_id = ?');
  const forgetCompleted = db.prepare('DELETE FROM uploads WHERE asset_file_id IS NOT NULL AND last_activity < ?');
  const openOfAsset = db.prepare<[string], { upload_id: string }>('SELECT upload_id FROM uploads WHERE asset_id = ? AND asset_file_id IS NULL');
  const openOfGuestUpload = db.prepare<[string], { upload_id: string; asset_id: string }>('SELECT upload_id, asset_id FROM uploads WHERE guest_upload_id = ? AND asset_file_id IS NULL');
  const openReplacing = db.prepare<[string], { upload_id: string }>('SELECT upload_id FROM uploads WHERE replace_file_id = ? AND asset_file_id IS NULL');

  return {
    get: (uploadId: string) => byUploadId.get(uploadId),
    exists: (uploadId: string) => exists.get(uploadId) !== undefined,
    /** The upload, and whether this part of it is recorded (a part PUT asks both, in one statement). */
    forPart(uploadId: string, partNumber: number): { upload: UploadRow; hasPart: boolean } | undefined {
      const row = forPart.get(partNumber, uploadId);
      if (row === undefined) return undefined;
      const { has_part: hasPart, ...upload } = row;
      return { upload, hasPart: hasPart === 1 };
    },
    insert: (row: Omit<UploadRow, 'asset_file_id' | 'completed_parts'>) => void insert.run(row),
    parts: (uploadId: string) => parts.all(uploadId),
    hasPart: (uploadId: string, partNumber: number) => hasPart.get(uploadId, partNumber) !== undefined,
    /** Forgets a part before its bytes are rewritten, so a crash mid-write leaves it missing, not stale. */
    forgetPart: (uploadId: string, partNumber: number) => void deletePart.run(uploadId, partNumber),
    /**
     * Records a part whose bytes are durable (the caller touches the upload when its activity is stale).
     * Answers false, recording nothing, when the upload no longer exists.
     */
    putPart: (uploadId: string, partNumber: number, size: number, etag: string): boolean => putPart.run({ uploadId, partNumber, size, etag }).changes > 0,
    touch: (uploadId: string, now: number) => void touch.run(now, uploadId),
    /** `partsRecorded`: whether part rows may exist (a one-part upload its PUT completed recorded none). */
    markCompleted(uploadId: string, fileId: string, partsJson: string, partsRecorded: boolean): void {
      complete.run(fileId, partsJson, uploadId);
      if (partsRecorded) deleteParts.run(uploadId);
    },
    abandonedBefore: (cutoff: number) => abandoned.all(cutoff).map((row) => row.upload_id),
    /** Drops the records of uploads completed with no activity since `cutoff` (their bytes are blobs); answers how many. */
    forgetCompletedBefore: (cutoff: number): number => forgetCompleted.run(cutoff).changes,
    openOfAsset: (assetId: string) => openOfAsset.all(assetId).map((row) => row.upload_id),
    /** Open uploads started through a guest link, with their assets. */
    openOfGuestUpload: (guestUploadId: string) => openOfGuestUpload.all(guestUploadId),
    /** Open uploads carrying new bytes for this AssetFile. */
    openReplacing: (fileId: string) => openReplacing.all(fileId).map((row) => row.upload_id),
    remove: (uploadId: string) => void remove.run(uploadId),
  };
}

export type UploadsRepo = ReturnType<typeof uploadsRepo>;
