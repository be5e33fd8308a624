/**
 * What a portal's visitors see (unauthenticated, `Authorization: Passcode <passcode>` when the
 * portal has one): `GET /public/portals/{id}` (its name and folders), `GET /public/portals/{id}/assets`
 * (paged with `?from=&pageSize=`) and `GET /public/portals/{id}/assets/{assetId}/content` (a redirect to
 * the file). Only LIVE assets filed in one of the portal's folders or their sub-folders are ever shown:
 * the asset criterion compiler builds that query (a folder criterion with no state named keeps its default
 * LIVE filter), and a single asset is looked up through the same criterion, never by id alone.
 *
 * Passcodes: a wrong or missing one is 401; attempts are rate-limited (auth/attempt-limiter.ts, 429 with
 * Retry-After, checked before the passcode is), and compared in constant time (passcodes.ts); a right one
 * is checked with scrypt once and then remembered for a while (verified-passcodes.ts).
 *
 * A browser link cannot send a header, so the download URLs a protected portal's listing hands out are
 * signed (http/signed-urls.ts) for `DOWNLOAD_LINK_TTL_SECONDS` and bound to a tag of the portal's current
 * passcode: the content route accepts either the header or such a signature, and a passcode change or
 * removal voids every link handed out under the old one.
 */
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { ServiceContext } from '../context.js';
import { ServiceError } from '../errors/service-error.js';
import { parseInput } from '../http/parse-input.js';
import { compileParsedAssetQuery } from '../search/asset-query.js';
import type { Criterion } from '../search/criterion-schema.js';
import { assetSearchRunner } from '../search/run-asset-search.js';
import { searchAccount } from '../search/search-account.js';
import { publicPageQuery, type PublicAssetView } from '../public-access/public-assets.js';
import type { AttemptLimiter } from '../auth/attempt-limiter.js';
import { passcodeFromHeader } from './passcodes.js';
import type { PortalRow, PortalsRepo } from './portals-repo.js';
import type { VerifiedPasscodes } from './verified-passcodes.js';

const idParams = z.object({ id: z.string().min(1).max(200) });
const assetParams = idParams.extend({ assetId: z.string().min(1).max(200) });
const signedQuery = z.object({ expires: z.string().optional(), signature: z.string().optional(), passcodeTag: z.string().optional() });
/** How long a protected portal's download link works: a visitor's browsing session, not longer. */
export const DOWNLOAD_LINK_TTL_SECONDS = 3600;
const NEWEST_FIRST = [{ field: { type: 'FIXED' as const, fieldName: 'DATE_LIVE' }, order: 'DESC' as const }];

