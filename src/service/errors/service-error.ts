/**
 * Expected failures of the service: a stable `code` from the catalogue, an optional message that says
 * what exactly was wrong, and context for logs. Bugs are plain `Error`s and become 500 INTERNAL.
 */
import { errorCatalogue, type ErrorCode } from './catalogue.js';

export class ServiceError extends Error {
  override readonly name = 'ServiceError';
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    message?: string,
    readonly headers: Record<string, string> = {},
    options?: { cause?: unknown },
  ) {
    super(message ?? errorCatalogue[code].message, options);
    this.status = errorCatalogue[code].status;
  }
}

/** Shorthand for the most common failure: an id that does not exist or is not visible to the caller. */
export function notFound(what: string, id: string): ServiceError {
  return new ServiceError('NOT_FOUND', `No ${what} with id ${JSON.stringify(id)}.`);
}
