/**
 * Managing portals (SERVICE-SPEC §2.10): `GET /portals`, `POST /portals`,
 * `GET|PATCH|DELETE /portals/{id}`. A portal shows the live assets of a set of folders of the account
 * (sub-folders included) to visitors, publicly or behind a passcode (public-portal-routes.ts). Portals
 * publish the account's assets, so only admins manage them; to anyone else they do not exist (404).
 * Bodies are ours (docs/api.md, "Portals").
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { ServiceContext } from '../context.js';
import { ServiceError, notFound } from '../errors/service-error.js';
import { envelope } from '../http/envelope.js';
import { parseInput } from '../http/parse-input.js';
import { parseBody } from '../http/route-bodies.js';
import { oneLineName } from '../http/one-line-name.js';
import { caller, type Caller } from '../http/request-auth.js';
import { hashPasscode } from './passcodes.js';
import type { PortalRow, PortalsRepo } from './portals-repo.js';

const idParams = z.object({ id: z.string().min(1).max(200) });
const name = oneLineName;
const folderIds = z.array(z.string().min(1).max(200)).min(1, 'needs at least one folder').max(100);
const passcode = z.string().min(4, 'must be at least 4 characters').max(200);
const createBody = z.object({ name, folderIds, passcode: passcode.optional() });
// `passcode: null` makes the portal public; left out, the passcode is kept.
const patchBody = z.object({ name: name.optional(), folderIds: folderIds.optional(), passcode: passcode.nullable().optional() });

export function registerPortalRoutes(app: FastifyInstance, ctx: ServiceContext, portals: PortalsRepo): void {
  const render = (row: PortalRow) => ({
    id: row.id,
    accountId: row.account_id,
    name: row.name,
    folderIds: portals.folderIds(row.id),
    passcodeProtected: row.passcode_hash !== null,
    dateCreated: row.date_created,
    dateLastModified: row.date_last_modified,
    url: `${ctx.baseUrl()}/public/portals/${row.id}`,
  });
  const actions = (id: string) => ['VIEW', 'EDIT', 'DELETE'].map((action) => ({ resourceType: 'PORTAL', resourceId: id, action }));
  const admin = (who: Caller): void => {
    if (who.role !== 'admin') throw new ServiceError('FORBIDDEN', `Your role (${who.role}) may not manage portals.`);
  };
  const load = (who: Caller, params: unknown): PortalRow => {
    const { id } = parseInput(idParams, params, 'INVALID_PATH');
    const row = who.role === 'admin' ? portals.get(id, who.accountId) : undefined;
    if (row === undefined) throw notFound('portal', id);
    return row;
  };
  /** Every id must be a folder (an option of the Folders field) of the account that the folder policy lets the caller publish. */
  const checkFolders = (who: Caller, ids: readonly string[]): string[] => {
    const folders = ctx.fields.byRole(who.accountId, 'FOLDERS');
    const unique = [...new Set(ids)];
    const wrong = unique.find((id) => folders === undefined || ctx.fieldOptions.get(who.accountId, id)?.field_id !== folders.id);
    if (wrong !== undefined) throw new ServiceError('NOT_FOUND', `No folder with id ${JSON.stringify(wrong)}.`);
    for (const id of unique) ctx.folderPolicy.requireFolderTarget(who, id, 'portal');
    return unique;
  };

  app.get('/portals', async (request) => {
    const who = caller(request);
    admin(who);
    const rows = portals.ofAccount(who.accountId);
    return { results: rows.map((row) => envelope(render(row), actions(row.id))), totalResults: rows.length };
  });

  app.post('/portals', { config: { body: createBody } }, async (request) => {
    const who = caller(request);
    admin(who);
    const body = parseBody(request, createBody);
    const folders = checkFolders(who, body.folderIds);
    const secret = body.passcode === undefined ? undefined : await hashPasscode(body.passcode);
    const now = ctx.nowIso();
    const row: PortalRow = {
      id: portals.newId(),
      account_id: who.accountId,
      name: body.name,
      passcode_hash: secret?.hash ?? null,
      passcode_salt: secret?.salt ?? null,
      date_created: now,
      date_last_modified: now,
    };
    ctx.db.transaction(() => portals.create(row, folders))();
    return envelope(render(row), actions(row.id));
  });

  app.get('/portals/:id', async (request) => {
    const row = load(caller(request), request.params);
    return envelope(render(row), actions(row.id));
  });

  app.patch('/portals/:id', { config: { body: patchBody } }, async (request) => {
    const who = caller(request);
    const row = load(who, request.params);
    const body = parseBody(request, patchBody);
    const folders = body.folderIds === undefined ? undefined : checkFolders(who, body.folderIds);
    let secret = { hash: row.passcode_hash, salt: row.passcode_salt };
    if (body.passcode === null) secret = { hash: null, salt: null };
    else if (body.passcode !== undefined) secret = await hashPasscode(body.passcode);
    const updated: PortalRow = { ...row, name: body.name ?? row.name, passcode_hash: secret.hash, passcode_salt: secret.salt, date_last_modified: ctx.nowIso() };
    ctx.db.transaction(() => portals.update(updated, folders))();
    return envelope(render(updated), actions(row.id));
  });

  app.delete('/portals/:id', async (request) => {
    const row = load(caller(request), request.params);
    const before = render(row);
    portals.remove(row.id);
    return envelope(before);
  });
}
