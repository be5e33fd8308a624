/**
 * `POST /oauth/token` (RFC 6749 §3.2): reads a form-encoded or JSON body, authenticates the client and
 * runs the `authorization_code` or `refresh_token` grant. Every answer is `Cache-Control: no-store`, and
 * every failure has RFC 6749's `{ error, error_description }` on top of our error body. The client
 * credentials and password grants are deliberately unsupported (as on the hosted service). This module
 * must never answer a token without `no-store`.
 */
import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import type { ServiceContext } from '../context.js';
import { ServiceError } from '../errors/service-error.js';
import { parseBody } from '../http/route-bodies.js';
import { authenticateClient } from './client-authentication.js';
import { sendTokenEndpointError } from './oauth-errors.js';
import { exchangeAuthorizationCode, refreshAccessToken, type TokenResponse } from './token-grants.js';
import type { OAuthClientsRepo } from './oauth-clients-repo.js';
import type { AuthCodesRepo } from './auth-codes-repo.js';
import type { RefreshTokensRepo } from './refresh-tokens-repo.js';
import type { TokenRevocation } from './token-revocation.js';
import type { AttemptLimiter } from './attempt-limiter.js';

export interface TokenEndpointDeps {
  ctx: ServiceContext;
  clients: OAuthClientsRepo;
  codes: AuthCodesRepo;
  refreshTokens: RefreshTokensRepo;
  revocation: TokenRevocation;
  /** Failed client authentications, per client id and address. */
  attempts: AttemptLimiter;
}

export const SUPPORTED_GRANT_TYPES = ['authorization_code', 'refresh_token'] as const;

const parameter = z.string().max(4096).optional();
const tokenRequest = z.object({
  grant_type: parameter,
  client_id: parameter,
  client_secret: parameter,
  code: parameter,
  redirect_uri: parameter,
  code_verifier: parameter,
  refresh_token: parameter,
});

export function registerTokenEndpoint(app: FastifyInstance, deps: TokenEndpointDeps): void {
  app.post('/oauth/token', { config: { public: true, body: tokenRequest }, errorHandler: sendTokenEndpointError }, async (request, reply) => {
    const body = parseBody(request, tokenRequest, 'OAUTH_INVALID_REQUEST');
    const grantType = body.grant_type;
    if (grantType === undefined || grantType === '') throw new ServiceError('OAUTH_INVALID_REQUEST', 'The request has no grant_type.');
    if (grantType !== 'authorization_code' && grantType !== 'refresh_token') {
      throw new ServiceError(
        'OAUTH_UNSUPPORTED_GRANT_TYPE',
        `grant_type=${grantType} is not supported; use ${SUPPORTED_GRANT_TYPES.join(' or ')}.`,
      );
    }
    const client = authenticateClient(deps.clients, { clientId: body.client_id, clientSecret: body.client_secret }, request.headers.authorization, { limiter: deps.attempts, address: request.ip });

    let answer: TokenResponse;
    if (grantType === 'authorization_code') {
      answer = await exchangeAuthorizationCode(deps, client, {
        code: required(body.code, 'code'),
        redirectUri: required(body.redirect_uri, 'redirect_uri'),
        codeVerifier: body.code_verifier === '' ? undefined : body.code_verifier,
      });
    } else {
      answer = await refreshAccessToken(deps, client, required(body.refresh_token, 'refresh_token'));
    }
    return reply.header('cache-control', 'no-store').header('pragma', 'no-cache').send(answer);
  });
}

function required(value: string | undefined, name: string): string {
  if (value === undefined || value === '') throw new ServiceError('OAUTH_INVALID_REQUEST', `The request has no ${name}.`);
  return value;
}
