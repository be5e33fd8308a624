/**
 * The 400s of the criterion language, each naming where in the request the problem is
 * (`criterion.criteria[1].field.fieldName`), so a person or a program can act on it.
 * Only builds errors; it never decides what is valid.
 */
import { ServiceError } from '../errors/service-error.js';

/** `['criteria', 1, 'field']` under `criterion` → `criterion.criteria[1].field`. */
export function formatPath(root: string, segments: readonly PropertyKey[]): string {
  let path = root;
  for (const segment of segments) {
    path += typeof segment === 'number' ? `[${segment}]` : `.${String(segment)}`;
  }
  return path;
}

export function invalidCriterion(path: string, problem: string): ServiceError {
  return new ServiceError('INVALID_CRITERION', `Invalid criterion at ${path}: ${problem}.`);
}

export function invalidSort(path: string, problem: string): ServiceError {
  return new ServiceError('INVALID_SORT', `Invalid sort at ${path}: ${problem}.`);
}

export function v1Name(path: string, name: string, replacement: string): ServiceError {
  return new ServiceError('UNSUPPORTED_V1_NAME', `${path}: "${name}" is a V1 name; use "${replacement}" (API version 2).`);
}
