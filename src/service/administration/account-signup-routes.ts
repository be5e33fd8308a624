/**
 * The unauthenticated account endpoints of SERVICE-SPEC §4.3 (called without an Authorization header):
 * `POST /accounts {subdomain, name, email, password, userName?}` creates an account with its built-in
 * fields and its first admin, all or nothing; `POST /account-invite-requests {subdomain, email, name?,
 * message?}` records a request to join (once per address); `POST /publicly-available-account-data-searches
 * {subdomain}` answers what a sign-in page may show before sign-in; `POST /subdomain-availability-checks
 * {subdomain}` says whether a subdomain is free (§2.10 names it without a path [ours]).
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { hashPassword } from '../accounts/passwords.js';
import type { ServiceContext } from '../context.js';
import { timeOrderedUuid } from '../db/time-ordered-id.js';
import { ServiceError, notFound } from '../errors/service-error.js';
import { envelope } from '../http/envelope.js';
import { parseBody } from '../http/route-bodies.js';
import { accountSettings } from './account-settings.js';

/** DNS label rules, lower-case only; a few names stay reserved for the service itself. */
const RESERVED = new Set(['www', 'api', 'admin', 'login', 'staff', 'static', 'mail']);
const subdomain = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^[a-z0-9](?:[a-z0-9-]{1,61}[a-z0-9])$/, 'must be 3–63 letters, digits or hyphens, not starting or ending with a hyphen');
const email = z.email().max(320);
const createBody = z.object({ subdomain, name: z.string().trim().min(1).max(200), email, password: z.string().min(12, 'must be at least 12 characters').max(1024), userName: z.string().trim().max(200).optional() });
const inviteBody = z.object({ subdomain, email, name: z.string().trim().max(200).optional(), message: z.string().max(2000).optional() });
const subdomainBody = z.object({ subdomain });

export function registerAccountSignupRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  const settings = accountSettings(ctx.db);
  const insertInvite = ctx.db.prepare('INSERT OR IGNORE INTO account_invite_requests (id, account_id, email, name, message, date_created) VALUES (?, ?, ?, ?, ?, ?)');
  const inviteOf = ctx.db.prepare<[string, string], { id: string; date_created: string }>('SELECT id, date_created FROM account_invite_requests WHERE account_id = ? AND email = ?');
  const available = (name: string): boolean => !RESERVED.has(name) && ctx.accounts.bySubdomain(name) === undefined;

  app.post('/subdomain-availability-checks', { config: { public: true, body: subdomainBody } }, async (request) => {
    const body = parseBody(request, subdomainBody);
    return envelope({ subdomain: body.subdomain, available: available(body.subdomain) });
  });

  app.post('/accounts', { config: { public: true, body: createBody } }, async (request) => {
    const body = parseBody(request, createBody);
    if (!available(body.subdomain)) throw new ServiceError('SUBDOMAIN_TAKEN', `The subdomain "${body.subdomain}" is in use or reserved.`);
    if (ctx.accounts.userByEmail(body.email) !== undefined) throw new ServiceError('EMAIL_TAKEN');
    const passwordHash = await hashPassword(body.password);
    const now = ctx.nowIso();
    const created = ctx.db.transaction(() => {
      // Checked again inside the transaction: two sign-ups racing for one subdomain cannot both win.
      if (!available(body.subdomain)) throw new ServiceError('SUBDOMAIN_TAKEN');
      const account = ctx.accounts.createAccount(body.subdomain, body.name, now);
      ctx.fields.create(account.id, { name: 'Folders', hasFixedOptions: true, hierarchical: true, multiValue: true, indestructable: true, role: 'FOLDERS' }, now);
      ctx.fields.create(account.id, { name: 'Keywords', hasFixedOptions: false, hierarchical: false, multiValue: true, indestructable: true, role: 'KEYWORDS' }, now);
      const user = ctx.accounts.createUser(body.email, body.userName ?? null, passwordHash, now);
      ctx.accounts.addMembership(account.id, user.id, 'admin');
      return { account, user };
    })();
    return envelope({ id: created.account.id, subdomain: created.account.subdomain, name: created.account.name, adminUserId: created.user.id });
  });

  app.post('/account-invite-requests', { config: { public: true, body: inviteBody } }, async (request) => {
    const body = parseBody(request, inviteBody);
    const account = ctx.accounts.bySubdomain(body.subdomain);
    if (account === undefined) throw notFound('account with subdomain', body.subdomain);
    insertInvite.run(timeOrderedUuid(), account.id, body.email, body.name ?? null, body.message ?? null, ctx.nowIso());
    const row = inviteOf.get(account.id, body.email);
    return envelope({ id: row?.id, subdomain: account.subdomain, email: body.email, dateCreated: row?.date_created });
  });

  app.post('/publicly-available-account-data-searches', { config: { public: true, body: subdomainBody } }, async (request) => {
    const body = parseBody(request, subdomainBody);
    const account = ctx.accounts.bySubdomain(body.subdomain);
    if (account === undefined) return { results: [], totalResults: 0 };
    const result = { accountId: account.id, subdomain: account.subdomain, name: account.name, allowedLoginMethods: settings.loginMethods(account.id) };
    return { results: [envelope(result)], totalResults: 1 };
  });
}
