/**
 * External apps (SERVICE-SPEC §4.2): link the current user to their user id in an external app
 * (`POST /external-app-users {externalAppUserId}`, replaces an earlier link), mint a short-lived SSO
 * token for that linked user (`POST /external-app-sso-tokens`; the token is shown once and only its hash
 * is kept), and link external app accounts to the current account (`GET | POST /external-app-accounts`,
 * ordered by `externalAppAccountId`; one external account links to one account only).
 */
import { createHash, randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { requireAccountAction } from '../auth/permissions.js';
import type { ServiceContext } from '../context.js';
import { ServiceError } from '../errors/service-error.js';
import { envelope } from '../http/envelope.js';
import { caller } from '../http/request-auth.js';
import { parseBody } from '../http/route-bodies.js';

/** How long an SSO token is good for. */
export const SSO_TOKEN_TTL_SECONDS = 300;

const externalId = z.string().trim().min(1).max(200);
const userBody = z.object({ externalAppUserId: externalId });
const accountBody = z.object({ externalAppAccountId: externalId });

export function registerExternalAppRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  const { db } = ctx;
  const linkUser = db.prepare(
    `INSERT INTO external_app_users (account_id, user_id, external_app_user_id, date_created) VALUES (?, ?, ?, ?)
     ON CONFLICT (account_id, user_id) DO UPDATE SET external_app_user_id = excluded.external_app_user_id, date_created = excluded.date_created`,
  );
  const linkedUser = db.prepare<[string, string], { external_app_user_id: string }>('SELECT external_app_user_id FROM external_app_users WHERE account_id = ? AND user_id = ?');
  const insertToken = db.prepare('INSERT INTO external_app_sso_tokens (token_hash, account_id, user_id, expires_at) VALUES (?, ?, ?, ?)');
  const purgeTokens = db.prepare('DELETE FROM external_app_sso_tokens WHERE expires_at < ?');
  const accountsOf = db.prepare<[string], { external_app_account_id: string; date_created: string }>(
    'SELECT external_app_account_id, date_created FROM external_app_accounts WHERE account_id = ? ORDER BY external_app_account_id',
  );
  const holder = db.prepare<[string], { account_id: string }>('SELECT account_id FROM external_app_accounts WHERE external_app_account_id = ?');
  const insertAccount = db.prepare('INSERT INTO external_app_accounts (external_app_account_id, account_id, date_created) VALUES (?, ?, ?)');

  app.post('/external-app-users', { config: { body: userBody } }, async (request) => {
    const who = caller(request);
    const { externalAppUserId } = parseBody(request, userBody);
    linkUser.run(who.accountId, who.userId, externalAppUserId, ctx.nowIso());
    return envelope({ userId: who.userId, externalAppUserId });
  });

  app.post('/external-app-sso-tokens', async (request) => {
    const who = caller(request);
    const linked = linkedUser.get(who.accountId, who.userId);
    if (linked === undefined) throw new ServiceError('EXTERNAL_APP_USER_MISSING');
    const now = ctx.clock.now();
    purgeTokens.run(now);
    const token = randomBytes(32).toString('base64url');
    const expiresAt = now + SSO_TOKEN_TTL_SECONDS * 1000;
    insertToken.run(createHash('sha256').update(token).digest('hex'), who.accountId, who.userId, expiresAt);
    return envelope({ token, externalAppUserId: linked.external_app_user_id, dateExpires: new Date(expiresAt).toISOString() });
  });

  app.get('/external-app-accounts', async (request) => {
    const rows = accountsOf.all(caller(request).accountId);
    return { results: rows.map((row) => envelope({ externalAppAccountId: row.external_app_account_id, dateCreated: row.date_created })), totalResults: rows.length };
  });

  app.post('/external-app-accounts', { config: { body: accountBody } }, async (request) => {
    const who = caller(request);
    requireAccountAction(who.role, 'ACCOUNT', 'MANAGE');
    const { externalAppAccountId } = parseBody(request, accountBody);
    const taken = holder.get(externalAppAccountId);
    if (taken !== undefined && taken.account_id !== who.accountId) throw new ServiceError('EXTERNAL_APP_ACCOUNT_TAKEN');
    const now = ctx.nowIso();
    if (taken === undefined) insertAccount.run(externalAppAccountId, who.accountId, now);
    return envelope({ externalAppAccountId, dateCreated: now });
  });
}
