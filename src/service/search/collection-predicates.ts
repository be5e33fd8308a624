/**
 * Leaf predicates on the `COLLECTIONS` fixed field (SERVICE-SPEC §2.6): "the asset is in collection C".
 * Values are collection ids; FIELD_IS_EMPTY / FIELD_EXISTS ask whether the asset is in any collection.
 * Written as `a.id IN (SELECT … FROM collection_assets …)` so SQLite can drive a search from the
 * collection's own rows. Every value is bound; no request text reaches the SQL.
 */
import { asText } from './criterion-values.js';
import { idBoundMark } from './id-bound.js';
import type { LeafOp } from './leaf-op.js';
import { invalidCriterion } from './search-errors.js';
import type { SqlParams } from './sql-params.js';

export function collectionsPredicate(label: string, leaf: LeafOp, params: SqlParams): string {
  switch (leaf.op) {
    case 'equals': {
      if (leaf.values.length === 0) return '0';
      const ids = params.bindAll(leaf.values.map(({ value, path }) => asText(value, path, label)));
      return `a.id IN (SELECT ca.asset_id FROM collection_assets ca WHERE ${idBoundMark('ca')}ca.collection_id IN (${ids}))`;
    }
    case 'empty':
      return '(NOT EXISTS (SELECT 1 FROM collection_assets ca WHERE ca.asset_id = a.id))';
    case 'exists':
      return 'EXISTS (SELECT 1 FROM collection_assets ca WHERE ca.asset_id = a.id)';
    case 'matches':
      throw invalidCriterion(leaf.value.path, `${label} holds collection ids; use FIELD_EQUALS or FIELD_IN with them`);
  }
}
