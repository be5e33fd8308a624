/**
 * ApiError: every expected failure of the API client (and of sign-in, which talks to the same
 * servers) as one class with a stable `code` that retry and UI decisions switch on. It sits at the
 * bottom of src/main/api/: every other module throws it. It must never carry the bearer token, a
 * request's headers, or the query of a signed URL: errors get logged, shown and sent over IPC.
 */
import type { ErrorBody } from '../../shared/api/resources.js';
import { parseRetryAfter } from './retry-delay.js';

/** Codes the client derives itself when the answer has none (the service's own codes pass through). */
export type DerivedCode =
  | 'NETWORK'
  | 'TIMEOUT'
  | 'BAD_REQUEST'
  | 'UNAUTHENTICATED'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'CONFLICT'
  | 'GONE'
  | 'PAYLOAD_TOO_LARGE'
  | 'RANGE_NOT_SATISFIABLE'
  | 'RATE_LIMITED'
  | 'CLIENT_ERROR'
  | 'SERVER_ERROR'
  | 'INVALID_RESPONSE'
  | 'JOB_FAILED'
  | 'JOB_TIMEOUT'
  | 'UNEXPECTED_REDIRECT'
  | 'ABORTED';

export interface ApiErrorInit {
  code: string;
  message: string;
  /** HTTP status, or undefined when no answer arrived. */
  status?: number | undefined;
  retryable?: boolean;
  retryAfterMs?: number | undefined;
  /** `GET`, `POST`, … */
  method?: string | undefined;
  /** Origin + path of the request, never its query. */
  path?: string | undefined;
  /**
   * True when the request may have reached the server and had its effect although no answer says so
   * (connection lost after sending, 502/504). A non-idempotent call must be reconciled before a retry.
   */
  maybeApplied?: boolean;
  /** The service's error body, when it sent one. */
  body?: ErrorBody | undefined;
  cause?: unknown;
}

export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly code: string;
  readonly status: number | undefined;
  readonly retryable: boolean;
  readonly retryAfterMs: number | undefined;
  readonly method: string | undefined;
  readonly path: string | undefined;
  readonly maybeApplied: boolean;
  readonly body: ErrorBody | undefined;

  constructor(init: ApiErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.code = init.code;
    this.status = init.status;
    this.retryable = init.retryable ?? false;
    this.retryAfterMs = init.retryAfterMs;
    this.method = init.method;
    this.path = init.path;
    this.maybeApplied = init.maybeApplied ?? false;
    this.body = init.body;
  }

  /** The plain form that crosses IPC and goes into logs. */
  toJSON(): { name: string; code: string; message: string; status?: number; retryable: boolean; retryAfterMs?: number } {
    return {
      name: this.name,
      code: this.code,
      message: this.message,
      retryable: this.retryable,
      ...(this.status === undefined ? {} : { status: this.status }),
      ...(this.retryAfterMs === undefined ? {} : { retryAfterMs: this.retryAfterMs }),
    };
  }
}

export function isApiError(error: unknown, code?: string): error is ApiError {
  return error instanceof ApiError && (code === undefined || error.code === code);
}

/** The request's answer, or undefined when the service says there is no such resource (NOT_FOUND); any other failure is thrown. */
export async function unlessNotFound<T>(request: Promise<T>): Promise<T | undefined> {
  try {
    return await request;
  } catch (error) {
    if (isApiError(error, 'NOT_FOUND')) return undefined;
    throw error;
  }
}

