/**
 * Inserts asset rows straight into the service database, far faster than uploading real files: for
 * search tests and the search benchmark. Rows look like the upload flow's (a current file, folder values)
 * but any lifecycle state and dates can be chosen. Callers wrap big batches in `db.transaction`.
 */
import { randomUUID } from 'node:crypto';
import type { Db } from '../../src/service/db/open-database.js';
import type { FileType, LifecycleState } from '../../src/shared/api/resources.js';

export interface SeedAsset {
  id?: string;
  accountId: string;
  state?: LifecycleState;
  /** The current file's name; null = an asset without a file. */
  filename?: string | null;
  fileType?: FileType;
  checksum?: string;
  stagedBy?: string | null;
  dateStaged?: string | null;
  datePendingApproval?: string | null;
  dateLive?: string | null;
  dateLastModified?: string;
  dateLastFileAdded?: string | null;
  /** Field id → values (option ids for option fields). */
  values?: Record<string, string[]>;
}

export function assetSeeder(db: Db): { insert(asset: SeedAsset): string } {
  const insertAsset = db.prepare(
    `INSERT INTO assets (id, account_id, current_file_id, state, date_staged, date_pending_approval, date_live, staged_by, date_created, date_last_modified, date_last_file_added)
     VALUES (@id, @account_id, @current_file_id, @state, @date_staged, @date_pending_approval, @date_live, @staged_by, @date_created, @date_last_modified, @date_last_file_added)`,
  );
  const insertFile = db.prepare(
    `INSERT INTO asset_files (id, account_id, asset_id, filename, size, checksum, sha256, media_type, media_subtype, file_type, width, height, date_added, added_by)
     VALUES (@id, @account_id, @asset_id, @filename, 1, @checksum, @checksum, 'application', 'octet-stream', @file_type, NULL, NULL, @date_added, NULL)`,
  );
  const insertValue = db.prepare('INSERT INTO asset_values (asset_id, field_id, ord, value) VALUES (?, ?, ?, ?)');
  return {
    insert(asset) {
      const id = asset.id ?? randomUUID();
      const modified = asset.dateLastModified ?? '2026-01-01T00:00:00.000Z';
      const fileId = asset.filename === null ? null : `${id}-file`;
      const fileAdded = asset.dateLastFileAdded === undefined ? (fileId === null ? null : modified) : asset.dateLastFileAdded;
      insertAsset.run({
        id,
        account_id: asset.accountId,
        current_file_id: fileId,
        state: asset.state ?? 'LIVE',
        date_staged: asset.dateStaged === undefined ? modified : asset.dateStaged,
        date_pending_approval: asset.datePendingApproval ?? null,
        date_live: asset.dateLive === undefined ? ((asset.state ?? 'LIVE') === 'LIVE' ? modified : null) : asset.dateLive,
        staged_by: asset.stagedBy === undefined ? 'seed-user' : asset.stagedBy,
        date_created: modified,
        date_last_modified: modified,
        date_last_file_added: fileAdded,
      });
      if (fileId !== null) {
        insertFile.run({
          id: fileId,
          account_id: asset.accountId,
          asset_id: id,
          filename: asset.filename ?? `${id}.bin`,
          checksum: asset.checksum ?? id.replace(/[^0-9a-f]/g, '').padEnd(32, '0').slice(0, 32),
          file_type: asset.fileType ?? 'OTHER',
          date_added: fileAdded ?? modified,
        });
      }
      for (const [fieldId, list] of Object.entries(asset.values ?? {})) list.forEach((value, ord) => insertValue.run(id, fieldId, ord, value));
      return id;
    },
  };
}
