/**
 * Leaf predicates on stored metadata values (custom fields and KEYWORDS): "the asset has a value of
 * field F that …", as `a.id IN (SELECT asset_id FROM asset_values …)` so SQLite can drive the search
 * from the (field_id, value, asset_id) index. Text fields compare the text; option fields compare option
 * ids, except FIELD_MATCHES, which matches the option's value (its label).
 *
 * Sub-options: `includeSubfolders: true` on FIELD_EQUALS / FIELD_IN of a hierarchical option field (the
 * Folders field) also matches assets filed under any descendant of the given options, found with a
 * recursive CTE over field_options.parent_id (UNION, so even a corrupt cycle terminates).
 */
import { idBoundMark } from './id-bound.js';
import { escapedLikeSql, likeSql, numberRangeSql, textRangeSql } from './compare-sql.js';
import { asMatch, asText, textOrNumberBounds } from './criterion-values.js';
import type { LeafOp } from './leaf-op.js';
import { invalidCriterion } from './search-errors.js';
import type { SqlParams } from './sql-params.js';
import { valueMatchSql } from './text-prefilter.js';
import { wildcardToLike } from './wildcard-pattern.js';

export interface ValuesTarget {
  kind: 'values';
  label: string;
  fieldId: string;
  options: boolean;
  hierarchical: boolean;
}

/**
 * `byRowid`: the condition names the rows (from a text index), so the field is only checked on them
 * (`+v.field_id`: not an index key, else SQLite reads every value of the field instead).
 */
function hasValue(target: ValuesTarget, params: SqlParams, condition?: string, byRowid = false): string {
  const field = params.bind(target.fieldId);
  return `a.id IN (SELECT v.asset_id FROM asset_values v WHERE ${idBoundMark('v')}${byRowid ? '+' : ''}v.field_id = ${field}${condition === undefined ? '' : ` AND ${condition}`})`;
}

function withDescendants(target: ValuesTarget, ids: string, params: SqlParams): string {
  return (
    `(WITH RECURSIVE tree(id) AS (` +
    `SELECT o.id FROM field_options o WHERE o.field_id = ${params.bind(target.fieldId)} AND o.id IN (${ids}) ` +
    `UNION SELECT c.id FROM field_options c JOIN tree ON c.parent_id = tree.id) SELECT id FROM tree)`
  );
}

export function valuesPredicate(target: ValuesTarget, leaf: LeafOp, params: SqlParams): string {
  const { label } = target;
  switch (leaf.op) {
    case 'equals': {
      if (leaf.values.length === 0) return '0';
      const ids = params.bindAll(leaf.values.map(({ value, path }) => asText(value, path, label)));
      return hasValue(target, params, `v.value IN ${leaf.includeSubfolders ? withDescendants(target, ids, params) : `(${ids})`}`);
    }
    case 'empty':
      return `(NOT ${hasValue(target, params)})`;
    case 'exists':
      return hasValue(target, params);
    case 'matches': {
      const { value, path } = leaf.value;
      const match = asMatch(value, path, label);
      if (target.options) {
        if (match.kind === 'range') throw invalidCriterion(path, `${label} holds options; ranges apply to text, number and date fields`);
        const field = params.bind(target.fieldId);
        return hasValue(target, params, `v.value IN (SELECT o.id FROM field_options o WHERE o.field_id = ${field} AND ${likeSql('o.value', match.text, params)})`);
      }
      if (match.kind === 'pattern') {
        const like = wildcardToLike(match.text).pattern;
        const exact = escapedLikeSql('v.value', like, params);
        const narrowed = valueMatchSql(like, exact, params);
        return hasValue(target, params, narrowed, narrowed !== exact);
      }
      const bounds = textOrNumberBounds(match.lower, match.upper);
      return hasValue(target, params, bounds.numeric ? numberRangeSql('v.value', bounds.lower, bounds.upper, params) : textRangeSql('v.value', bounds.lower, bounds.upper, params));
    }
  }
}
