/**
 * Who is calling the token endpoint (RFC 6749 §2.3): a public client names itself with `client_id`; a
 * confidential client must also prove it with its secret, in the body (`client_secret_post`) or in an
 * HTTP Basic header (`client_secret_basic`), never both. Secrets are compared in constant time, and
 * failures (an unknown client, a missing or wrong secret) are throttled per client id and address
 * (attempt-limiter.ts): within a wait, `429 TOO_MANY_ATTEMPTS` before anything is compared. This
 * module must never let a confidential client through without its secret.
 */
import { ServiceError } from '../errors/service-error.js';
import type { OAuthClient, OAuthClientsRepo } from './oauth-clients-repo.js';
import { sameSecret } from './opaque-secrets.js';
import { tooManyAttempts, type AttemptLimiter } from './attempt-limiter.js';

/** RFC 6749 §5.2: a client that tried the Authorization header is told how to authenticate. */
const BASIC_CHALLENGE: Readonly<Record<string, string>> = { 'www-authenticate': 'Basic realm="asset-sync", charset="UTF-8"' };

export interface PresentedCredentials {
  clientId?: string | undefined;
  clientSecret?: string | undefined;
}

/** Who is trying, for the throttle: its failures and the caller's address. */
export interface ClientAttempts {
  limiter: AttemptLimiter;
  address: string;
}

export function authenticateClient(clients: Pick<OAuthClientsRepo, 'byId'>, body: PresentedCredentials, authorization: string | undefined, attempts: ClientAttempts): OAuthClient {
  const basic = basicCredentials(authorization);
  const challenge = basic === undefined ? {} : { ...BASIC_CHALLENGE };
  if (basic !== undefined && body.clientSecret !== undefined) {
    throw new ServiceError('OAUTH_INVALID_REQUEST', 'Send the client secret either in the Authorization header or in the body, not both.');
  }
  if (basic !== undefined && body.clientId !== undefined && body.clientId !== basic.clientId) {
    throw new ServiceError('OAUTH_INVALID_REQUEST', 'The client_id in the body differs from the one in the Authorization header.');
  }
  const clientId = basic?.clientId ?? body.clientId;
  const secret = basic?.clientSecret ?? body.clientSecret;
  if (clientId === undefined || clientId === '') throw new ServiceError('OAUTH_INVALID_CLIENT', 'The request has no client_id.', challenge);
  const wait = attempts.limiter.retryAfter(clientId, attempts.address);
  if (wait > 0) throw tooManyAttempts('client authentication', wait);
  const refuse = (message: string): ServiceError => {
    attempts.limiter.failed(clientId, attempts.address);
    return new ServiceError('OAUTH_INVALID_CLIENT', message, challenge);
  };
  const client = clients.byId(clientId);
  if (client === undefined) throw refuse(`No client is registered with client_id "${clientId}".`);
  // A public client has nothing to prove (PKCE binds its codes instead); a stray secret is ignored.
  if (client.clientSecret === null) return client;
  if (secret === undefined || secret === '') throw refuse('This client is confidential: authenticate with its client_secret.');
  if (!sameSecret(secret, client.clientSecret)) throw refuse('The client_secret is wrong.');
  attempts.limiter.succeeded(clientId, attempts.address);
  return client;
}

/** `Authorization: Basic base64(urlencode(id):urlencode(secret))`, or undefined when another scheme or none is used. */
function basicCredentials(header: string | undefined): { clientId: string; clientSecret: string } | undefined {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header ?? '');
  const encoded = match?.[1];
  if (encoded === undefined) return undefined;
  const decoded = Buffer.from(encoded, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) throw new ServiceError('OAUTH_INVALID_CLIENT', 'The Basic credentials have no ":" between client id and secret.', { ...BASIC_CHALLENGE });
  try {
    return { clientId: formDecode(decoded.slice(0, colon)), clientSecret: formDecode(decoded.slice(colon + 1)) };
  } catch {
    throw new ServiceError('OAUTH_INVALID_CLIENT', 'The Basic credentials are not form-encoded.', { ...BASIC_CHALLENGE });
  }
}

function formDecode(text: string): string {
  return decodeURIComponent(text.replace(/\+/g, ' '));
}
