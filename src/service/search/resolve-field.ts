/**
 * Turns a field reference of a criterion or sort into a target the compilers know how to query:
 * a column of the asset (fixed fields), the stored values of a field (custom fields and KEYWORDS), or
 * collection membership (COLLECTIONS), or nothing (KEYWORDS in an account without that field). Rejects unknown names and ids, and V1 names with their V2 replacement.
 * Never builds SQL from the reference itself: only constant expressions and ids checked to exist.
 */
import type { ServiceError } from '../errors/service-error.js';
import type { FieldRef } from './criterion-schema.js';
import { FIXED_FIELDS, FIXED_FIELD_NAMES, isFixedFieldName, V1_FIELD_NAMES, type ColumnField } from './fixed-fields.js';
import type { SearchAccount } from './search-account.js';
import { v1Name } from './search-errors.js';

export type FieldTarget =
  | (ColumnField & { label: string })
  | { kind: 'values'; label: string; fieldId: string; options: boolean; hierarchical: boolean }
  | { kind: 'collections'; label: string }
  | { kind: 'nothing'; label: string };

export type Fail = (path: string, problem: string) => ServiceError;

export function resolveField(account: SearchAccount, ref: FieldRef, path: string, fail: Fail): FieldTarget {
  if (ref.type === 'FIELD') {
    const field = account.field(ref.fieldId);
    if (field === undefined) throw fail(`${path}.fieldId`, `no field with id ${JSON.stringify(ref.fieldId)} in this account`);
    return { kind: 'values', label: `field "${field.name}"`, fieldId: field.id, options: field.hasFixedOptions, hierarchical: field.hierarchical };
  }
  const name = ref.fieldName;
  const replacement = V1_FIELD_NAMES[name];
  if (replacement !== undefined) throw v1Name(`${path}.fieldName`, name, replacement);
  if (!isFixedFieldName(name)) {
    throw fail(`${path}.fieldName`, `unknown fixed field ${JSON.stringify(name)}; expected one of ${FIXED_FIELD_NAMES.join(', ')}`);
  }
  const fixed = FIXED_FIELDS[name];
  if (fixed.kind === 'column') return { ...fixed, label: name };
  if (fixed.kind === 'collections') return { kind: 'collections', label: name };
  const keywords = account.keywordsField();
  if (keywords === undefined) return { kind: 'nothing', label: name };
  return { kind: 'values', label: name, fieldId: keywords.id, options: false, hierarchical: false };
}
