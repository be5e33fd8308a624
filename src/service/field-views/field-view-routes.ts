/**
 * Field views (SERVICE-SPEC §2.10): admin-configured ordered subsets of the account's fields, deciding
 * which fields show next to assets. The spec lists no paths; ours follow the fields' own [ours]:
 * `GET /field-views` (by name), `POST /field-views {name, fieldIds}`, `GET | PATCH | DELETE
 * /field-views/{id}` (a PATCH changes only what it gives). Every field id must exist in the account and
 * appear once; a field deleted later simply drops out of the views that listed it. Members read them.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { requireAccountAction } from '../auth/permissions.js';
import type { ServiceContext } from '../context.js';
import { timeOrderedUuid } from '../db/time-ordered-id.js';
import { ServiceError, notFound } from '../errors/service-error.js';
import { envelope } from '../http/envelope.js';
import { parseInput } from '../http/parse-input.js';
import { caller, type Caller } from '../http/request-auth.js';
import { parseBody } from '../http/route-bodies.js';

const name = z.string().trim().min(1, 'must not be empty').max(200);
const fieldIds = z
  .array(z.string().min(1).max(200))
  .max(500)
  .refine((ids) => new Set(ids).size === ids.length, 'must not list a field twice');
const createBody = z.object({ name, fieldIds });
const patchBody = z.object({ name: name.optional(), fieldIds: fieldIds.optional() });
const idParams = z.object({ id: z.string().min(1).max(200) });

interface FieldViewRow {
  id: string;
  account_id: string;
  name: string;
  field_ids: string;
  date_created: string;
  date_last_modified: string;
}

export interface FieldView {
  id: string;
  name: string;
  fieldIds: string[];
  dateCreated: string;
  dateLastModified: string;
}

function storedIds(row: FieldViewRow): string[] {
  const parsed: unknown = JSON.parse(row.field_ids);
  return Array.isArray(parsed) ? parsed.filter((id): id is string => typeof id === 'string') : [];
}

export function registerFieldViewRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  const { db } = ctx;
  const list = db.prepare<[string], FieldViewRow>('SELECT * FROM field_views WHERE account_id = ? ORDER BY name COLLATE NOCASE, id');
  const byId = db.prepare<[string, string], FieldViewRow>('SELECT * FROM field_views WHERE account_id = ? AND id = ?');
  const byName = db.prepare<[string, string], FieldViewRow>('SELECT * FROM field_views WHERE account_id = ? AND name = ? COLLATE NOCASE');
  const insert = db.prepare('INSERT INTO field_views (id, account_id, name, field_ids, date_created, date_last_modified) VALUES (@id, @account_id, @name, @field_ids, @date_created, @date_last_modified)');
  const update = db.prepare('UPDATE field_views SET name = @name, field_ids = @field_ids, date_last_modified = @date_last_modified WHERE id = @id');
  const remove = db.prepare('DELETE FROM field_views WHERE id = ?');

  const render = (row: FieldViewRow): FieldView => {
    const existing = new Set(ctx.fields.list(row.account_id).map((field) => field.id));
    return { id: row.id, name: row.name, fieldIds: storedIds(row).filter((id) => existing.has(id)), dateCreated: row.date_created, dateLastModified: row.date_last_modified };
  };
  const load = (accountId: string, request: FastifyRequest): FieldViewRow => {
    const { id } = parseInput(idParams, request.params, 'INVALID_PATH');
    const row = byId.get(accountId, id);
    if (row === undefined) throw notFound('field view', id);
    return row;
  };
  const admin = (request: FastifyRequest): Caller => {
    const who = caller(request);
    requireAccountAction(who.role, 'FIELD_VIEWS', 'MANAGE');
    return who;
  };
  const checkFields = (accountId: string, ids: readonly string[]): void => {
    ids.forEach((id, index) => {
      if (ctx.fields.get(accountId, id) === undefined) throw new ServiceError('INVALID_BODY', `Invalid request: fieldIds.${index}: no field with id ${JSON.stringify(id)} in this account.`);
    });
  };
  const checkName = (accountId: string, wanted: string, self?: string): void => {
    const holder = byName.get(accountId, wanted);
    if (holder !== undefined && holder.id !== self) throw new ServiceError('FIELD_VIEW_NAME_TAKEN', `A field view named "${wanted}" already exists.`);
  };

  app.get('/field-views', async (request) => {
    const rows = list.all(caller(request).accountId);
    return { results: rows.map((row) => envelope(render(row))), totalResults: rows.length };
  });

  app.post('/field-views', { config: { body: createBody } }, async (request) => {
    const who = admin(request);
    const body = parseBody(request, createBody);
    checkName(who.accountId, body.name);
    checkFields(who.accountId, body.fieldIds);
    const now = ctx.nowIso();
    const row: FieldViewRow = { id: timeOrderedUuid(), account_id: who.accountId, name: body.name, field_ids: JSON.stringify(body.fieldIds), date_created: now, date_last_modified: now };
    insert.run(row);
    return envelope(render(row));
  });

  app.get('/field-views/:id', async (request) => envelope(render(load(caller(request).accountId, request))));

  app.patch('/field-views/:id', { config: { body: patchBody } }, async (request) => {
    const who = admin(request);
    const row = load(who.accountId, request);
    const body = parseBody(request, patchBody);
    if (body.name !== undefined) checkName(who.accountId, body.name, row.id);
    if (body.fieldIds !== undefined) checkFields(who.accountId, body.fieldIds);
    const next: FieldViewRow = { ...row, name: body.name ?? row.name, field_ids: body.fieldIds === undefined ? row.field_ids : JSON.stringify(body.fieldIds), date_last_modified: ctx.nowIso() };
    update.run(next);
    return envelope(render(next));
  });

  app.delete('/field-views/:id', async (request) => {
    const who = admin(request);
    const row = load(who.accountId, request);
    remove.run(row.id);
    return envelope(render(row));
  });
}
