/**
 * Compiles a parsed criterion (criterion-schema.ts) into a boolean SQL expression over `assets a`, with
 * every request value bound as a parameter. Combinators map onto AND / OR / NOT; leaves go to the
 * compiler of their target (column-predicates.ts, value-predicates.ts, collection-predicates.ts). Also reports whether the criterion names the lifecycle state anywhere, for
 * the default LIVE filter (asset-query.ts), and whether it is selective: true when every asset it matches
 * must pass a leaf the indexes answer directly (equality on a field's values or on the asset id, or a
 * wildcard match with a literal run the trigram indexes narrow: text-prefilter.ts), reached through AND,
 * or through OR where every branch is selective). Never concatenates a request value into SQL.
 */
import { collectionsPredicate } from './collection-predicates.js';
import { asMatch } from './criterion-values.js';
import { columnPredicate } from './column-predicates.js';
import type { Criterion, LeafCriterion } from './criterion-schema.js';
import { STATE_FIELD_NAMES } from './fixed-fields.js';
import { toLeafOp, type LeafOp } from './leaf-op.js';
import { resolveField, type FieldTarget } from './resolve-field.js';
import type { SearchAccount } from './search-account.js';
import { invalidCriterion } from './search-errors.js';
import type { SqlParams } from './sql-params.js';
import { hasTrigrams } from './text-prefilter.js';
import { valuesPredicate } from './value-predicates.js';

export interface CompiledCriterion {
  /** A boolean SQL expression over `assets a`. */
  sql: string;
  /** True when some leaf names LIFECYCLE_STATE or STAGED (then no default state filter applies). */
  mentionsState: boolean;
  /** Matching assets can be found from an index lookup of one of its leaves (see the header). */
  selective: boolean;
}

function leafSql(target: FieldTarget, leaf: LeafOp): (params: SqlParams) => string {
  switch (target.kind) {
    case 'column':
      return (params) => columnPredicate(target, leaf, params);
    case 'values':
      return (params) => valuesPredicate(target, leaf, params);
    case 'collections':
      return (params) => collectionsPredicate(target.label, leaf, params);
    case 'nothing':
      // KEYWORDS in an account without a Keywords field: empty on every asset.
      return () => (leaf.op === 'empty' ? '1' : '0');
  }
}

function compileLeaf(account: SearchAccount, leaf: LeafCriterion, path: string, params: SqlParams): CompiledCriterion {
  const target = resolveField(account, leaf.field, `${path}.field`, invalidCriterion);
  const op = toLeafOp(leaf, path);
  if (op.op === 'equals' && op.includeSubfolders && !(target.kind === 'values' && target.options && target.hierarchical)) {
    throw invalidCriterion(`${path}.includeSubfolders`, `${target.label} has no sub-options; includeSubfolders applies to hierarchical option fields such as Folders`);
  }
  const mentionsState = leaf.field.type === 'FIXED' && STATE_FIELD_NAMES.includes(leaf.field.fieldName);
  const sql = leafSql(target, op)(params);
  return { sql, mentionsState, selective: isSelective(target, op) };
}

/** Whether an index lookup of this leaf alone finds every asset it matches (see the header). */
function isSelective(target: FieldTarget, op: LeafOp): boolean {
  if (op.op === 'equals') return op.values.length > 0 && (target.kind === 'values' || target.kind === 'collections' || (target.kind === 'column' && target.selective === true));
  if (op.op !== 'matches') return false;
  const textIndexed = (target.kind === 'values' && !target.options) || (target.kind === 'column' && target.fileNameTrigrams === true);
  if (!textIndexed) return false;
  const match = asMatch(op.value.value, op.value.path, target.label);
  return match.kind === 'pattern' && hasTrigrams(match.text);
}

export function compileCriterion(account: SearchAccount, criterion: Criterion, params: SqlParams, path = 'criterion'): CompiledCriterion {
  switch (criterion.type) {
    case 'MATCH_ALL':
      return { sql: '1', mentionsState: false, selective: false };
    case 'NOT': {
      const inner = compileCriterion(account, criterion.criterion, params, `${path}.criterion`);
      return { sql: `(NOT ${inner.sql})`, mentionsState: inner.mentionsState, selective: false };
    }
    case 'AND':
    case 'OR': {
      const parts = criterion.criteria.map((child, index) => compileCriterion(account, child, params, `${path}.criteria[${index}]`));
      return {
        sql: `(${parts.map((part) => part.sql).join(` ${criterion.type} `)})`,
        mentionsState: parts.some((part) => part.mentionsState),
        selective: criterion.type === 'AND' ? parts.some((part) => part.selective) : parts.every((part) => part.selective),
      };
    }
    default:
      return compileLeaf(account, criterion, path, params);
  }
}
