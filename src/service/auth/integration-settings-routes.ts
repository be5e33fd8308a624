/**
 * `PUT` / `GET /custom-integration-settings` (API.md §2): an account's confidential OAuth client for its
 * own scripts and integrations. PUT creates it on first call (new client id and secret) and afterwards
 * only replaces its redirect URIs when given; the secret is kept, and GET reads everything back, as on
 * the hosted service. Admins only, since the answer holds the secret. This module must never show the
 * secret to anyone without the MANAGE action.
 */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import type { ServiceContext } from '../context.js';
import { envelope } from '../http/envelope.js';
import { parseBody } from '../http/route-bodies.js';
import { caller } from '../http/request-auth.js';
import { ServiceError } from '../errors/service-error.js';
import { requireAccountAction } from './permissions.js';
import { oauthClientsRepo, type OAuthClient } from './oauth-clients-repo.js';
import { isRegistrableRedirectUri } from './redirect-uri.js';
import { newOpaqueSecret } from './opaque-secrets.js';

export interface IntegrationSettings {
  clientId: string;
  clientSecret: string;
  redirectUris: string[];
}

const putBody = z.object({
  redirectUris: z
    .array(z.string().max(2000).refine(isRegistrableRedirectUri, 'must be an absolute http(s) URI (e.g. https://app.example/callback) without fragment, credentials or spaces'))
    .max(20)
    .optional(),
});

export function registerIntegrationSettingsRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  const clients = oauthClientsRepo(ctx.db);

  app.get('/custom-integration-settings', async (request) => {
    const who = caller(request);
    requireAccountAction(who.role, 'CUSTOM_INTEGRATION_SETTINGS', 'MANAGE');
    const client = clients.confidentialOf(who.accountId);
    if (client === undefined) {
      throw new ServiceError('NOT_FOUND', 'This account has no custom integration yet; PUT /custom-integration-settings creates one.');
    }
    return envelope(toSettings(client));
  });

  app.put('/custom-integration-settings', { config: { body: putBody } }, async (request) => {
    const who = caller(request);
    requireAccountAction(who.role, 'CUSTOM_INTEGRATION_SETTINGS', 'MANAGE');
    const body = parseBody(request, putBody);
    const redirectUris = body.redirectUris === undefined ? undefined : [...new Set(body.redirectUris)];

    const client = ctx.db.transaction((): OAuthClient => {
      const existing = clients.confidentialOf(who.accountId);
      if (existing !== undefined) {
        if (redirectUris === undefined) return existing;
        clients.setRedirectUris(existing.clientId, redirectUris);
        return { ...existing, redirectUris };
      }
      const account = ctx.accounts.byId(who.accountId);
      const created: OAuthClient = {
        clientId: randomUUID(),
        accountId: who.accountId,
        name: `Custom integration of ${account?.name ?? 'the account'}`,
        clientSecret: newOpaqueSecret(),
        redirectUris: redirectUris ?? [],
        allowAnyLoopbackPort: false,
      };
      clients.create(created, ctx.nowIso());
      return created;
    })();
    return envelope(toSettings(client));
  });
}

function toSettings(client: OAuthClient): IntegrationSettings {
  if (client.clientSecret === null) throw new Error(`custom integration ${client.clientId} has no secret`);
  return { clientId: client.clientId, clientSecret: client.clientSecret, redirectUris: client.redirectUris };
}
