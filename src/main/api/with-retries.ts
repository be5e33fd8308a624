/**
 * The bounded retry loop every request of the client goes through: it runs an attempt, and when the
 * attempt fails with a retryable ApiError it waits (retry-delay.ts) and tries again, at most
 * `attempts` times in all. A Retry-After longer than `maxRetryAfterMs` is not waited out here: the
 * error goes up with its `retryAfterMs`, and the engine's per-item backoff schedules it.
 * It must never retry anything but an ApiError that says it is retryable (or that `shouldRetry` allows).
 */
import { ApiError } from './api-error.js';
import type { ClientClock } from './client-clock.js';
import { DEFAULT_BACKOFF, retryDelay, type BackoffPolicy } from './retry-delay.js';

export interface RetryPolicy extends BackoffPolicy {
  /** Attempts in all, the first included (1 = never retry). */
  attempts: number;
  /** A Retry-After above this is handed to the caller instead of waited out, ms. */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { ...DEFAULT_BACKOFF, attempts: 5, maxRetryAfterMs: 120_000 };

export interface RetryContext {
  clock: ClientClock;
  /** [0, 1) */
  random: () => number;
  policy: RetryPolicy;
  signal?: AbortSignal | undefined;
}

export function abortedError(method?: string, path?: string): ApiError {
  return new ApiError({ code: 'ABORTED', message: 'The request was cancelled.', method, path });
}

export async function withRetries<T>(
  context: RetryContext,
  run: (attempt: number) => Promise<T>,
  shouldRetry: (error: ApiError) => boolean = (error) => error.retryable,
): Promise<T> {
  const { clock, random, policy, signal } = context;
  for (let attempt = 1; ; attempt++) {
    if (signal?.aborted === true) throw abortedError();
    try {
      return await run(attempt);
    } catch (error) {
      if (!(error instanceof ApiError) || !shouldRetry(error) || attempt >= policy.attempts) throw error;
      if (error.retryAfterMs !== undefined && error.retryAfterMs > policy.maxRetryAfterMs) throw error;
      const wait = retryDelay(attempt, random(), policy, error.retryAfterMs);
      try {
        await clock.sleep(wait, signal);
      } catch {
        throw abortedError(error.method, error.path);
      }
    }
  }
}
