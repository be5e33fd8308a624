/**
 * `GET /authorize` shows the sign-in form for a checked authorisation request; `POST /authorize` checks
 * the user's email and password and sends the browser back to the client with a single-use code (or
 * with `access_denied` when the user cancels). Wrong credentials re-render the form (401) and never
 * redirect. Attempts are throttled per e-mail typed and address (attempt-limiter.ts: the form again with
 * `429` and "Try again in N s", before any hashing), and every password check goes through the service's
 * hashing gate (`503` when it is full). This module must never redirect to a URI it has not matched
 * against the client's registration, nor store a code other than as its hash.
 */
import { z } from 'zod';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ServiceContext } from '../context.js';
import type { AccountRow } from '../accounts/accounts-repo.js';
import { hashPassword, verifyPassword } from '../accounts/passwords.js';
import { ServiceError } from '../errors/service-error.js';
import { checkAuthorizeRequest, OFFLINE_ACCESS } from './authorize-request.js';
import { cspSourceOf, errorPage, signInPage, type HtmlPage } from './authorize-page.js';
import { errorRedirectParams } from './oauth-errors.js';
import { redirectTo, redirectUriAllowed } from './redirect-uri.js';
import { browserKeyCookie, browserKeyFrom, newBrowserKey, type SignInRequest, type SignInTransactions } from './sign-in-transaction.js';
import { hashSecret, newOpaqueSecret } from './opaque-secrets.js';
import type { OAuthClient, OAuthClientsRepo } from './oauth-clients-repo.js';
import type { AuthCodesRepo } from './auth-codes-repo.js';
import { withoutAbsentNulls } from '../http/null-as-absent.js';
import { accountSettings } from '../administration/account-settings.js';
import { memberSignInRefusal } from './sign-in-policy.js';
import { tooManyAttempts, type AttemptLimiter } from './attempt-limiter.js';

export interface AuthorizeDeps {
  ctx: ServiceContext;
  clients: OAuthClientsRepo;
  codes: AuthCodesRepo;
  transactions: SignInTransactions;
  /** Wrong passwords, per e-mail typed and client address. */
  attempts: AttemptLimiter;
}

/** Used codes are kept a day past their expiry so that a late replay still revokes what they issued. */
const KEEP_USED_CODES_MS = 24 * 3600 * 1000;

const signInForm = z.object({
  transaction: z.string().max(16_384).default(''),
  email: z.string().max(320).default(''),
  password: z.string().max(1024).default(''),
  decision: z.string().max(16).optional(),
});

interface FormContext {
  request: SignInRequest;
  client: OAuthClient;
  account: AccountRow;
}