export function registerPublicPortalRoutes(app: FastifyInstance, ctx: ServiceContext, deps: { portals: PortalsRepo; view: PublicAssetView; limiter: AttemptLimiter; passcodes: VerifiedPasscodes }): void {
  const { portals, view, limiter, passcodes } = deps;
  const runner = assetSearchRunner(ctx.db);

  /** The portal, or 404. */
  const find = (id: string): PortalRow => {
    const row = portals.get(id);
    if (row === undefined) throw new ServiceError('NOT_FOUND', `No portal with id ${JSON.stringify(id)}.`);
    return row;
  };
  /** The portal, once the request has shown its passcode (when it has one). */
  const enter = async (request: FastifyRequest, id: string): Promise<PortalRow> => {
    const row = find(id);
    if (row.passcode_hash === null || row.passcode_salt === null) return row;
    const wait = limiter.retryAfter(row.id, request.ip);
    if (wait > 0) throw new ServiceError('RATE_LIMITED', `Too many wrong passcodes; try again in ${wait} s.`, { 'retry-after': String(wait) });
    const attempt = passcodeFromHeader(request.headers.authorization);
    if (attempt === undefined) throw new ServiceError('PASSCODE_REQUIRED');
    if (!(await passcodes.matches(row.id, { hash: row.passcode_hash, salt: row.passcode_salt }, attempt))) {
      limiter.failed(row.id, request.ip);
      throw new ServiceError('PASSCODE_INVALID');
    }
    limiter.succeeded(row.id, request.ip);
    return row;
  };
  /** LIVE assets in the portal's folders (sub-folders included), plus `extra` when given. */
  const queryOf = (row: PortalRow, extra?: Criterion) => {
    const folders = ctx.fields.byRole(row.account_id, 'FOLDERS');
    const folderIds = portals.folderIds(row.id);
    const inFolders: Criterion =
      folders === undefined || folderIds.length === 0
        ? { type: 'NOT', criterion: { type: 'MATCH_ALL' } }
        : { type: 'FIELD_IN', field: { type: 'FIELD', fieldId: folders.id }, values: folderIds, includeSubfolders: true };
    const criterion: Criterion = extra === undefined ? inFolders : { type: 'AND', criteria: [inFolders, extra] };
    return compileParsedAssetQuery(searchAccount(ctx.fields, { accountId: row.account_id, folders: null }), criterion, NEWEST_FIRST);
  };
  const contentPath = (row: PortalRow, assetId: string): string => `/public/portals/${row.id}/assets/${encodeURIComponent(assetId)}/content`;
  /**
   * Names the portal's current passcode in a signed link without giving anything away: a digest of the
   * stored hash and salt, neither of which a visitor ever sees, so it cannot be used to test guesses.
   */
  const passcodeTag = (row: PortalRow): string | undefined =>
    row.passcode_hash === null || row.passcode_salt === null ? undefined : createHash('sha256').update(`${row.passcode_hash}\n${row.passcode_salt}`).digest('base64url').slice(0, 22);
  const contentUrl = (row: PortalRow, assetId: string): string => {
    const tag = passcodeTag(row);
    if (tag === undefined) return `${ctx.baseUrl()}${contentPath(row, assetId)}`;
    return ctx.signer.sign(contentPath(row, assetId), { passcodeTag: tag }, DOWNLOAD_LINK_TTL_SECONDS).url;
  };
  /** A signed download link stands in for the passcode header, as long as the passcode it names is current. */
  const enterByLink = async (request: FastifyRequest, id: string, assetId: string): Promise<PortalRow> => {
    const query = parseInput(signedQuery, request.query, 'INVALID_QUERY');
    if (query.signature === undefined) return enter(request, id);
    const row = find(id);
    const { passcodeTag: tag } = ctx.signer.verify(contentPath(row, assetId), query, ['passcodeTag']);
    const current = passcodeTag(row);
    if (current !== undefined && tag !== current) throw new ServiceError('SIGNED_URL_EXPIRED', 'The portal\'s passcode has changed since this link was made; open the portal again.');
    return row;
  };

  app.get('/public/portals/:id', { config: { public: true } }, async (request, reply) => {
    const { id } = parseInput(idParams, request.params, 'INVALID_PATH');
    const row = await enter(request, id);
    const folders = portals.folderIds(row.id).flatMap((folderId) => {
      const option = ctx.fieldOptions.get(row.account_id, folderId);
      return option === undefined ? [] : [{ id: option.id, value: option.value }];
    });
    void reply.header('cache-control', 'no-store');
    return { result: { id: row.id, name: row.name, folders }, permittedActions: [] };
  });

  app.get('/public/portals/:id/assets', { config: { public: true } }, async (request, reply) => {
    const { id } = parseInput(idParams, request.params, 'INVALID_PATH');
    const { from, pageSize } = parseInput(publicPageQuery, request.query, 'INVALID_QUERY');
    const row = await enter(request, id);
    const query = queryOf(row);
    const { rows, total: totalResults } = runner.pageWithTotal(query, from, pageSize);
    void reply.header('cache-control', 'no-store');
    return { results: rows.map((asset) => view.render(asset, contentUrl(row, asset.id))), totalResults };
  });

  app.get('/public/portals/:id/assets/:assetId/content', { config: { public: true } }, async (request, reply) => {
    const { id, assetId } = parseInput(assetParams, request.params, 'INVALID_PATH');
    const row = await enterByLink(request, id, assetId);
    const [asset] = runner.page(queryOf(row, { type: 'FIELD_EQUALS', field: { type: 'FIXED', fieldName: 'ASSET_ID' }, value: assetId }), 0, 1);
    if (asset === undefined) throw new ServiceError('NOT_FOUND', `No asset ${JSON.stringify(assetId)} in this portal.`);
    return view.sendFile(reply, asset, { type: 'PORTAL', portalId: row.id });
  });
}
