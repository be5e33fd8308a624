/** Renders any failure as the API.md §1 error body. */
import { STATUS_CODES } from 'node:http';
import type { ErrorBody } from '../../shared/api/resources.js';

export function toErrorBody(status: number, code: string, message: string, path: string, now: Date = new Date()): ErrorBody {
  return {
    timestamp: now.toISOString(),
    status,
    error: STATUS_CODES[status] ?? 'Error',
    message,
    path,
    code,
  };
}
