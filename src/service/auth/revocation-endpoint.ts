/**
 * `POST /oauth/revoke` (RFC 7009) [ours]: a client ends a sign-in. The client authenticates as at the
 * token endpoint, and its failures count toward the same throttle. The token may be a refresh token
 * (its whole family ends: the refresh tokens and every access token issued from them) or an access
 * token (its family, when it has one; otherwise that token alone). Only the client a token was issued
 * to may revoke it. A token that is unknown, expired or already revoked is answered like a revoked one
 * (200): the client's goal is reached either way, and the answer tells a stranger nothing. Answers are
 * `Cache-Control: no-store`, failures in RFC 6749's shape.
 */
import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import type { ServiceContext } from '../context.js';
import { ServiceError } from '../errors/service-error.js';
import { parseBody } from '../http/route-bodies.js';
import { authenticateClient } from './client-authentication.js';
import { sendTokenEndpointError } from './oauth-errors.js';
import { hashSecret } from './opaque-secrets.js';
import type { OAuthClient, OAuthClientsRepo } from './oauth-clients-repo.js';
import type { RefreshTokensRepo } from './refresh-tokens-repo.js';
import type { TokenRevocation } from './token-revocation.js';
import type { AttemptLimiter } from './attempt-limiter.js';

export interface RevocationEndpointDeps {
  ctx: ServiceContext;
  clients: OAuthClientsRepo;
  refreshTokens: RefreshTokensRepo;
  revocation: TokenRevocation;
  /** Failed client authentications, per client id and address (shared with the token endpoint). */
  attempts: AttemptLimiter;
}

const parameter = z.string().max(4096).optional();
const revocationRequest = z.object({
  token: parameter,
  token_type_hint: parameter,
  client_id: parameter,
  client_secret: parameter,
});

const notYours = (): ServiceError =>
  new ServiceError('OAUTH_UNAUTHORIZED_CLIENT', 'The token was issued to another client: only that client may revoke it.');

export function registerRevocationEndpoint(app: FastifyInstance, deps: RevocationEndpointDeps): void {
  app.post('/oauth/revoke', { config: { public: true, body: revocationRequest }, errorHandler: sendTokenEndpointError }, async (request, reply) => {
    const body = parseBody(request, revocationRequest, 'OAUTH_INVALID_REQUEST');
    const client = authenticateClient(deps.clients, { clientId: body.client_id, clientSecret: body.client_secret }, request.headers.authorization, { limiter: deps.attempts, address: request.ip });
    const token = body.token;
    if (token === undefined || token === '') throw new ServiceError('OAUTH_INVALID_REQUEST', 'The request has no token to revoke.');
    // RFC 7009 §2.1: the hint only orders the search; both kinds are looked for.
    if (body.token_type_hint === 'access_token') {
      if (!(await revokeAccessToken(deps, client, token))) revokeRefreshToken(deps, client, token);
    } else if (!revokeRefreshToken(deps, client, token)) {
      await revokeAccessToken(deps, client, token);
    }
    return reply.header('cache-control', 'no-store').header('pragma', 'no-cache').code(200).send();
  });
}

/** Whether the token was one of our refresh tokens (then its family is revoked). */
function revokeRefreshToken(deps: RevocationEndpointDeps, client: OAuthClient, token: string): boolean {
  const record = deps.refreshTokens.find(hashSecret(token));
  if (record === undefined) return false;
  if (record.clientId !== client.clientId) throw notYours();
  deps.ctx.db.transaction(() => deps.revocation.revokeFamily(record.familyId, deps.ctx.clock.now()))();
  return true;
}

/** Whether the token was one of our valid access tokens (then its family, or the token itself, is revoked). */
async function revokeAccessToken(deps: RevocationEndpointDeps, client: OAuthClient, token: string): Promise<boolean> {
  let claims;
  try {
    claims = await deps.ctx.tokens.verify(token);
  } catch (error) {
    // Expired, retired or not ours: there is nothing left to revoke.
    if (error instanceof ServiceError) return false;
    throw error;
  }
  // A token minted without a client (the admin's test token) may be revoked by whoever holds it.
  if (claims.clientId !== undefined && claims.clientId !== client.clientId) throw notYours();
  const now = deps.ctx.clock.now();
  const family = claims.family;
  if (family === undefined) deps.revocation.revokeAccessToken(claims.jti, claims.expiresAtMs, now);
  else deps.ctx.db.transaction(() => deps.revocation.revokeFamily(family, now))();
  return true;
}