export function registerAuthorizeRoutes(app: FastifyInstance, deps: AuthorizeDeps): void {
  const { ctx, clients, codes, transactions, attempts } = deps;
  // Unknown emails still cost one scrypt, in the same gate, so response time does not tell which addresses exist.
  let decoyHash: Promise<string> | undefined;
  const decoy = (): Promise<string> => {
    decoyHash ??= hashPassword(newOpaqueSecret()).catch((error: unknown) => {
      decoyHash = undefined;
      throw error;
    });
    return decoyHash;
  };
  const settings = accountSettings(ctx.db);

  const renderForm = (reply: FastifyReply, form: FormContext, browserKey: string, status: number, email?: string, problem?: string): FastifyReply => {
    const action = `${ctx.baseUrl()}/authorize`;
    const formTargets = [cspSourceOf(action), cspSourceOf(form.request.redirectUri)].filter((source) => source !== undefined);
    const html = signInPage(
      {
        action,
        transaction: transactions.seal(form.request, browserKey),
        clientName: form.client.name,
        accountName: form.account.name,
        accountSubdomain: form.account.subdomain,
        offlineAccess: form.request.scope.split(' ').includes(OFFLINE_ACCESS),
        formTargets,
        email,
        problem,
      },
      status,
    );
    reply.header('set-cookie', browserKeyCookie(browserKey, action.startsWith('https:')));
    return sendPage(reply, html);
  };

  const redirect = (reply: FastifyReply, to: string): FastifyReply =>
    reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer').redirect(to, 302);

  app.get('/authorize', { config: { public: true } }, async (request, reply) => {
    const check = checkAuthorizeRequest(request.query, { clients, accounts: ctx.accounts, audience: ctx.config.audience });
    switch (check.kind) {
      case 'error-page':
        return sendPage(reply, errorPage(check.error.status, check.error.code, check.error.message));
      case 'error-redirect':
        return redirect(reply, redirectTo(check.redirectUri, errorRedirectParams(check.error, check.state)));
      case 'valid': {
        const { client, account, redirectUri, state, audience, scope, codeChallenge } = check.request;
        const signIn: SignInRequest = { clientId: client.clientId, redirectUri, audience, accountId: account.id, scope, codeChallenge };
        if (state !== undefined) signIn.state = state;
        const browserKey = browserKeyFrom(request.headers.cookie) ?? newBrowserKey();
        return renderForm(reply, { request: signIn, client, account }, browserKey, 200);
      }
    }
  });

  app.post('/authorize', { config: { public: true, body: signInForm } }, async (request, reply) => {
    const parsed = signInForm.safeParse(withoutAbsentNulls(signInForm, request.body ?? {}));
    const browserKey = browserKeyFrom(request.headers.cookie);
    let form: FormContext;
    try {
      if (!parsed.success) throw new ServiceError('OAUTH_SIGN_IN_EXPIRED', 'The sign-in form was not posted as expected.');
      form = stillValid(transactions.open(parsed.data.transaction, browserKey));
    } catch (error) {
      if (!(error instanceof ServiceError)) throw error;
      return sendPage(reply, errorPage(error.status, error.code, error.message));
    }
    const { email, password, decision } = parsed.data;
    const { request: signIn } = form;
    const boundKey = browserKey ?? newBrowserKey();

    if (decision === 'deny') {
      const denied = new ServiceError('OAUTH_ACCESS_DENIED', 'The user cancelled the sign-in.');
      return redirect(reply, redirectTo(signIn.redirectUri, errorRedirectParams(denied, signIn.state)));
    }
    // The e-mail as typed is the subject, known or not, so the throttle tells nothing about who exists.
    const subject = email.trim().toLowerCase();
    const refuse = (problem: ServiceError): FastifyReply => renderForm(reply.headers(problem.headers), form, boundKey, problem.status, email, problem.message);
    const wait = attempts.retryAfter(subject, request.ip);
    if (wait > 0) return refuse(tooManyAttempts('sign-in', wait));
    const user = ctx.accounts.userByEmail(email.trim());
    let passwordOk: boolean;
    try {
      passwordOk = await ctx.hashing.run(async () => verifyPassword(password, user?.password_hash ?? (await decoy())));
    } catch (error) {
      if (!(error instanceof ServiceError)) throw error;
      return refuse(error);
    }
    if (user === undefined || !passwordOk || password === '') {
      attempts.failed(subject, request.ip);
      const problem = new ServiceError('OAUTH_WRONG_CREDENTIALS');
      return renderForm(reply, form, boundKey, problem.status, email, `${problem.message} Check both and try again.`);
    }
    attempts.succeeded(subject, request.ip);
    // A member of the account, or staff of the installation (who may sign in to any account).
    const holder = ctx.sessions.byAccount(form.account.id, user.id);
    if (holder === undefined) {
      const problem = new ServiceError('OAUTH_NOT_A_MEMBER', `${user.email} is not a member of the account "${form.account.name}"; sign in as someone who is.`);
      return renderForm(reply, form, boundKey, problem.status, email, problem.message);
    }
    // The account's security settings bind its members: this form is the PASSWORD method,
    // and an address outside the allowed domains may not sign in however it authenticates.
    const refusal = holder.staff ? undefined : memberSignInRefusal(settings, form.account.id, user.email);
    if (refusal !== undefined) {
      const problem = new ServiceError('LOGIN_METHOD_NOT_ALLOWED', refusal);
      return renderForm(reply, form, boundKey, problem.status, email, problem.message);
    }

    const now = ctx.clock.now();
    codes.purgeExpired(now - KEEP_USED_CODES_MS);
    const code = newOpaqueSecret();
    codes.insert(
      hashSecret(code),
      {
        clientId: signIn.clientId,
        userId: user.id,
        accountId: form.account.id,
        redirectUri: signIn.redirectUri,
        scope: signIn.scope,
        audience: signIn.audience,
        codeChallenge: signIn.codeChallenge,
      },
      now + ctx.config.authCodeTtl * 1000,
    );
    return redirect(reply, redirectTo(signIn.redirectUri, signIn.state === undefined ? { code } : { code, state: signIn.state }));
  });

  /** The client, its redirect URI and the account may have changed since the form was shown. */
  function stillValid(request: SignInRequest): FormContext {
    const client = clients.byId(request.clientId);
    if (client === undefined || !redirectUriAllowed(client, request.redirectUri)) {
      throw new ServiceError('OAUTH_INVALID_REDIRECT_URI', 'The application changed its registration while you were signing in.');
    }
    const account = ctx.accounts.byId(request.accountId);
    if (account === undefined || request.audience !== ctx.config.audience) {
      throw new ServiceError('OAUTH_INVALID_SCOPE', 'The account you were signing in to is no longer available.');
    }
    return { request, client, account };
  }
}

function sendPage(reply: FastifyReply, html: HtmlPage): FastifyReply {
  return reply.code(html.status).headers(html.headers).send(html.html);
}
