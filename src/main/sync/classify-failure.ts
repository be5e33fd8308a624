/**
 * What a failed operation means for its file: a stable reason code, a message for people, and when to
 * try again (capped exponential backoff per path, so one failing file never stalls the rest). Failures
 * that retrying cannot fix (a name the service refuses, a permission) wait much longer.
 */
import { isApiError } from '../api/index.js';
import { LocalError } from '../local/index.js';
import { SyncError } from '../model/sync-error.js';

export interface FailureVerdict {
  reason: string;
  detail: string;
  /** Delay before the next attempt, ms. */
  retryInMs: number;
}

const BASE_MS = 5_000;
const MAX_TRANSIENT_MS = 15 * 60_000;
const PERMANENT_MS = 60 * 60_000;

export function classifyFailure(error: unknown, attempts: number): FailureVerdict {
  const backoff = Math.min(MAX_TRANSIENT_MS, BASE_MS * 2 ** Math.min(attempts, 12));
  if (isApiError(error)) {
    // A 401 is no verdict on the file: the client has already refreshed its token and asked again (a
    // signed part URL that says it is a fresh URL away), so it waits as a transient failure.
    const permanent = error.status !== undefined && error.status < 500 && error.status !== 401;
    const retryInMs = error.retryable ? Math.max(backoff, error.retryAfterMs ?? 0) : permanent ? PERMANENT_MS : backoff;
    return { reason: error.code, detail: error.message, retryInMs };
  }
  if (error instanceof SyncError) {
    const retryInMs = error.code === 'INVALID_NAME' ? PERMANENT_MS : error.code === 'LOCAL_FILE_CHANGED' ? 0 : backoff;
    return { reason: error.code, detail: error.message, retryInMs };
  }
  if (error instanceof LocalError) return { reason: error.code, detail: error.message, retryInMs: backoff };
  const message = error instanceof Error ? error.message : String(error);
  return { reason: 'INTERNAL', detail: `unexpected error: ${message}`, retryInMs: backoff };
}
