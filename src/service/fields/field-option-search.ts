/**
 * `POST /field-option-searches`: the criterion language of API.md §5 over field options, whose fields
 * have plain names (`FIELD_ID`, `PARENT_ID`, `VALUE`, `ID`, `POSITION`) instead of asset field
 * references. Parsed by hand rather than with zod so every error names the exact place in the
 * criterion (`criterion.criteria[1].field`), and compiled to parameterised SQL: user values only ever
 * travel as bound parameters.
 */
import { ServiceError } from '../errors/service-error.js';
import { checkCriterionLimits } from '../search/criterion-limits.js';

export const OPTION_FIELDS = ['FIELD_ID', 'PARENT_ID', 'VALUE', 'ID', 'POSITION'] as const;
export type OptionField = (typeof OPTION_FIELDS)[number];

const columns: Record<OptionField, string> = {
  FIELD_ID: 'o.field_id',
  PARENT_ID: 'o.parent_id',
  VALUE: 'o.value',
  ID: 'o.id',
  POSITION: 'o.position',
};

const MAX_LEAVES = 200;
const MAX_VALUES = 1000;

export interface CompiledQuery {
  /** A boolean SQL expression over the alias `o` (field_options). */
  where: string;
  params: (string | number)[];
}

type Value = string | number;

interface Walk {
  leaves: number;
  params: Value[];
}

const isRecord = (input: unknown): input is Record<string, unknown> => typeof input === 'object' && input !== null && !Array.isArray(input);

function invalid(where: string, problem: string): ServiceError {
  return new ServiceError('INVALID_CRITERION', `${where} ${problem}.`);
}

/** A field reference: a plain name, or `{ type: "FIXED", fieldName }` as asset searches spell it. */
export function optionField(input: unknown, where: string, code: 'INVALID_CRITERION' | 'INVALID_SORT' = 'INVALID_CRITERION'): OptionField {
  const name = isRecord(input) && input.type === 'FIXED' ? input.fieldName : input;
  const known = OPTION_FIELDS.find((field) => field === name);
  if (known === undefined) {
    const shown = typeof name === 'string' ? `"${name}"` : 'not a field name';
    throw new ServiceError(code, `${where} is ${shown}; option searches use ${OPTION_FIELDS.join(', ')}.`);
  }
  return known;
}

function scalar(input: unknown, field: OptionField, where: string): Value {
  if (field === 'POSITION') {
    if (typeof input !== 'number' || !Number.isSafeInteger(input)) throw invalid(where, 'must be a whole number for POSITION');
    return input;
  }
  if (typeof input !== 'string' || input.length > 10_000) throw invalid(where, 'must be a string of at most 10,000 characters');
  return input;
}

/** `*` matches any run of characters; LIKE's own wildcards and the escape character are literal. */
function likePattern(wildcard: string): string {
  return wildcard.replace(/[\\%_]/g, (special) => `\\${special}`).replace(/\*/g, '%');
}

function compileNode(input: unknown, where: string, walk: Walk): string {
  if (!isRecord(input)) throw invalid(where, 'must be an object with a "type"');
  const type = input.type;
  switch (type) {
    case 'MATCH_ALL':
      return '1';
    case 'AND':
    case 'OR': {
      const criteria = input.criteria;
      if (!Array.isArray(criteria) || criteria.length === 0) throw invalid(`${where}.criteria`, 'must be a non-empty array');
      const parts = criteria.map((child: unknown, index) => compileNode(child, `${where}.criteria[${index}]`, walk));
      return `(${parts.join(type === 'AND' ? ' AND ' : ' OR ')})`;
    }
    case 'NOT':
      return `NOT (${compileNode(input.criterion, `${where}.criterion`, walk)})`;
    case 'FIELD_EQUALS':
    case 'FIELD_IN':
    case 'FIELD_HAS_ANY_EQUAL':
    case 'FIELD_IS_EMPTY':
    case 'FIELD_EXISTS':
    case 'FIELD_MATCHES':
      if (++walk.leaves > MAX_LEAVES) throw invalid(where, `has more than ${MAX_LEAVES} conditions`);
      return compileLeaf(type, input, where, walk);
    default:
      throw invalid(`${where}.type`, `is ${typeof type === 'string' ? `"${type}"` : 'missing'}; use AND, OR, NOT, MATCH_ALL, FIELD_EQUALS, FIELD_IN, FIELD_IS_EMPTY, FIELD_EXISTS or FIELD_MATCHES`);
  }
}

function compileLeaf(type: string, input: Record<string, unknown>, where: string, walk: Walk): string {
  const field = optionField(input.field, `${where}.field`);
  const column = columns[field];
  switch (type) {
    case 'FIELD_EQUALS':
      walk.params.push(scalar(input.value, field, `${where}.value`));
      return `${column} = ?`;
    case 'FIELD_IN':
    case 'FIELD_HAS_ANY_EQUAL': {
      const values = input.values;
      if (!Array.isArray(values) || values.length > MAX_VALUES) throw invalid(`${where}.values`, `must be an array of at most ${MAX_VALUES} values`);
      if (values.length === 0) return '0';
      for (const [index, value] of values.entries()) walk.params.push(scalar(value, field, `${where}.values[${index}]`));
      return `${column} IN (${values.map(() => '?').join(', ')})`;
    }
    case 'FIELD_IS_EMPTY':
      return `${column} IS NULL`;
    case 'FIELD_EXISTS':
      return `${column} IS NOT NULL`;
    default: {
      if (field === 'POSITION') throw invalid(`${where}.field`, 'cannot be matched with wildcards; use FIELD_EQUALS or FIELD_IN');
      const value = input.value;
      if (typeof value !== 'string' || value.length > 10_000) throw invalid(`${where}.value`, 'must be a string with * wildcards');
      walk.params.push(likePattern(value));
      return `${column} LIKE ? ESCAPE '\\'`;
    }
  }
}

/** Compiles a criterion (required: an absent one is a 400, as on the hosted service). */
export function compileOptionCriterion(criterion: unknown): CompiledQuery {
  if (criterion === undefined) throw new ServiceError('INVALID_CRITERION', 'A search needs a "criterion"; use {"type":"MATCH_ALL"} for everything.');
  // The service's one bound on depth and size, before anything recursive touches the criterion.
  checkCriterionLimits(criterion, 'criterion');
  const walk: Walk = { leaves: 0, params: [] };
  const where = compileNode(criterion, 'criterion', walk);
  return { where, params: walk.params };
}

/** `ORDER BY` for option sorts; position then id when none are given, id always last for stability. */
export function compileOptionSorts(sorts: unknown): string {
  if (sorts === undefined) return 'o.position ASC, o.id ASC';
  if (!Array.isArray(sorts) || sorts.length > 5) throw new ServiceError('INVALID_SORT', 'sorts must be an array of at most 5 {field, order} objects.');
  const terms = sorts.map((sort: unknown, index) => {
    const where = `sorts[${index}]`;
    if (!isRecord(sort)) throw new ServiceError('INVALID_SORT', `${where} must be an object with "field" and "order".`);
    const field = optionField(sort.field, `${where}.field`, 'INVALID_SORT');
    const order = sort.order ?? 'ASC';
    if (order !== 'ASC' && order !== 'DESC') throw new ServiceError('INVALID_SORT', `${where}.order must be "ASC" or "DESC".`);
    return `${columns[field]}${field === 'VALUE' ? ' COLLATE NOCASE' : ''} ${order}`;
  });
  return [...terms, 'o.id ASC'].join(', ');
}
