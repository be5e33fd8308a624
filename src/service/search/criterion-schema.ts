/**
 * The shape of the asset criterion language (API.md §5) and of sorts, as zod schemas and the types they
 * produce. Parsing checks structure only: whether a field exists, and what its values mean, is decided
 * when compiling (compile-criterion.ts), because that needs the account. Never touches the database.
 *
 * Criterion types: AND {criteria[]}, OR {criteria[]}, NOT {criterion}, MATCH_ALL,
 * FIELD_EQUALS {field, value, includeSubfolders?}, FIELD_IN / FIELD_HAS_ANY_EQUAL {field, values[],
 * includeSubfolders?}, FIELD_IS_EMPTY {field}, FIELD_EXISTS {field}, FIELD_MATCHES {field, value}.
 * Unknown properties are ignored (API.md §1).
 */
import { z } from 'zod';
import { checkCriterionLimits, MAX_IN_VALUES } from './criterion-limits.js';
import { formatPath, invalidCriterion, invalidSort } from './search-errors.js';
import { withoutAbsentNulls } from '../http/null-as-absent.js';

/** Longest text value a criterion may carry (same bound as a stored metadata value). */
export const MAX_CRITERION_TEXT = 10_000;
export const MAX_SORTS = 10;

export type FieldRef = { type: 'FIXED'; fieldName: string } | { type: 'FIELD'; fieldId: string };
export type ScalarValue = string | number | boolean;

export type LeafCriterion =
  | { type: 'FIELD_EQUALS'; field: FieldRef; value: ScalarValue; includeSubfolders?: boolean | undefined }
  | { type: 'FIELD_IN' | 'FIELD_HAS_ANY_EQUAL'; field: FieldRef; values: ScalarValue[]; includeSubfolders?: boolean | undefined }
  | { type: 'FIELD_IS_EMPTY' | 'FIELD_EXISTS'; field: FieldRef }
  | { type: 'FIELD_MATCHES'; field: FieldRef; value: ScalarValue };

export type Criterion =
  | { type: 'AND' | 'OR'; criteria: Criterion[] }
  | { type: 'NOT'; criterion: Criterion }
  | { type: 'MATCH_ALL' }
  | LeafCriterion;

export type SortOrder = 'ASC' | 'DESC';
export interface Sort {
  field: FieldRef;
  order: SortOrder;
}

const id = z.string().min(1).max(200);
export const fieldRefSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('FIXED'), fieldName: z.string().min(1).max(100) }),
  z.object({ type: z.literal('FIELD'), fieldId: id }),
]);

const scalar = z.union([z.string().max(MAX_CRITERION_TEXT), z.number(), z.boolean()]);
const includeSubfolders = z.boolean().optional();

export const criterionSchema: z.ZodType<Criterion> = z.lazy(() =>
  z.discriminatedUnion('type', [
    z.object({ type: z.literal('AND'), criteria: z.array(criterionSchema).min(1, 'needs at least one criterion') }),
    z.object({ type: z.literal('OR'), criteria: z.array(criterionSchema).min(1, 'needs at least one criterion') }),
    z.object({ type: z.literal('NOT'), criterion: criterionSchema }),
    z.object({ type: z.literal('MATCH_ALL') }),
    z.object({ type: z.literal('FIELD_EQUALS'), field: fieldRefSchema, value: scalar, includeSubfolders }),
    z.object({ type: z.literal('FIELD_IN'), field: fieldRefSchema, values: z.array(scalar).max(MAX_IN_VALUES), includeSubfolders }),
    z.object({ type: z.literal('FIELD_HAS_ANY_EQUAL'), field: fieldRefSchema, values: z.array(scalar).max(MAX_IN_VALUES), includeSubfolders }),
    z.object({ type: z.literal('FIELD_IS_EMPTY'), field: fieldRefSchema }),
    z.object({ type: z.literal('FIELD_EXISTS'), field: fieldRefSchema }),
    z.object({ type: z.literal('FIELD_MATCHES'), field: fieldRefSchema, value: scalar }),
  ]),
);

export const sortsSchema = z
  .array(z.object({ field: fieldRefSchema, order: z.enum(['ASC', 'DESC']).default('ASC') }))
  .max(MAX_SORTS, `at most ${MAX_SORTS} sorts`);

/** What the input holds at `path`, to quote it back in a message. */
function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let node = input;
  for (const key of path) {
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Record<PropertyKey, unknown>)[key];
  }
  return node;
}

function describe(input: unknown, issue: z.core.$ZodIssue): string {
  const received = valueAt(input, issue.path);
  const last = issue.path[issue.path.length - 1];
  if (last === 'type' && issue.code === 'invalid_union' && received !== undefined) {
    return `unknown type ${JSON.stringify(received)} (${issue.message})`;
  }
  return issue.message;
}

/** Validates a criterion from a request body; `root` names it in messages (e.g. `criterion`, `selector.criterion`). */
export function parseCriterion(input: unknown, root = 'criterion'): Criterion {
  if (input === undefined || input === null) throw invalidCriterion(root, 'a criterion is required (use {"type":"MATCH_ALL"} to match everything)');
  checkCriterionLimits(input, root);
  // `includeSubfolders: null` is "not given", as on every optional request property.
  const given = withoutAbsentNulls(criterionSchema, input);
  const parsed = criterionSchema.safeParse(given);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  if (issue === undefined) throw invalidCriterion(root, 'not a valid criterion');
  throw invalidCriterion(formatPath(root, issue.path), describe(given, issue));
}

export function parseSorts(input: unknown, root = 'sorts'): Sort[] {
  if (input === undefined || input === null) throw invalidSort(root, 'sorts are required (an empty array sorts by asset id)');
  // `order: null` is "not given" (ASC), as on every optional request property.
  const given = withoutAbsentNulls(sortsSchema, input);
  const parsed = sortsSchema.safeParse(given);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  if (issue === undefined) throw invalidSort(root, 'not a valid list of sorts');
  throw invalidSort(formatPath(root, issue.path), describe(given, issue));
}
