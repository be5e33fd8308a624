/**
 * Writes and reads asset download events (SERVICE-SPEC §6). Every path that hands a file out records
 * one event per file through `record`: the download batch job here, and the share and portal downloads
 * with their own user and download types. Events are inserted, never changed; the search
 * (event-query.ts) reads them. Responses carry only ids of what an event refers to.
 */
import type { Db } from '../db/open-database.js';
import { timeOrderedUuid } from '../db/time-ordered-id.js';

export const USER_TYPES = ['USER', 'STAFF', 'ANONYMOUS'] as const;
export const DOWNLOAD_TYPES = ['DIRECT', 'ZIP', 'SHARE', 'PORTAL'] as const;
export const TRANSFORMATION_TYPES = ['ORIGINAL', 'CUSTOM', 'PRESET'] as const;

export type UserType = (typeof USER_TYPES)[number];
export type DownloadType = (typeof DOWNLOAD_TYPES)[number];
export type TransformationType = (typeof TRANSFORMATION_TYPES)[number];

/** What a download path knows when it hands a file out. */
export interface NewDownloadEvent {
  accountId: string;
  assetId: string;
  assetFileId: string;
  userId: string | null;
  portalId?: string | null;
  assetShareId?: string | null;
  userType: UserType;
  downloadType: DownloadType;
  transformationType: TransformationType;
  presetTransformationId?: string | null;
  /** ISO-8601 with milliseconds. */
  dateDownloaded: string;
}

export interface DownloadEventRow {
  id: string;
  account_id: string;
  asset_id: string;
  asset_file_id: string;
  user_id: string | null;
  portal_id: string | null;
  asset_share_id: string | null;
  user_type: UserType;
  download_type: DownloadType;
  transformation_type: TransformationType;
  preset_transformation_id: string | null;
  date_downloaded: string;
}

/** The wire form of an event [ours]: ids of what it refers to, never the resources themselves. */
export interface DownloadEvent {
  id: string;
  assetId: string;
  assetFileId: string;
  userId: string | null;
  portalId: string | null;
  assetShareId: string | null;
  userType: UserType;
  downloadType: DownloadType;
  transformation: { type: TransformationType; presetTransformationId: string | null };
  dateDownloaded: string;
}

export function toDownloadEvent(row: DownloadEventRow): DownloadEvent {
  return {
    id: row.id,
    assetId: row.asset_id,
    assetFileId: row.asset_file_id,
    userId: row.user_id,
    portalId: row.portal_id,
    assetShareId: row.asset_share_id,
    userType: row.user_type,
    downloadType: row.download_type,
    transformation: { type: row.transformation_type, presetTransformationId: row.preset_transformation_id },
    dateDownloaded: row.date_downloaded,
  };
}

export interface DownloadEventsRepo {
  /** Records one event; call inside the transaction that hands the file out, so both or neither happen. */
  record(event: NewDownloadEvent): string;
}

export function downloadEventsRepo(db: Db): DownloadEventsRepo {
  const insert = db.prepare(
    `INSERT INTO download_events (id, account_id, asset_id, asset_file_id, user_id, portal_id, asset_share_id, user_type, download_type, transformation_type, preset_transformation_id, date_downloaded)
     VALUES (@id, @account_id, @asset_id, @asset_file_id, @user_id, @portal_id, @asset_share_id, @user_type, @download_type, @transformation_type, @preset_transformation_id, @date_downloaded)`,
  );
  return {
    record(event) {
      const id = timeOrderedUuid(Date.parse(event.dateDownloaded));
      insert.run({
        id,
        account_id: event.accountId,
        asset_id: event.assetId,
        asset_file_id: event.assetFileId,
        user_id: event.userId,
        portal_id: event.portalId ?? null,
        asset_share_id: event.assetShareId ?? null,
        user_type: event.userType,
        download_type: event.downloadType,
        transformation_type: event.transformationType,
        preset_transformation_id: event.presetTransformationId ?? null,
        date_downloaded: event.dateDownloaded,
      });
      return id;
    },
  };
}
