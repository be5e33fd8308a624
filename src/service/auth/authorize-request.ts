/**
 * Checks the query of `GET /authorize` and says how to answer a bad one, following RFC 6749 §4.1.2.1:
 * while the client or its redirect URI is in doubt the user sees an error page (redirecting would make
 * us an open redirector); once both are trusted, every other problem goes back to the client as an
 * error redirect with its `state`. Pure apart from the lookups it is given; it must never trust a
 * redirect URI it has not matched against the client's registration.
 */
import { z } from 'zod';
import type { AccountRow, AccountsRepo } from '../accounts/accounts-repo.js';
import { ServiceError } from '../errors/service-error.js';
import type { OAuthClient, OAuthClientsRepo } from './oauth-clients-repo.js';
import { redirectUriAllowed } from './redirect-uri.js';
import { isValidS256Challenge } from './pkce.js';

/** A request the user may now be asked to approve. */
export interface AuthorizeRequest {
  client: OAuthClient;
  redirectUri: string;
  state: string | undefined;
  audience: string;
  account: AccountRow;
  /** What will be granted: `subdomain:<sub>`, plus `offline_access` when asked for. */
  scope: string;
  codeChallenge: string | null;
}

export type AuthorizeCheck =
  | { kind: 'valid'; request: AuthorizeRequest }
  /** The client or redirect URI cannot be trusted: show an error page, never redirect. */
  | { kind: 'error-page'; error: ServiceError }
  /** Tell the client through its (verified) redirect URI. */
  | { kind: 'error-redirect'; redirectUri: string; state: string | undefined; error: ServiceError };

export interface AuthorizeLookups {
  clients: Pick<OAuthClientsRepo, 'byId'>;
  accounts: Pick<AccountsRepo, 'bySubdomain'>;
  /** The one audience this service issues tokens for. */
  audience: string;
}

export const OFFLINE_ACCESS = 'offline_access';
const SUBDOMAIN_PREFIX = 'subdomain:';
const MAX_STATE_LENGTH = 2048;

const queryShape = z.record(z.string(), z.union([z.string(), z.array(z.string())]));

export function checkAuthorizeRequest(rawQuery: unknown, lookups: AuthorizeLookups): AuthorizeCheck {
  const parsed = queryShape.safeParse(rawQuery ?? {});
  const query = parsed.success ? parsed.data : {};
  const repeated = Object.keys(query).filter((key) => Array.isArray(query[key]));
  const single = (key: string): string | undefined => {
    const value = query[key];
    return typeof value === 'string' && value !== '' ? value : undefined;
  };

  const clientId = single('client_id');
  const client = clientId === undefined ? undefined : lookups.clients.byId(clientId);
  if (client === undefined) {
    const detail = clientId === undefined ? 'The request has no client_id.' : `No application is registered with client_id "${clientId}".`;
    return { kind: 'error-page', error: new ServiceError('OAUTH_UNKNOWN_CLIENT', detail) };
  }
  const redirectUri = single('redirect_uri');
  if (redirectUri === undefined || !redirectUriAllowed(client, redirectUri)) {
    const detail =
      redirectUri === undefined
        ? 'The request has no redirect_uri.'
        : `The redirect_uri "${redirectUri}" is not registered for the application "${client.name}".`;
    return { kind: 'error-page', error: new ServiceError('OAUTH_INVALID_REDIRECT_URI', detail) };
  }

  const state = single('state');
  const refuse = (code: 'OAUTH_INVALID_REQUEST' | 'OAUTH_UNSUPPORTED_RESPONSE_TYPE' | 'OAUTH_INVALID_SCOPE', message: string): AuthorizeCheck => ({
    kind: 'error-redirect',
    redirectUri,
    state,
    error: new ServiceError(code, message),
  });
  // RFC 6749 §3.1: parameters must not be repeated.
  if (repeated.length > 0) return refuse('OAUTH_INVALID_REQUEST', `The parameter ${repeated.join(', ')} is repeated.`);
  if (state !== undefined && state.length > MAX_STATE_LENGTH) return refuse('OAUTH_INVALID_REQUEST', `The state is longer than ${MAX_STATE_LENGTH} characters.`);

  const responseType = single('response_type');
  if (responseType === undefined) return refuse('OAUTH_INVALID_REQUEST', 'The request has no response_type; use response_type=code.');
  if (responseType !== 'code') return refuse('OAUTH_UNSUPPORTED_RESPONSE_TYPE', `response_type=${responseType} is not supported; use response_type=code.`);

  const audience = single('audience');
  if (audience === undefined) return refuse('OAUTH_INVALID_REQUEST', `The audience parameter is required; use audience=${lookups.audience}.`);
  if (audience !== lookups.audience) {
    return refuse('OAUTH_INVALID_REQUEST', `This service issues no tokens for the audience "${audience}"; use audience=${lookups.audience}.`);
  }

  const scopes = (single('scope') ?? '').split(/\s+/).filter((part) => part !== '');
  const subdomains = scopes.filter((part) => part.startsWith(SUBDOMAIN_PREFIX)).map((part) => part.slice(SUBDOMAIN_PREFIX.length));
  const [subdomain] = subdomains;
  if (subdomain === undefined || subdomain === '' || subdomains.length > 1) {
    return refuse('OAUTH_INVALID_SCOPE', 'The scope must name exactly one account, e.g. scope=subdomain:local offline_access.');
  }
  const account = lookups.accounts.bySubdomain(subdomain);
  if (account === undefined) return refuse('OAUTH_INVALID_SCOPE', `No account has the subdomain "${subdomain}".`);
  if (client.accountId !== null && client.accountId !== account.id) {
    return refuse('OAUTH_INVALID_SCOPE', `The application "${client.name}" belongs to another account than "${subdomain}".`);
  }

  const pkce = checkPkce(client, single('code_challenge'), single('code_challenge_method'));
  if (typeof pkce !== 'object') return refuse('OAUTH_INVALID_REQUEST', pkce);

  // Scopes we do not know (e.g. `openid`) are not granted; the token response reports what was.
  const scope = [`${SUBDOMAIN_PREFIX}${subdomain}`, ...(scopes.includes(OFFLINE_ACCESS) ? [OFFLINE_ACCESS] : [])].join(' ');
  return { kind: 'valid', request: { client, redirectUri, state, audience, account, scope, codeChallenge: pkce.challenge } };
}

/** The S256 challenge to bind to the code, or why the PKCE parameters are refused. */
function checkPkce(client: OAuthClient, challenge: string | undefined, method: string | undefined): { challenge: string | null } | string {
  const isPublic = client.clientSecret === null;
  if (challenge === undefined) {
    if (isPublic) return 'PKCE is required for this application: send code_challenge with code_challenge_method=S256.';
    if (method !== undefined) return 'code_challenge_method was sent without a code_challenge.';
    return { challenge: null };
  }
  // RFC 7636 §4.3: a missing method means `plain`, which we refuse like an explicit one.
  if (method !== 'S256') return `code_challenge_method=${method ?? 'plain'} is not supported; use S256.`;
  if (!isValidS256Challenge(challenge)) return 'The code_challenge is not a base64url SHA-256 digest (43 characters).';
  return { challenge };
}
