/**
 * Field options (the folders of the Folders field): get one with its parent chain, search, create in
 * batches, rename/move, delete, and list the children of one option (or the top level) with one
 * PARENT_ID search paged to the end. Search results' `parent` is never trusted (the hosted service
 * reports null there), which is why children are listed per parent.
 */
import type { FieldOption, SearchPage } from '../../shared/api/resources.js';
import { ApiError, apiErrorFromBody } from './api-error.js';
import type { Requester } from './api-client.js';
import type { BatchOutcome, Criterion, FieldOptionChange, FieldOptionInput, SearchRequest } from './asset-api.js';
import { fieldOptionSchema, parseAnswer, searchPageSchema, unwrapResult } from './wire-shapes.js';
import { z } from 'zod';

/** Paged searches reach at most this deep (API.md §5). */
export const PAGING_LIMIT = 10_000;

const optionPage = searchPageSchema(fieldOptionSchema);
const batchAnswer = z.object({
  successes: z.record(z.string(), z.unknown()).default({}),
  failures: z.record(z.string(), z.unknown()).default({}),
});

/** Children of `parentId` in `fieldId`, or its top level when `parentId` is null. */
export function childrenCriterion(fieldId: string, parentId: string | null): Criterion {
  return parentId === null
    ? { type: 'AND', criteria: [{ type: 'FIELD_EQUALS', field: 'FIELD_ID', value: fieldId }, { type: 'FIELD_IS_EMPTY', field: 'PARENT_ID' }] }
    : { type: 'FIELD_EQUALS', field: 'PARENT_ID', value: parentId };
}

export function fieldOptionResources(requester: Requester, pageSize: number) {
  const search = async (request: SearchRequest): Promise<SearchPage<FieldOption>> => {
    const body = { from: request.from ?? 0, pageSize: request.pageSize ?? pageSize, criterion: request.criterion, sorts: request.sorts };
    return parseAnswer(optionPage, await requester.json({ method: 'POST', path: '/field-option-searches', body, idempotent: true }), 'POST', '/field-option-searches');
  };

  return {
    async getFieldOption(id: string): Promise<FieldOption> {
      const path = `/field-options/${encodeURIComponent(id)}`;
      return parseAnswer(z.preprocess(unwrapResult, fieldOptionSchema), await requester.json({ method: 'GET', path }), 'GET', path);
    },

    searchFieldOptions: search,

    async listFieldOptionChildren(fieldId: string, parentId: string | null): Promise<FieldOption[]> {
      const criterion = childrenCriterion(fieldId, parentId);
      const sorts = [{ field: 'POSITION', order: 'ASC' as const }];
      const children: FieldOption[] = [];
      const seen = new Set<string>();
      for (let from = 0; ; ) {
        if (from + pageSize > PAGING_LIMIT) {
          throw new ApiError({
            code: 'PAGING_LIMIT_EXCEEDED',
            message: `The folder ${parentId ?? '(top level)'} has more than ${PAGING_LIMIT - pageSize} sub-folders; paged search cannot list them all.`,
            method: 'POST',
            path: '/field-option-searches',
          });
        }
        const page = await search({ from, pageSize, criterion, sorts });
        for (const { result } of page.results) {
          // An option that moved between two pages may show up twice; keep the first.
          if (!seen.has(result.id)) children.push(result);
          seen.add(result.id);
        }
        from += page.results.length;
        if (page.results.length === 0 || from >= page.totalResults) return children;
      }
    },

    async createFieldOptions(items: FieldOptionInput[]): Promise<BatchOutcome<FieldOption>> {
      const path = '/field-option-batches';
      // A retry after an ambiguous failure would answer FIELD_OPTION_CONFLICT for what the first try created.
      const answer = parseAnswer(batchAnswer, await requester.json({ method: 'POST', path, body: { items }, idempotent: false }), 'POST', path);
      const successes: Record<string, FieldOption> = {};
      for (const [key, value] of Object.entries(answer.successes)) {
        successes[key] = parseAnswer(z.preprocess(unwrapResult, fieldOptionSchema), value, 'POST', `${path} (successes.${key})`);
      }
      const failures: Record<string, ApiError> = {};
      for (const [key, value] of Object.entries(answer.failures)) {
        const body = z.object({ status: z.number().default(0), message: z.string().default(''), code: z.string().optional() }).safeParse(value);
        const errorBody = body.success ? { timestamp: '', error: '', path, ...body.data } : undefined;
        failures[key] = apiErrorFromBody(errorBody, { method: 'POST', path, fallbackCode: 'ITEM_FAILED', what: `Creating field option ${key}` });
      }
      return { jobId: null, successes, failures };
    },

    async changeFieldOption(id: string, change: FieldOptionChange): Promise<FieldOption> {
      const path = `/field-options/${encodeURIComponent(id)}`;
      return parseAnswer(z.preprocess(unwrapResult, fieldOptionSchema), await requester.json({ method: 'PATCH', path, body: change }), 'PATCH', path);
    },

    async deleteFieldOption(id: string): Promise<void> {
      await requester.json({ method: 'DELETE', path: `/field-options/${encodeURIComponent(id)}` });
    },
  };
}
