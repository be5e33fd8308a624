/**
 * Turns every failure into the error body of API.md §1. Fastify's own errors (bad JSON, body too large,
 * wrong content type) get codes from our catalogue; anything unexpected is logged and becomes 500
 * INTERNAL without leaking its message.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ServiceError } from '../errors/service-error.js';
import { errorCatalogue, type ErrorCode } from '../errors/catalogue.js';
import { toErrorBody } from '../errors/to-error-body.js';

const fastifyCodes: Record<string, ErrorCode> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'INVALID_JSON',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'INVALID_JSON',
  FST_ERR_CTP_BODY_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'INVALID_BODY',
  FST_ERR_BAD_URL: 'INVALID_PATH',
  FST_ERR_VALIDATION: 'INVALID_BODY',
};

export function sendError(reply: FastifyReply, request: FastifyRequest, error: ServiceError): FastifyReply {
  const path = request.url.split('?')[0] ?? request.url;
  return reply
    .code(error.status)
    .headers(error.headers)
    .header('cache-control', 'no-store')
    .type('application/json; charset=utf-8')
    .send(toErrorBody(error.status, error.code, error.message, path));
}

/**
 * Fastify's `frameworkErrors` option: a malformed URL (a broken %-escape) or an over-long path parameter
 * fails in the router, before any route or error handler exists, and fastify would answer with its own
 * `{ statusCode, code: 'FST_ERR_…' }` body. These are answered in our shape instead.
 */
export function handleFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const failure =
    error.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? new ServiceError('INVALID_PATH', 'A path parameter is longer than allowed.')
      : error.code === 'FST_ERR_BAD_URL'
        ? new ServiceError('INVALID_PATH', 'The URL is not validly %-encoded.')
        : new ServiceError('INTERNAL');
  void sendError(reply, request, failure);
}

export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | ServiceError | Error, request, reply) => {
    if (error instanceof ServiceError) return sendError(reply, request, error);
    const mapped = 'code' in error && typeof error.code === 'string' ? fastifyCodes[error.code] : undefined;
    if (mapped !== undefined) {
      const detail = mapped === 'INVALID_JSON' ? `${errorCatalogue.INVALID_JSON.message} ${error.message}` : undefined;
      return sendError(reply, request, new ServiceError(mapped, detail));
    }
    // Client errors fastify raises that we have no specific code for (e.g. a malformed header) stay 4xx.
    const status = 'statusCode' in error && typeof error.statusCode === 'number' ? error.statusCode : 500;
    if (status >= 400 && status < 500) {
      return sendError(reply, request, new ServiceError('INVALID_BODY', error.message));
    }
    request.log.error({ err: error }, 'unhandled error');
    return sendError(reply, request, new ServiceError('INTERNAL'));
  });
  app.setNotFoundHandler((request, reply) =>
    sendError(reply, request, new ServiceError('ROUTE_NOT_FOUND', `No endpoint ${request.method} ${request.url.split('?')[0] ?? ''}.`)),
  );
}
