/**
 * Abuse guard for criteria, run on the raw JSON before anything recursive touches it: bounds nesting
 * depth, the number of nodes and the number of listed values, so a hostile body can neither blow the
 * stack of the validator nor produce SQL with more parameters than SQLite binds.
 * Walks iteratively and stops at the first excess; it never judges the shape (the schema does that).
 * Every criterion language of the service (assets, field options, collections, shares, presets,
 * download events) is bounded by these same limits, with the same INVALID_CRITERION answer.
 */
import { z } from 'zod';
import { invalidCriterion } from './search-errors.js';

/** Deepest nesting of AND/OR/NOT (the top criterion is depth 1). */
export const MAX_CRITERION_DEPTH = 12;
/** Nodes (combinators and leaves together) in one criterion. */
export const MAX_CRITERION_NODES = 200;
/** Values of one FIELD_IN. */
export const MAX_IN_VALUES = 1000;
/** Values listed across the whole criterion. */
export const MAX_TOTAL_VALUES = 5000;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

export function checkCriterionLimits(input: unknown, root: string): void {
  const stack: { node: unknown; depth: number }[] = [{ node: input, depth: 1 }];
  let nodes = 0;
  let values = 0;
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    const { node, depth } = item;
    if (!isObject(node)) continue;
    nodes += 1;
    if (depth > MAX_CRITERION_DEPTH) throw invalidCriterion(root, `nested deeper than ${MAX_CRITERION_DEPTH} levels`);
    if (nodes > MAX_CRITERION_NODES) throw invalidCriterion(root, `more than ${MAX_CRITERION_NODES} criteria`);
    if (Array.isArray(node.values)) values += node.values.length;
    if (values > MAX_TOTAL_VALUES) throw invalidCriterion(root, `more than ${MAX_TOTAL_VALUES} values in all`);
    if (Array.isArray(node.criteria)) {
      if (node.criteria.length > MAX_CRITERION_NODES) throw invalidCriterion(root, `more than ${MAX_CRITERION_NODES} criteria`);
      for (const child of node.criteria as unknown[]) stack.push({ node: child, depth: depth + 1 });
    }
    if (node.criterion !== undefined) stack.push({ node: node.criterion, depth: depth + 1 });
  }
}

/**
 * `schema` behind the limits: they are checked on the raw JSON before the schema's own recursive
 * parse, and an excess throws INVALID_CRITERION (naming `root`) rather than becoming a schema issue.
 * An absent criterion is left to the schema or the route.
 */
export function withinCriterionLimits<T>(schema: z.ZodType<T>, root = 'criterion'): z.ZodType<T> {
  return z.preprocess((input) => {
    if (input !== undefined && input !== null) checkCriterionLimits(input, root);
    return input;
  }, schema);
}
