/**
 * What a visitor without an account sees of an asset (shares and portals): the current file's
 * name, size, type, dimensions and a signed preview URL, and, when the share or portal allows it, a
 * download URL. Never metadata values, user ids or lifecycle details: those are the account's business.
 * The download URL is the share's or portal's own, stable address: each request to it checks the share
 * or portal again and only then redirects (302) to a short-lived signed file URL, so a revoked or expired
 * share stops downloads at once (a redirect already handed out works for at most `REDIRECT_TTL_SECONDS`).
 * Every redirect handed out records one anonymous download event (SERVICE-SPEC §6) naming the share or
 * portal, so the account's download reports count what visitors took.
 */
import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import type { FileType } from '../../shared/api/resources.js';
import type { AssetRow, AssetsRepo, FileRow } from '../assets/assets-repo.js';
import type { AssetRenderer } from '../assets/render-asset.js';
import type { ServiceContext } from '../context.js';
import { notFound } from '../errors/service-error.js';
import type { DownloadEventsRepo } from '../download-events/download-events-repo.js';

/** How long a redirect target lives: enough to start the download, short after a revocation. */
export const REDIRECT_TTL_SECONDS = 300;

export interface PublicAsset {
  id: string;
  filename: string | null;
  size: number | null;
  mediaType: { type: string; subType: string } | null;
  fileType: FileType | null;
  dimensions: { width: number; height: number } | null;
  previewUrl: string | null;
  /** The share's or portal's download address for this asset; null when it is view-only or has no file. */
  downloadUrl: string | null;
}

/** `?from=&pageSize=` of public listings (defaults 0 and 100, at most 1000). */
export const publicPageQuery = z.object({
  from: z.coerce.number().int().min(0).max(1_000_000).default(0),
  pageSize: z.coerce.number().int().min(0).max(1000).default(100),
});

/** Where a visitor's download came from: it is recorded with the download event. */
export type PublicDownloadSource = { type: 'SHARE'; assetShareId: string } | { type: 'PORTAL'; portalId: string };

export interface PublicAssetView {
  render(row: AssetRow, downloadUrl: string | null): PublicAsset;
  /** Records the download and redirects to a short-lived signed URL of the asset's current file (404 when it has none). */
  sendFile(reply: FastifyReply, row: AssetRow, source: PublicDownloadSource): FastifyReply;
}

export function publicAssetView(ctx: ServiceContext, deps: { assets: AssetsRepo; render: AssetRenderer; events: DownloadEventsRepo }): PublicAssetView {
  const { assets, render, events } = deps;
  const fileOf = (row: AssetRow): FileRow | undefined => (row.current_file_id === null ? undefined : assets.file({ accountId: row.account_id, folders: null }, row.current_file_id));
  return {
    render(row, downloadUrl) {
      const file = fileOf(row);
      return {
        id: row.id,
        filename: file?.filename ?? null,
        size: file?.size ?? null,
        mediaType: file === undefined ? null : { type: file.media_type, subType: file.media_subtype },
        fileType: file?.file_type ?? null,
        dimensions: file !== undefined && file.width !== null && file.height !== null ? { width: file.width, height: file.height } : null,
        previewUrl: file === undefined ? null : render.previewUrl(file),
        downloadUrl: file === undefined ? null : downloadUrl,
      };
    },
    sendFile(reply, row, source) {
      const file = fileOf(row);
      if (file === undefined) throw notFound('file of asset', row.id);
      events.record({
        accountId: row.account_id,
        assetId: row.id,
        assetFileId: file.id,
        userId: null,
        userType: 'ANONYMOUS',
        downloadType: source.type,
        transformationType: 'ORIGINAL',
        assetShareId: source.type === 'SHARE' ? source.assetShareId : null,
        portalId: source.type === 'PORTAL' ? source.portalId : null,
        dateDownloaded: ctx.nowIso(),
      });
      const ttl = Math.min(ctx.config.signedUrlTtl, REDIRECT_TTL_SECONDS);
      return reply.header('cache-control', 'no-store').redirect(ctx.signer.sign(`/files/${file.id}/content`, {}, ttl).url, 302);
    },
  };
}
