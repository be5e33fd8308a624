/**
 * The authorisation server on the API's origin (API.md §2): builds its stores and registers /authorize,
 * /oauth/token, /oauth/revoke and the two public discovery documents (RFC 8414 metadata and the JWKS that verifies our
 * access tokens). Every address it hands out is built from `ctx.baseUrl()`, the public URL. It must
 * never publish private key material: the JWKS comes from `publicJwks()` only.
 */
import type { FastifyInstance } from 'fastify';
import type { ServiceContext } from '../context.js';
import { oauthClientsRepo } from './oauth-clients-repo.js';
import { authCodesRepo } from './auth-codes-repo.js';
import { refreshTokensRepo } from './refresh-tokens-repo.js';
import { signInTransactions } from './sign-in-transaction.js';
import { registerAuthorizeRoutes } from './authorize-routes.js';
import { registerTokenEndpoint, SUPPORTED_GRANT_TYPES } from './token-endpoint.js';
import { registerRevocationEndpoint } from './revocation-endpoint.js';
import { tokenRevocation } from './token-revocation.js';
import { OFFLINE_ACCESS } from './authorize-request.js';
import { attemptLimiter, CLIENT_SECRET_LIMITS, SIGN_IN_LIMITS } from './attempt-limiter.js';

export function registerOAuthRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  const clients = oauthClientsRepo(ctx.db);
  const codes = authCodesRepo(ctx.db);
  const refreshTokens = refreshTokensRepo(ctx.db);
  const revocation = tokenRevocation(ctx.db, refreshTokens, ctx.config.accessTokenTtl);
  // Its own key, so a sealed sign-in form can never pass for a signed URL or the reverse.
  const transactions = signInTransactions(ctx.keys.signIn, ctx.clock);

  // One count of failed client authentications, wherever a client proves its secret.
  const clientAttempts = attemptLimiter(ctx.clock, CLIENT_SECRET_LIMITS);
  registerAuthorizeRoutes(app, { ctx, clients, codes, transactions, attempts: attemptLimiter(ctx.clock, SIGN_IN_LIMITS) });
  registerTokenEndpoint(app, { ctx, clients, codes, refreshTokens, revocation, attempts: clientAttempts });
  registerRevocationEndpoint(app, { ctx, clients, refreshTokens, revocation, attempts: clientAttempts });

  app.get('/.well-known/jwks.json', { config: { public: true } }, async (_request, reply) =>
    reply.header('cache-control', 'public, max-age=300').send(ctx.tokens.publicJwks()),
  );

  app.get('/.well-known/oauth-authorization-server', { config: { public: true } }, async (_request, reply) => {
    const base = ctx.baseUrl();
    return reply.header('cache-control', 'public, max-age=300').send({
      issuer: base,
      authorization_endpoint: `${base}/authorize`,
      token_endpoint: `${base}/oauth/token`,
      // RFC 7009 [ours]: a client discovers it here, and signs out without it where a service has none.
      revocation_endpoint: `${base}/oauth/revoke`,
      revocation_endpoint_auth_methods_supported: ['none', 'client_secret_post', 'client_secret_basic'],
      jwks_uri: `${base}/.well-known/jwks.json`,
      response_types_supported: ['code'],
      response_modes_supported: ['query'],
      grant_types_supported: [...SUPPORTED_GRANT_TYPES],
      token_endpoint_auth_methods_supported: ['none', 'client_secret_post', 'client_secret_basic'],
      code_challenge_methods_supported: ['S256'],
      // `subdomain:<account subdomain>` is also required; it has no fixed list.
      scopes_supported: [OFFLINE_ACCESS],
    });
  });
}
