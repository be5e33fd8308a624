/**
 * Validates request bodies, params and queries with zod and turns a mismatch into a 400 that names the
 * offending property, so a person can act on it. A `null` on an optional property is read as "not given"
 * first (null-as-absent.ts), for every schema parsed here.
 */
import type { z } from 'zod';
import { ServiceError } from '../errors/service-error.js';
import type { ErrorCode } from '../errors/catalogue.js';
import { withoutAbsentNulls } from './null-as-absent.js';

export function parseInput<S extends z.ZodType>(schema: S, input: unknown, code: ErrorCode = 'INVALID_BODY'): z.infer<S> {
  const parsed = schema.safeParse(withoutAbsentNulls(schema, input === undefined ? {} : input));
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.slice(0, 5).map((issue) => {
    const where = issue.path.length > 0 ? issue.path.map(String).join('.') : '(body)';
    return `${where}: ${issue.message}`;
  });
  throw new ServiceError(code, `Invalid request: ${problems.join('; ')}.`);
}
