/**
 * Acceptance of an account's terms and conditions. Where the account's terms require
 * acceptance, every authenticated API call of a user who has not accepted the current version answers
 * 403 TERMS_NOT_ACCEPTED, except what the user needs to get out of that state: reading and accepting
 * the terms (`/account-terms-and-conditions/{id}…`) and `GET /current-user`. Each PUT of the terms is a
 * new version, so a change asks everyone again. The accepter names the version they read, so terms
 * changed while they were reading are never accepted unseen (409 TERMS_VERSION_OUTDATED). Staff
 * working in the account are not asked (docs/api.md).
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { ServiceContext } from '../context.js';
import { ServiceError, notFound } from '../errors/service-error.js';
import { envelope } from '../http/envelope.js';
import { parseInput } from '../http/parse-input.js';
import { caller } from '../http/request-auth.js';
import { parseBody } from '../http/route-bodies.js';

const idParams = z.object({ id: z.string().min(1).max(200) });
const acceptanceBody = z.object({ version: z.number().int().min(1) });

/** Routes a user who has not accepted the terms may still call: reading and accepting them. */
const OPEN_WHILE_UNACCEPTED = new Set(['/account-terms-and-conditions/:id', '/account-terms-and-conditions/:id/acceptances', '/current-user']);

export function registerTermsAcceptance(app: FastifyInstance, ctx: ServiceContext): void {
  const { db } = ctx;
  const required = db.prepare<[string], { version: number }>('SELECT version FROM account_terms WHERE account_id = ? AND acceptance_required = 1');
  const current = db.prepare<[string], { version: number }>('SELECT version FROM account_terms WHERE account_id = ?');
  const accepted = db.prepare<[string, string], { version: number }>('SELECT version FROM terms_acceptances WHERE account_id = ? AND user_id = ?');
  const accept = db.prepare(
    `INSERT INTO terms_acceptances (account_id, user_id, version, date_accepted) VALUES (?, ?, ?, ?)
     ON CONFLICT (account_id, user_id) DO UPDATE SET version = excluded.version, date_accepted = excluded.date_accepted`,
  );

  app.post('/account-terms-and-conditions/:id/acceptances', { config: { body: acceptanceBody } }, async (request) => {
    const who = caller(request);
    const { id } = parseInput(idParams, request.params, 'INVALID_PATH');
    const terms = id === who.accountId ? current.get(id) : undefined;
    if (terms === undefined) throw notFound('terms and conditions', id);
    const { version } = parseBody(request, acceptanceBody);
    if (version !== terms.version) throw new ServiceError('TERMS_VERSION_OUTDATED', `Version ${version} was accepted, but the current version is ${terms.version}.`);
    const dateAccepted = ctx.nowIso();
    accept.run(id, who.userId, version, dateAccepted);
    return envelope({ accountId: id, userId: who.userId, version, dateAccepted });
  });

  app.addHook('preHandler', async (request) => {
    const who = request.caller;
    // Staff are bound by the installation's agreement with the account, not by its terms for its users.
    if (who === null || who.staff || OPEN_WHILE_UNACCEPTED.has(request.routeOptions.url ?? '')) return;
    const terms = required.get(who.accountId);
    if (terms !== undefined && accepted.get(who.accountId, who.userId)?.version !== terms.version) {
      throw new ServiceError('TERMS_NOT_ACCEPTED', `Accept version ${terms.version} of the account's terms and conditions first (POST /account-terms-and-conditions/${who.accountId}/acceptances).`);
    }
  });
}
