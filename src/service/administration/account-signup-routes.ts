/**
 * The unauthenticated account endpoints of SERVICE-SPEC §4.3 (called without an Authorization header):
 * `POST /accounts {subdomain, name, email, password, userName?}` asks for an account; it is made (with its
 * built-in fields and its first admin, all or nothing) once the e-mail's owner confirms it with
 * `POST /account-confirmations {code}`, the code the service e-mailed them. `POST /account-invite-requests
 * {subdomain, email, name?, message?}` records a request to join (once per address); `POST
 * /publicly-available-account-data-searches {subdomain}` answers what a sign-in page may show before
 * sign-in; `POST /subdomain-availability-checks {subdomain}` says whether a subdomain is free (§2.10 names
 * it without a path [ours]).
 *
 * Sign-up never tells whether an e-mail has a user, as sign-in never does: a new address gets the
 * confirmation e-mail, an address with a user gets "someone tried to sign up with your address", and
 * both get the same `202` after the same work (one password hash, one e-mail sent in the background).
 * Sign-ups are throttled per e-mail and address (auth/attempt-limiter.ts), every one counting.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { hashPassword } from '../accounts/passwords.js';
import { attemptLimiter, SIGN_UP_LIMITS, tooManyAttempts } from '../auth/attempt-limiter.js';
import type { ServiceContext } from '../context.js';
import type { Mailer } from '../saved-searches/smtp-mailer.js';
import { timeOrderedUuid } from '../db/time-ordered-id.js';
import { ServiceError, notFound } from '../errors/service-error.js';
import { envelope } from '../http/envelope.js';
import { parseBody } from '../http/route-bodies.js';
import { accountSettings } from './account-settings.js';
import { signUpConfirmations, type PendingSignUp } from './sign-up-confirmations.js';

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
const confirmBody = z.object({ code: z.string().min(1).max(4096) });

export interface SignupDeps {
  /** How confirmations go out; without one, sign-up is refused (an address cannot be confirmed). */
  mailer: Mailer | undefined;
}

