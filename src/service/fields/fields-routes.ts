/** `/fields` and `/folder-settings`: the account's metadata schema. Only admins change it. */
import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import type { ServiceContext } from '../context.js';
import { envelope } from '../http/envelope.js';
import { parseInput } from '../http/parse-input.js';
import { parseBody } from '../http/route-bodies.js';
import { caller } from '../http/request-auth.js';
import { ServiceError, notFound } from '../errors/service-error.js';
import { permittedActions, requireAccountAction, requireAction } from '../auth/permissions.js';
import { toField, type FieldRecord } from './fields-repo.js';

const fieldName = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(200, 'must be at most 200 characters')
  // eslint-disable-next-line no-control-regex -- a name is one line of text: no NUL, no line breaks
  .refine((name) => !/[\u0000-\u001f\u007f]/.test(name), 'must not contain control characters');
const createBody = z.object({
  name: fieldName,
  hasFixedOptions: z.boolean().default(false),
  hierarchical: z.boolean().default(false),
  multiValue: z.boolean().default(false),
});
const patchBody = z.object({ name: fieldName.optional(), multiValue: z.boolean().optional() });
const idParams = z.object({ id: z.string().min(1).max(200) });

export function registerFieldRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  const load = (accountId: string, id: string): FieldRecord => {
    const field = ctx.fields.get(accountId, id);
    if (field === undefined) throw notFound('field', id);
    return field;
  };

  // A bare array, ordered by name, as the hosted service answers [real, observed].
  app.get('/fields', async (request) => ctx.fields.list(caller(request).accountId).map(toField));

  app.post('/fields', { config: { body: createBody } }, async (request) => {
    const who = caller(request);
    requireAccountAction(who.role, 'FIELDS', 'CREATE_FIELDS');
    const body = parseBody(request, createBody);
    if (body.hierarchical && !body.hasFixedOptions) {
      throw new ServiceError('INVALID_BODY', 'Only a field with fixed options can be hierarchical.');
    }
    if (ctx.fields.nameTaken(who.accountId, body.name)) throw new ServiceError('FIELD_NAME_TAKEN', `A field named "${body.name}" already exists.`);
    const field = ctx.fields.create(who.accountId, body, ctx.nowIso());
    return envelope(toField(field), permittedActions(who.role, 'FIELD', field.id));
  });

  app.get('/fields/:id', async (request) => {
    const who = caller(request);
    const { id } = parseInput(idParams, request.params, 'INVALID_PATH');
    return envelope(toField(load(who.accountId, id)), permittedActions(who.role, 'FIELD', id));
  });

  app.patch('/fields/:id', { config: { body: patchBody } }, async (request) => {
    const who = caller(request);
    const { id } = parseInput(idParams, request.params, 'INVALID_PATH');
    const field = load(who.accountId, id);
    requireAction(who.role, 'FIELD', 'EDIT');
    const body = parseBody(request, patchBody);
    if (body.name !== undefined && body.name !== field.name && ctx.fields.nameTaken(who.accountId, body.name)) {
      throw new ServiceError('FIELD_NAME_TAKEN', `A field named "${body.name}" already exists.`);
    }
    if (field.role === 'FOLDERS' && body.multiValue === false) {
      throw new ServiceError('INVALID_BODY', 'The Folders field is always multi-value.');
    }
    const updated = { ...field, name: body.name ?? field.name, multiValue: body.multiValue ?? field.multiValue };
    ctx.fields.update(updated);
    return envelope(toField(updated), permittedActions(who.role, 'FIELD', id));
  });

  app.delete('/fields/:id', async (request) => {
    const who = caller(request);
    const { id } = parseInput(idParams, request.params, 'INVALID_PATH');
    const field = load(who.accountId, id);
    requireAction(who.role, 'FIELD', 'DELETE');
    if (field.indestructable) throw new ServiceError('FIELD_INDESTRUCTABLE', `"${field.name}" is built in and cannot be deleted.`);
    ctx.fields.remove(who.accountId, id);
    return envelope(toField(field));
  });

  app.get('/folder-settings', async (request) => {
    const folders = ctx.fields.byRole(caller(request).accountId, 'FOLDERS');
    if (folders === undefined) throw new ServiceError('INTERNAL', 'The account has no Folders field.');
    return envelope({ fieldId: folders.id });
  });
}
