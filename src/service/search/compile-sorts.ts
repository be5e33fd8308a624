/**
 * Compiles sorts into sort keys: an SQL expression per key, its direction, and whether it can be NULL
 * (assets without a value sort last in both directions). The asset id always ends the order as a
 * tie-breaker, in the direction of the last key, so the order is total and keyset paging is exact.
 * Multi-value fields sort by their smallest value ascending and their largest descending; option fields
 * sort by the option's value (its label), not its id; text sorts ignore ASCII case.
 * Never puts a request value into SQL: only constant expressions and bound field ids.
 */
import type { Sort, SortOrder } from './criterion-schema.js';
import { ASSET_ID_SQL } from './fixed-fields.js';
import { resolveField, type FieldTarget } from './resolve-field.js';
import type { SearchAccount } from './search-account.js';
import { invalidSort } from './search-errors.js';
import type { SqlParams } from './sql-params.js';

export interface SortKey {
  /** SQL over `assets a`, including its collation. */
  sql: string;
  direction: SortOrder;
  nullable: boolean;
}

function keyOf(target: FieldTarget, direction: SortOrder, path: string, params: SqlParams): SortKey {
  switch (target.kind) {
    case 'column':
      return { sql: target.sortNoCase === true ? `${target.expr} COLLATE NOCASE` : target.expr, direction, nullable: target.nullable };
    case 'values': {
      const pick = direction === 'ASC' ? 'min' : 'max';
      const field = params.bind(target.fieldId);
      const sql = target.options
        ? `(SELECT ${pick}(o.value COLLATE NOCASE) FROM asset_values v JOIN field_options o ON o.id = v.value WHERE v.asset_id = a.id AND v.field_id = ${field})`
        : `(SELECT ${pick}(v.value COLLATE NOCASE) FROM asset_values v WHERE v.asset_id = a.id AND v.field_id = ${field})`;
      return { sql: `${sql} COLLATE NOCASE`, direction, nullable: true };
    }
    case 'collections':
    case 'nothing':
      throw invalidSort(`${path}.fieldName`, `${target.label} cannot be sorted on`);
  }
}

export function compileSorts(account: SearchAccount, sorts: readonly Sort[], params: SqlParams, root = 'sorts'): SortKey[] {
  return sorts.map((sort, index) => {
    const path = `${root}[${index}].field`;
    return keyOf(resolveField(account, sort.field, path, invalidSort), sort.order, path, params);
  });
}

/** The direction of the asset-id tie-breaker: that of the last key (so an index on (key, id) serves both). */
export function tieBreakerDirection(keys: readonly SortKey[]): SortOrder {
  return keys[keys.length - 1]?.direction ?? 'ASC';
}

export function orderByClause(keys: readonly SortKey[]): string {
  const parts = keys.map((key) => `${key.sql} ${key.direction}${key.nullable ? ' NULLS LAST' : ''}`);
  // A sort on the asset id is already total: no tie-breaker after it.
  if (!keys.some((key) => key.sql === ASSET_ID_SQL)) parts.push(`${ASSET_ID_SQL} ${tieBreakerDirection(keys)}`);
  return parts.join(', ');
}
