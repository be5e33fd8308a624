/**
 * Turns a failure below HTTP (Node's or got's: refused, reset, timed out, aborted) into an ApiError
 * with code NETWORK, TIMEOUT or ABORTED. got's error holds the request options, headers and all, so it
 * is never kept as the cause: only its name, code and message are, in a fresh Error.
 */
import { ApiError, describeUrl } from './api-error.js';

/** Failures that prove the request never left this machine, so even a non-idempotent call may be retried. */
const NOT_SENT_CODES: ReadonlySet<string> = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL']);
const PRE_SEND_TIMEOUTS: ReadonlySet<string> = new Set(['lookup', 'connect', 'secureConnect']);

interface ErrorFacts {
  name: string;
  code: string | undefined;
  message: string;
  event: string | undefined;
}

function factsOf(error: unknown): ErrorFacts {
  if (!(error instanceof Error)) return { name: 'Error', code: undefined, message: String(error), event: undefined };
  const record = error as Error & { code?: unknown; event?: unknown };
  return {
    name: error.name,
    code: typeof record.code === 'string' ? record.code : undefined,
    message: error.message,
    event: typeof record.event === 'string' ? record.event : undefined,
  };
}

/** A copy of the error that keeps what helps diagnose it and drops everything that could hold a secret. */
function sanitisedCause(facts: ErrorFacts): Error {
  const cause = new Error(facts.message.replace(/https?:\/\/\S+/g, (url) => describeUrl(url)));
  cause.name = facts.name;
  if (facts.code !== undefined) Object.assign(cause, { code: facts.code });
  return cause;
}

export function transportError(error: unknown, method: string, url: URL | string): ApiError {
  if (error instanceof ApiError) return error;
  const facts = factsOf(error);
  const where = `${method} ${describeUrl(url)}`;
  const base = { method, path: describeUrl(url), cause: sanitisedCause(facts) };
  if (facts.code === 'ERR_ABORTED' || facts.name === 'AbortError') {
    return new ApiError({ ...base, code: 'ABORTED', message: `${where} was cancelled.` });
  }
  if (facts.name === 'TimeoutError' || facts.code === 'ETIMEDOUT') {
    const sent = facts.event === undefined || !PRE_SEND_TIMEOUTS.has(facts.event);
    return new ApiError({ ...base, code: 'TIMEOUT', retryable: true, maybeApplied: sent, message: `${where} timed out${facts.event === undefined ? '' : ` (${facts.event})`}.` });
  }
  const sent = facts.code === undefined || !NOT_SENT_CODES.has(facts.code);
  return new ApiError({
    ...base,
    code: 'NETWORK',
    retryable: true,
    maybeApplied: sent,
    message: `${where} failed: ${facts.code ?? facts.name}: ${facts.message.replace(/https?:\/\/\S+/g, (link) => describeUrl(link))}`,
  });
}
