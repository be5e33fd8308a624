/**
 * One shape for the five leaf types, so each target kind (column, stored values, nothing) handles
 * `equals` / `empty` / `exists` / `matches` once: FIELD_EQUALS is FIELD_IN with one value, and
 * FIELD_HAS_ANY_EQUAL is FIELD_IN under its observed alias. Each value keeps its path for messages.
 */
import type { LeafCriterion, ScalarValue } from './criterion-schema.js';

export interface PathedValue {
  value: ScalarValue;
  path: string;
}

export type LeafOp =
  | { op: 'equals'; values: PathedValue[]; includeSubfolders: boolean }
  | { op: 'empty' }
  | { op: 'exists' }
  | { op: 'matches'; value: PathedValue };

export function toLeafOp(leaf: LeafCriterion, path: string): LeafOp {
  switch (leaf.type) {
    case 'FIELD_EQUALS':
      return { op: 'equals', values: [{ value: leaf.value, path: `${path}.value` }], includeSubfolders: leaf.includeSubfolders === true };
    case 'FIELD_IN':
    case 'FIELD_HAS_ANY_EQUAL':
      return {
        op: 'equals',
        values: leaf.values.map((value, index) => ({ value, path: `${path}.values[${index}]` })),
        includeSubfolders: leaf.includeSubfolders === true,
      };
    case 'FIELD_IS_EMPTY':
      return { op: 'empty' };
    case 'FIELD_EXISTS':
      return { op: 'exists' };
    case 'FIELD_MATCHES':
      return { op: 'matches', value: { value: leaf.value, path: `${path}.value` } };
  }
}
