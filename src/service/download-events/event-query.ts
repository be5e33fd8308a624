/**
 * Compiles a download-event criterion and sorts into SQL over `download_events e`, reusing the asset
 * search's language and leaf compilers (criterion-schema.ts, leaf-op.ts, column-predicates.ts): the same
 * AND / OR / NOT, FIELD_EQUALS / FIELD_IN / FIELD_IS_EMPTY / FIELD_EXISTS / FIELD_MATCHES (wildcards and
 * `[a TO b]` ranges), the same 400s naming the path. Only fixed event fields exist (event-fields.ts).
 * `where` always confines to the caller's account. Builds SQL; never runs it.
 */
import { columnPredicate, type ColumnTarget } from '../search/column-predicates.js';
import { parseCriterion, parseSorts, type Criterion, type FieldRef } from '../search/criterion-schema.js';
import { toLeafOp } from '../search/leaf-op.js';
import type { Fail } from '../search/resolve-field.js';
import { invalidCriterion, invalidSort } from '../search/search-errors.js';
import { SqlParams, type SqlValue } from '../search/sql-params.js';
import { EVENT_FIELDS, EVENT_FIELD_NAMES, isEventFieldName } from './event-fields.js';

export interface EventQuery {
  where: string;
  orderBy: string;
  params: Record<string, SqlValue>;
}

/** The column a field reference names, or a 400 at `path`. */
export function eventColumn(ref: FieldRef, path: string, fail: Fail): ColumnTarget {
  if (ref.type !== 'FIXED') throw fail(`${path}.type`, 'download events have only fixed fields; use {"type":"FIXED","fieldName":…}');
  if (!isEventFieldName(ref.fieldName)) {
    throw fail(`${path}.fieldName`, `unknown download event field ${JSON.stringify(ref.fieldName)}; expected one of ${EVENT_FIELD_NAMES.join(', ')}`);
  }
  return { ...EVENT_FIELDS[ref.fieldName], label: ref.fieldName };
}

function compile(criterion: Criterion, params: SqlParams, path: string): string {
  switch (criterion.type) {
    case 'MATCH_ALL':
      return '1';
    case 'NOT':
      return `(NOT ${compile(criterion.criterion, params, `${path}.criterion`)})`;
    case 'AND':
    case 'OR':
      return `(${criterion.criteria.map((child, index) => compile(child, params, `${path}.criteria[${index}]`)).join(` ${criterion.type} `)})`;
    default: {
      const target = eventColumn(criterion.field, `${path}.field`, invalidCriterion);
      const op = toLeafOp(criterion, path);
      if (op.op === 'equals' && op.includeSubfolders) throw invalidCriterion(`${path}.includeSubfolders`, 'download event fields have no sub-options');
      return columnPredicate(target, op, params);
    }
  }
}

/** Validates and compiles the criterion and sorts of a request body (events newest first when unsorted). */
export function compileEventQuery(accountId: string, criterionInput: unknown, sortsInput: unknown): EventQuery {
  const params = new SqlParams('p');
  const criterion = parseCriterion(criterionInput);
  const sorts = parseSorts(sortsInput ?? []);
  const sql = compile(criterion, params, 'criterion');
  const keys = sorts.map((sort, index) => {
    const target = eventColumn(sort.field, `sorts[${index}].field`, invalidSort);
    return `${target.expr} ${sort.order}${target.nullable ? ' NULLS LAST' : ''}`;
  });
  // The id is time-ordered: it breaks ties in a stable order, and alone it sorts by time.
  const last = sorts[sorts.length - 1]?.order ?? 'DESC';
  keys.push(`e.id ${last}`);
  return { where: `e.account_id = ${params.bind(accountId)} AND ${sql}`, orderBy: keys.join(', '), params: params.values };
}
