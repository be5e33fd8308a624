/**
 * Field options (API.md §6): get one with its parent chain, search, create in synchronous batches,
 * rename/move/reorder, delete when unused. The Folders field's options are the folders, so names there
 * follow the remote-path rules both sides share (no `/`, `.`, `..`, control characters, ≤ 255 bytes),
 * and what a folder-limited caller may see and change of them is the folder policy's to say
 * (groups/folder-policy.ts): every route here asks it.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { ErrorBody } from '../../shared/api/resources.js';
import { nameProblem } from '../../shared/api/remote-path.js';
import type { ServiceContext } from '../context.js';
import { envelope } from '../http/envelope.js';
import { parseInput } from '../http/parse-input.js';
import { parseBody } from '../http/route-bodies.js';
import { requiredByHandler } from '../http/null-as-absent.js';
import { caller, type Caller } from '../http/request-auth.js';
import { ServiceError, notFound } from '../errors/service-error.js';
import { toErrorBody } from '../errors/to-error-body.js';
import { permittedActions, requireAccountAction, requireAction } from '../auth/permissions.js';
import { batchOf } from '../uploads/upload-items.js';
import type { FieldRecord } from './fields-repo.js';
import type { OptionRow } from './field-options-repo.js';
import { compileOptionCriterion, compileOptionSorts } from './field-option-search.js';
import { statementCache } from '../db/statement-cache.js';

const PAGING_LIMIT = 10_000;
const id = z.string().min(1).max(200);
const idParams = z.object({ id });
const position = z.number().int().min(0).max(1_000_000);
const value = z.string().min(1, 'must not be empty').max(1000);

const patchBody = z.object({ value: value.optional(), parentId: id.nullish(), position: position.optional() });
const batchBody = batchOf(z.object({ batchItemId: z.string().min(1).max(200).optional(), fieldId: id, value, position: position.optional(), parentId: id.nullish() }));
const searchBody = z.object({
  from: z.number().int().min(0).max(PAGING_LIMIT).default(0),
  pageSize: z.number().int().min(0).max(1000).default(100),
  // Required; compileOptionCriterion reports it missing (absent or null alike).
  criterion: requiredByHandler(z.unknown()),
  sorts: z.unknown().optional(),
});

export function registerFieldOptionRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  const options = ctx.fieldOptions;
  const policy = ctx.folderPolicy;
  const render = (who: Caller, row: OptionRow) => envelope(policy.renderOption(who, row), permittedActions(who.role, 'FIELD_OPTION', row.id));
  const load = (who: Caller, params: unknown): OptionRow => {
    const { id: optionId } = parseInput(idParams, params, 'INVALID_PATH');
    return policy.requireVisibleOption(who, options.get(who.accountId, optionId), optionId);
  };
  const optionField = (who: Caller, fieldId: string): FieldRecord => {
    const field = ctx.fields.get(who.accountId, fieldId);
    if (field === undefined) throw notFound('field', fieldId);
    if (!field.hasFixedOptions) throw new ServiceError('INVALID_BODY', `"${field.name}" has no fixed options; its values are plain text.`);
    return field;
  };
  /** The value normalised, or a 400 naming what is wrong with it. */
  const checkValue = (field: FieldRecord, raw: string): string => {
    const normalised = raw.normalize('NFC');
    const problem = field.role === 'FOLDERS' ? nameProblem(normalised) : normalised.trim() === '' ? 'is blank' : undefined;
    if (problem !== undefined) throw new ServiceError('INVALID_BODY', `The ${field.role === 'FOLDERS' ? 'folder name' : 'option value'} ${problem}.`);
    return normalised;
  };
  const checkParent = (who: Caller, field: FieldRecord, parentId: string | null | undefined): string | null => {
    if (parentId === undefined || parentId === null) return null;
    if (!field.hierarchical) throw new ServiceError('INVALID_BODY', `"${field.name}" is not hierarchical; its options have no parent.`);
    const parent = options.get(who.accountId, parentId);
    // A folder the caller cannot see is answered as one that does not exist.
    if (parent?.field_id !== field.id || !policy.maySeeOption(who, parent)) throw new ServiceError('INVALID_BODY', `No option ${JSON.stringify(parentId)} of "${field.name}" to be the parent.`);
    return parent.id;
  };

  app.get('/field-options/:id', async (request) => {
    const who = caller(request);
    return render(who, load(who, request.params));
  });

  // A folder listing is one search per folder: its two statements are prepared once per shape.
  const countStatement = statementCache<{ n: number }>(ctx.db);
  const pageStatement = statementCache<OptionRow>(ctx.db);
  app.post('/field-option-searches', { config: { body: searchBody } }, async (request) => {
    const who = caller(request);
    const body = parseBody(request, searchBody);
    if (body.from + body.pageSize > PAGING_LIMIT) throw new ServiceError('PAGING_LIMIT_EXCEEDED');
    const { where, params } = compileOptionCriterion(body.criterion);
    const orderBy = compileOptionSorts(body.sorts);
    const seen = policy.optionFilter(who);
    const filter = `FROM field_options o WHERE o.account_id = ? AND ${seen.sql} AND (${where})`;
    const bound = [who.accountId, ...seen.params, ...params];
    const total = countStatement(`SELECT count(*) AS n ${filter}`).get(...bound)?.n ?? 0;
    const rows = body.pageSize === 0 ? [] : pageStatement(`SELECT o.* ${filter} ORDER BY ${orderBy} LIMIT ? OFFSET ?`).all(...bound, body.pageSize, body.from);
    return { results: rows.map((row) => render(who, row)), totalResults: total };
  });

  app.post('/field-option-batches', { config: { body: batchBody } }, async (request) => {
    const who = caller(request);
    requireAccountAction(who.role, 'FIELD_OPTIONS', 'CREATE_FIELD_OPTIONS');
    const { items } = parseBody(request, batchBody);
    const successes: Record<string, unknown> = {};
    const failures: Record<string, ErrorBody> = {};
    ctx.db.transaction(() => {
      for (const item of items) {
        const key = item.batchItemId ?? '';
        try {
          // Each item in its own savepoint: a failing one leaves no trace and does not stop the rest.
          successes[key] = ctx.db.transaction(() => {
            const field = optionField(who, item.fieldId);
            const parentId = checkParent(who, field, item.parentId);
            policy.requireCreate(who, field.id, parentId);
            const optionValue = checkValue(field, item.value);
            if (options.childByValue(field.id, parentId, optionValue) !== undefined) {
              throw new ServiceError('FIELD_OPTION_CONFLICT', `"${optionValue}" already exists at that level of "${field.name}".`);
            }
            return render(who, options.create({ account_id: who.accountId, field_id: field.id, parent_id: parentId, value: optionValue, position: item.position }));
          })();
        } catch (error) {
          if (!(error instanceof ServiceError)) throw error;
          failures[key] = toErrorBody(error.status, error.code, error.message, '/field-option-batches', new Date(ctx.clock.now()));
        }
      }
    })();
    return { successes, failures };
  });

  app.patch('/field-options/:id', { config: { body: patchBody } }, async (request) => {
    const who = caller(request);
    const row = load(who, request.params);
    requireAction(who.role, 'FIELD_OPTION', 'EDIT');
    const body = parseBody(request, patchBody);
    const field = optionField(who, row.field_id);
    const next = {
      value: body.value === undefined ? row.value : checkValue(field, body.value),
      parentId: body.parentId === undefined ? row.parent_id : checkParent(who, field, body.parentId),
      position: body.position,
    };
    policy.requireChange(who, row, next.parentId);
    const changed = ctx.db.transaction(() => options.change(row, next))();
    if (changed === 'CYCLE') throw new ServiceError('FIELD_OPTION_CONFLICT', 'An option cannot move under itself or one of its descendants.');
    if (changed === 'SIBLING_VALUE_TAKEN') {
      throw new ServiceError('FIELD_OPTION_CONFLICT', `"${next.value}" already exists at that level of "${field.name}".`);
    }
    return render(who, changed);
  });

  app.delete('/field-options/:id', async (request) => {
    const who = caller(request);
    const row = load(who, request.params);
    requireAction(who.role, 'FIELD_OPTION', 'DELETE');
    policy.requireDelete(who, row);
    const before = policy.renderOption(who, row);
    const problem = ctx.db.transaction(() => options.remove(row))();
    if (problem !== undefined) throw new ServiceError('FIELD_OPTION_IN_USE', `"${row.value}" still has sub-options or is used by an asset.`);
    return envelope(before);
  });
}
