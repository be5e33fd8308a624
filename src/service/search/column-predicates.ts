/**
 * Leaf predicates on a column of the asset (the fixed fields other than KEYWORDS and COLLECTIONS):
 * equality and lists, emptiness, wildcard text and ranges, per column type. Every value is converted for
 * its type and bound as a parameter; every predicate is two-valued (see `definitely`).
 */
import { dateRangeSql, definitely, escapedLikeSql, numberRangeSql, textRangeSql } from './compare-sql.js';
import { asBoolean, asDate, asEnum, asMatch, asText, dateBound, textOrNumberBounds } from './criterion-values.js';
import type { ColumnField } from './fixed-fields.js';
import type { LeafOp, PathedValue } from './leaf-op.js';
import { invalidCriterion } from './search-errors.js';
import type { SqlParams } from './sql-params.js';
import { fileNameMatchSql } from './text-prefilter.js';
import { wildcardToLike } from './wildcard-pattern.js';

export type ColumnTarget = ColumnField & { label: string };

function equalsSql(target: ColumnTarget, values: PathedValue[], params: SqlParams): string {
  const { expr, label } = target;
  if (values.length === 0) return '0';
  switch (target.type) {
    case 'boolean':
      return `${expr} IN (${params.bindAll(values.map(({ value, path }) => (asBoolean(value, path, label) ? 1 : 0)))})`;
    case 'date': {
      const spans = values.map(({ value, path }) => asDate(value, path, label));
      return definitely(`(${spans.map((span) => dateRangeSql(expr, { value: span, inclusive: true }, { value: span, inclusive: true }, params)).join(' OR ')})`, target.nullable);
    }
    case 'enum': {
      const allowed = target.enumValues ?? [];
      return definitely(`${expr} IN (${params.bindAll(values.map(({ value, path }) => asEnum(value, path, label, allowed)))})`, target.nullable);
    }
    case 'text': {
      const texts = values.map(({ value, path }) => asText(value, path, label));
      return definitely(`${expr} IN (${params.bindAll(target.lowerCase === true ? texts.map((text) => text.toLowerCase()) : texts)})`, target.nullable);
    }
  }
}

function matchesSql(target: ColumnTarget, { value, path }: PathedValue, params: SqlParams): string {
  const { expr, label } = target;
  if (target.type === 'boolean') throw invalidCriterion(path, `${label} is true or false; use FIELD_EQUALS`);
  const match = asMatch(value, path, label);
  if (match.kind === 'pattern') {
    const like = wildcardToLike(match.text).pattern;
    const exact = definitely(escapedLikeSql(expr, like, params), target.nullable);
    return target.fileNameTrigrams === true ? fileNameMatchSql(like, exact, params) : exact;
  }
  if (target.type === 'enum') throw invalidCriterion(path, `${label} takes no range; use FIELD_IN`);
  if (target.type === 'date') {
    // Not wrapped in `definitely`: a date range is two-valued already, and bare it can use an index.
    return dateRangeSql(expr, dateBound(match.lower, path, label), dateBound(match.upper, path, label), params, target.sinceIndexed === true);
  }
  const bounds = textOrNumberBounds(match.lower, match.upper);
  const sql = bounds.numeric ? numberRangeSql(expr, bounds.lower, bounds.upper, params) : textRangeSql(expr, bounds.lower, bounds.upper, params);
  return definitely(sql, target.nullable);
}

export function columnPredicate(target: ColumnTarget, leaf: LeafOp, params: SqlParams): string {
  switch (leaf.op) {
    case 'equals':
      return equalsSql(target, leaf.values, params);
    case 'empty':
      return target.nullable ? `${target.expr} IS NULL` : '0';
    case 'exists':
      return target.nullable ? `${target.expr} IS NOT NULL` : '1';
    case 'matches':
      return matchesSql(target, leaf.value, params);
  }
}
