/**
 * OAuth failures in RFC 6749's words. Every failure is still a `ServiceError` with a catalogue code; this
 * module only translates the code into the standard `error` string: the token endpoint answers
 * `{ error, error_description }` on top of our usual body (§5.2), and /authorize redirects carry `error`,
 * `error_description` and `state` (§4.1.2.1). It must never put anything but a standard string in `error`,
 * nor reveal an internal failure's message.
 */
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { ServiceError } from '../errors/service-error.js';
import type { ErrorCode } from '../errors/catalogue.js';
import { toErrorBody } from '../errors/to-error-body.js';
import type { ErrorBody } from '../../shared/api/resources.js';

export type OAuthErrorName =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'unsupported_response_type'
  | 'invalid_scope'
  | 'access_denied'
  | 'server_error';

const standardNames: Partial<Record<ErrorCode, OAuthErrorName>> = {
  OAUTH_INVALID_CLIENT: 'invalid_client',
  OAUTH_INVALID_GRANT: 'invalid_grant',
  OAUTH_GRANT_REUSED: 'invalid_grant',
  OAUTH_UNAUTHORIZED_CLIENT: 'unauthorized_client',
  OAUTH_UNSUPPORTED_GRANT_TYPE: 'unsupported_grant_type',
  OAUTH_UNSUPPORTED_RESPONSE_TYPE: 'unsupported_response_type',
  OAUTH_INVALID_SCOPE: 'invalid_scope',
  OAUTH_ACCESS_DENIED: 'access_denied',
};

/** The RFC 6749 `error` string for a failure: any other client error is an `invalid_request`. */
export function oauthErrorName(error: ServiceError): OAuthErrorName {
  return standardNames[error.code] ?? (error.status >= 500 ? 'server_error' : 'invalid_request');
}

/** Our error body (API.md §1) with RFC 6749's `error` and `error_description` (§5.2). */
export type OAuthErrorBody = Omit<ErrorBody, 'error'> & { error: OAuthErrorName; error_description: string };

export function oauthErrorBody(error: ServiceError, path: string): OAuthErrorBody {
  const body = toErrorBody(error.status, error.code, error.message, path);
  return { ...body, error: oauthErrorName(error), error_description: error.message };
}

/** The query parameters an error redirect back to the client carries (RFC 6749 §4.1.2.1). */
export function errorRedirectParams(error: ServiceError, state: string | undefined): Record<string, string> {
  const params: Record<string, string> = { error: oauthErrorName(error), error_description: error.message };
  if (state !== undefined) params.state = state;
  return params;
}

/**
 * Route-level error handler of the token endpoint, so even a malformed body or a wrong content type is
 * answered in the RFC shape. Unexpected failures are logged and answered as `server_error` without detail.
 */
export function sendTokenEndpointError(error: FastifyError | Error, request: FastifyRequest, reply: FastifyReply): void {
  const path = request.url.split('?')[0] ?? request.url;
  const failure = asServiceError(error);
  if (failure.status >= 500) request.log.error({ err: error }, 'token endpoint failure');
  // Fastify types a route-level error handler as returning void; the reply is sent either way.
  void reply
    .code(failure.status)
    .headers(failure.headers)
    .header('cache-control', 'no-store')
    .header('pragma', 'no-cache')
    .type('application/json; charset=utf-8')
    .send(oauthErrorBody(failure, path));
}

function asServiceError(error: FastifyError | Error): ServiceError {
  if (error instanceof ServiceError) return error;
  const status = 'statusCode' in error && typeof error.statusCode === 'number' ? error.statusCode : 500;
  if ('code' in error && error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
    return new ServiceError('OAUTH_INVALID_REQUEST', 'Send the token request form-encoded (application/x-www-form-urlencoded) or as JSON.');
  }
  if (status >= 400 && status < 500) return new ServiceError('OAUTH_INVALID_REQUEST', error.message);
  return new ServiceError('INTERNAL');
}