/** Where a request went, for messages: origin and path only (a signed URL's query is a credential). */
export function describeUrl(url: string | URL): string {
  if (typeof url === 'string' && url.startsWith('/')) return url.split(/[?#]/)[0] ?? url;
  try {
    const parsed = typeof url === 'string' ? new URL(url) : url;
    return `${parsed.origin}${parsed.pathname}`;
  } catch {
    return '(invalid URL)';
  }
}

/** Service codes that ask for a retry although their status alone would not. */
const RETRYABLE_CODES: ReadonlySet<string> = new Set(['PART_UPLOAD_IN_PROGRESS', 'UNAVAILABLE', 'RATE_LIMITED']);

export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

export function derivedCode(status: number): DerivedCode {
  switch (status) {
    case 400:
    case 422:
      return 'BAD_REQUEST';
    case 401:
      return 'UNAUTHENTICATED';
    case 403:
      return 'FORBIDDEN';
    case 404:
      return 'NOT_FOUND';
    case 408:
      return 'TIMEOUT';
    case 409:
      return 'CONFLICT';
    case 410:
      return 'GONE';
    case 413:
      return 'PAYLOAD_TOO_LARGE';
    case 416:
      return 'RANGE_NOT_SATISFIABLE';
    case 429:
      return 'RATE_LIMITED';
    default:
      if (status < 400) return 'UNEXPECTED_REDIRECT';
      return status >= 500 ? 'SERVER_ERROR' : 'CLIENT_ERROR';
  }
}

export interface ResponseFacts {
  method: string;
  url: string | URL;
  status: number;
  /** The Retry-After header, if any. */
  retryAfter?: string | undefined;
  /** The answer's text (may be empty, JSON, XML or HTML). */
  bodyText: string;
  now: number;
  /**
   * The answer comes from an OAuth endpoint: without our `code`, RFC 6749's `error` string becomes
   * `OAUTH_<ERROR>` (the same codes the local service sends).
   */
  oauth?: boolean;
}

/** The ApiError for a 4xx/5xx answer. */
export function apiErrorFromResponse(facts: ResponseFacts): ApiError {
  const body = parseErrorBody(facts.bodyText);
  const retryAfterMs = parseRetryAfter(facts.retryAfter, facts.now);
  let code: string = derivedCode(facts.status);
  if (typeof body?.code === 'string' && /^[A-Z][A-Z0-9_]*$/.test(body.code)) code = body.code;
  else if (facts.oauth === true && typeof body?.error === 'string' && /^[a-z_]+$/.test(body.error)) code = `OAUTH_${body.error.toUpperCase()}`;
  const detail = pickMessage(body) ?? `HTTP ${facts.status}`;
  const where = `${facts.method} ${describeUrl(facts.url)}`;
  return new ApiError({
    code,
    status: facts.status,
    message: `${where} failed with ${facts.status} ${code}: ${detail}`,
    retryable: isRetryableStatus(facts.status) || RETRYABLE_CODES.has(code),
    retryAfterMs,
    method: facts.method,
    path: describeUrl(facts.url),
    maybeApplied: facts.status === 502 || facts.status === 504,
    body: body === undefined ? undefined : toErrorBody(body, facts.status, describeUrl(facts.url)),
  });
}

/** An answer that arrived but cannot be what the contract says (bad JSON, missing id, …). */
export function invalidResponse(method: string, url: string | URL, problem: string, cause?: unknown): ApiError {
  return new ApiError({
    code: 'INVALID_RESPONSE',
    message: `${method} ${describeUrl(url)} answered something unexpected: ${problem}`,
    method,
    path: describeUrl(url),
    cause,
  });
}

type LooseBody = Partial<Record<'code' | 'message' | 'error' | 'error_description' | 'timestamp' | 'path', unknown>>;

function parseErrorBody(text: string): LooseBody | undefined {
  if (text.trim() === '' || !text.trimStart().startsWith('{')) return undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

function pickMessage(body: LooseBody | undefined): string | undefined {
  for (const candidate of [body?.message, body?.error_description, body?.error]) {
    if (typeof candidate === 'string' && candidate.trim() !== '') return candidate.slice(0, 500);
  }
  return undefined;
}

function toErrorBody(body: LooseBody, status: number, path: string): ErrorBody {
  const text = (value: unknown, fallback: string): string => (typeof value === 'string' ? value : fallback);
  const result: ErrorBody = {
    timestamp: text(body.timestamp, ''),
    status,
    error: text(body.error, ''),
    message: text(body.message, text(body.error_description, '')),
    path: text(body.path, path),
  };
  if (typeof body.code === 'string') result.code = body.code;
  return result;
}

/** The ApiError for a job or batch item that failed with an error body (no HTTP answer of its own). */
export function apiErrorFromBody(body: ErrorBody | null | undefined, context: { method: string; path: string; fallbackCode: string; what: string }): ApiError {
  const status = body?.status !== undefined && body.status > 0 ? body.status : undefined;
  let code = context.fallbackCode;
  if (body?.code !== undefined && body.code !== '') code = body.code;
  else if (status !== undefined) code = derivedCode(status);
  const detail = body?.message !== undefined && body.message !== '' ? body.message : 'no reason given';
  return new ApiError({
    code,
    status,
    message: `${context.what} failed with ${code}: ${detail}`,
    retryable: (status !== undefined && isRetryableStatus(status)) || RETRYABLE_CODES.has(code),
    method: context.method,
    path: context.path,
    body: body ?? undefined,
  });
}