export function registerAccountSignupRoutes(app: FastifyInstance, ctx: ServiceContext, deps: SignupDeps): void {
  const settings = accountSettings(ctx.db);
  const attempts = attemptLimiter(ctx.clock, SIGN_UP_LIMITS);
  // Its own key, derived from the sign-in secret: a confirmation never passes for a sealed sign-in form.
  const confirmations = signUpConfirmations(ctx.keys.signIn, ctx.clock);
  const insertInvite = ctx.db.prepare('INSERT OR IGNORE INTO account_invite_requests (id, account_id, email, name, message, date_created) VALUES (?, ?, ?, ?, ?, ?)');
  const inviteOf = ctx.db.prepare<[string, string], { id: string; date_created: string }>('SELECT id, date_created FROM account_invite_requests WHERE account_id = ? AND email = ?');
  const available = (name: string): boolean => !RESERVED.has(name) && ctx.accounts.bySubdomain(name) === undefined;

  app.post('/subdomain-availability-checks', { config: { public: true, body: subdomainBody } }, async (request) => {
    const body = parseBody(request, subdomainBody);
    return envelope({ subdomain: body.subdomain, available: available(body.subdomain) });
  });

  /** Sends in the background, so the answer takes as long whether or not the address has a user. */
  const sendMail = (mailer: Mailer, to: string, subject: string, text: string): void => {
    mailer.send({ to, subject, text }).catch((error: unknown) => ctx.log.warn({ err: error }, 'sign-up e-mail not sent'));
  };

  app.post('/accounts', { config: { public: true, body: createBody } }, async (request, reply) => {
    const body = parseBody(request, createBody);
    const { mailer } = deps;
    if (mailer === undefined) throw new ServiceError('SIGN_UP_NEEDS_EMAIL');
    const subject = body.email.trim().toLowerCase();
    const wait = attempts.retryAfter(subject, request.ip);
    if (wait > 0) throw tooManyAttempts('sign-up', wait);
    attempts.failed(subject, request.ip);
    if (!available(body.subdomain)) throw new ServiceError('SUBDOMAIN_TAKEN', `The subdomain "${body.subdomain}" is in use or reserved.`);
    // Hashed whether or not the address has a user, in the service's hashing gate: the same cost either way.
    const passwordHash = await ctx.hashing.run(() => hashPassword(body.password));
    const existing = ctx.accounts.userByEmail(body.email);
    if (existing === undefined) {
      const code = confirmations.seal({ subdomain: body.subdomain, name: body.name, email: body.email, passwordHash, userName: body.userName ?? null });
      sendMail(mailer, body.email, `Confirm your new account ${body.subdomain}`, confirmationText(body.subdomain, code));
    } else {
      sendMail(mailer, existing.email, 'Someone tried to sign up with your address', alreadySignedUpText(body.subdomain));
    }
    return reply.code(202).send(envelope({ email: body.email, subdomain: body.subdomain, confirmationSent: true }));
  });

  app.post('/account-confirmations', { config: { public: true, body: confirmBody } }, async (request) => {
    const { code } = parseBody(request, confirmBody);
    const signUp = confirmations.open(code);
    const created = createAccount(signUp);
    return envelope({ id: created.account.id, subdomain: created.account.subdomain, name: created.account.name, adminUserId: created.user.id });
  });

  /** The account, its built-in fields and its first admin, all or nothing. */
  const createAccount = (signUp: PendingSignUp) =>
    ctx.db.transaction(() => {
      // A code confirmed again (a second click) answers the account it made.
      const user = ctx.accounts.userByEmail(signUp.email);
      const made = ctx.accounts.bySubdomain(signUp.subdomain);
      const holder = user === undefined || made === undefined ? undefined : ctx.sessions.byAccount(made.id, user.id);
      if (user !== undefined && made !== undefined && holder?.role === 'admin' && !holder.staff) return { account: made, user };
      // Checked inside the transaction: two confirmations racing for one subdomain or address cannot both win.
      if (!available(signUp.subdomain)) throw new ServiceError('SUBDOMAIN_TAKEN', `The subdomain "${signUp.subdomain}" was taken while the sign-up waited for its confirmation; sign up again with another.`);
      if (user !== undefined) throw new ServiceError('EMAIL_TAKEN');
      const now = ctx.nowIso();
      const account = ctx.accounts.createAccount(signUp.subdomain, signUp.name, now);
      ctx.fields.create(account.id, { name: 'Folders', hasFixedOptions: true, hierarchical: true, multiValue: true, indestructable: true, role: 'FOLDERS' }, now);
      ctx.fields.create(account.id, { name: 'Keywords', hasFixedOptions: false, hierarchical: false, multiValue: true, indestructable: true, role: 'KEYWORDS' }, now);
      const admin = ctx.accounts.createUser(signUp.email, signUp.userName, signUp.passwordHash, now);
      ctx.accounts.addMembership(account.id, admin.id, 'admin');
      return { account, user: admin };
    })();

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

// The mails name the subdomain (a checked DNS label), never the free-text name a stranger may have typed.
function confirmationText(subdomain: string, code: string): string {
  return [
    `Someone, we hope you, asked to create the account ${subdomain} with this e-mail address.`,
    '',
    'To create it, confirm within 24 hours with this code (the sign-up page asks for it; it is sent as',
    '`POST /account-confirmations {"code": "…"}`):',
    '',
    code,
    '',
    'If it was not you, ignore this e-mail: nothing is created without the code.',
  ].join('\n');
}

function alreadySignedUpText(subdomain: string): string {
  return [
    `Someone asked to create the account ${subdomain} with this e-mail address, which already has a user here.`,
    'Nothing was created.',
    '',
    'If it was you: sign in with the password you have. A user who needs another account asks the operator of this service.',
    'If it was not you, ignore this e-mail; nobody was told that this address has a user.',
  ].join('\n');
}
