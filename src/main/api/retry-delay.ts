/**
 * Pure retry timing: capped exponential backoff with full jitter, and the parsing of `Retry-After`
 * (delta seconds or an HTTP date). The retry loop (with-retries.ts) asks it how long to wait; it never
 * sleeps, reads the clock or draws random numbers itself — all are passed in, so tests are tables.
 */

export interface BackoffPolicy {
  /** The ceiling of the first retry's delay, ms. */
  baseMs: number;
  /** No computed delay exceeds this, ms. */
  maxMs: number;
}

export const DEFAULT_BACKOFF: BackoffPolicy = { baseMs: 250, maxMs: 30_000 };

/**
 * How long to wait before retry number `attempt` (1 for the first retry). A server's Retry-After wins
 * when given; otherwise a uniformly random delay in [0, min(maxMs, baseMs · 2^(attempt−1))) ("full
 * jitter"), so many clients that failed together do not come back together.
 * @param random a number in [0, 1), e.g. Math.random()
 */
export function retryDelay(attempt: number, random: number, policy: BackoffPolicy = DEFAULT_BACKOFF, retryAfterMs?: number): number {
  if (retryAfterMs !== undefined && Number.isFinite(retryAfterMs)) return Math.max(0, Math.round(retryAfterMs));
  const exponent = Math.min(Math.max(attempt, 1) - 1, 52);
  const ceiling = Math.min(policy.maxMs, policy.baseMs * 2 ** exponent);
  const unit = Math.min(Math.max(random, 0), 1);
  return Math.floor(ceiling * unit);
}

/**
 * `Retry-After` as milliseconds from `now`: `"120"` → 120000, an HTTP date → the time until it (0 when
 * past). Undefined when absent or unreadable.
 */
export function parseRetryAfter(value: string | undefined, now: number): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (text === '') return undefined;
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  if (/^\d+\.\d+$/.test(text)) return Math.round(Number(text) * 1000);
  // Only the IMF-fixdate and the two obsolete HTTP date forms have letters; a bare number is not a date.
  if (!/[a-z]/i.test(text)) return undefined;
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}
