/**
 * Carries a checked authorisation request from the sign-in form to its POST without server state: the
 * request is sealed into a hidden field with an HMAC (so it cannot be altered), an expiry (so an old page
 * cannot be replayed), and the hash of a random cookie set with the form (so another site cannot post a
 * sign-in into this browser: the cookie is SameSite=Strict and the forged post cannot know it).
 * It must never accept a blob whose MAC, expiry or cookie binding does not check out.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import type { Clock } from '../clock.js';
import { ServiceError } from '../errors/service-error.js';
import { hashSecret, sameSecret } from './opaque-secrets.js';

/** Long enough for a person to find and type a password. */
const LIFETIME_MS = 10 * 60 * 1000;
export const BINDING_COOKIE = 'asset_sync_sign_in';
const BINDING_SHAPE = /^[A-Za-z0-9_-]{43}$/;

const transactionShape = z.object({
  clientId: z.string(),
  redirectUri: z.string(),
  state: z.string().optional(),
  audience: z.string(),
  accountId: z.string(),
  scope: z.string(),
  codeChallenge: z.string().nullable(),
  expiresAt: z.number(),
  binding: z.string(),
});

export type SignInTransaction = z.infer<typeof transactionShape>;
export type SignInRequest = Omit<SignInTransaction, 'expiresAt' | 'binding'>;

export interface SignInTransactions {
  /** The hidden-field value for a form shown to the browser holding `browserKey`. */
  seal(request: SignInRequest, browserKey: string): string;
  /** The request a posted form carries; throws OAUTH_SIGN_IN_EXPIRED when it is forged, stale or from another browser. */
  open(sealed: string, browserKey: string | undefined): SignInTransaction;
}

export function signInTransactions(secret: string, clock: Clock): SignInTransactions {
  const mac = (payload: string): Buffer => createHmac('sha256', secret).update(`sign-in-transaction\n${payload}`).digest();
  const refuse = (why: string): ServiceError => new ServiceError('OAUTH_SIGN_IN_EXPIRED', `${why} Start the sign-in again from the application.`);

  return {
    seal(request, browserKey) {
      const transaction: SignInTransaction = { ...request, expiresAt: clock.now() + LIFETIME_MS, binding: hashSecret(browserKey) };
      const payload = Buffer.from(JSON.stringify(transaction), 'utf8').toString('base64url');
      return `${payload}.${mac(payload).toString('base64url')}`;
    },
    open(sealed, browserKey) {
      const [payload, signature, extra] = sealed.split('.');
      if (payload === undefined || signature === undefined || extra !== undefined) throw refuse('The sign-in form was altered.');
      const given = Buffer.from(signature, 'base64url');
      const expected = mac(payload);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw refuse('The sign-in form was altered.');
      const parsed = transactionShape.safeParse(parseJson(Buffer.from(payload, 'base64url').toString('utf8')));
      if (!parsed.success) throw refuse('The sign-in form was altered.');
      const transaction = parsed.data;
      if (transaction.expiresAt < clock.now()) throw refuse('The sign-in form has expired.');
      if (browserKey === undefined || !sameSecret(hashSecret(browserKey), transaction.binding)) {
        throw refuse('The sign-in form was not opened in this browser (or cookies are blocked).');
      }
      return transaction;
    },
  };
}

/** The browser's binding key from its Cookie header, if it holds a well-formed one. */
export function browserKeyFrom(cookieHeader: string | undefined): string | undefined {
  for (const part of (cookieHeader ?? '').split(';')) {
    const [name, value] = part.trim().split('=', 2);
    if (name === BINDING_COOKIE && value !== undefined && BINDING_SHAPE.test(value)) return value;
  }
  return undefined;
}

export function newBrowserKey(): string {
  return randomBytes(32).toString('base64url');
}

/** Set-Cookie for the binding key: unreadable by scripts, never sent with another site's requests. */
export function browserKeyCookie(browserKey: string, secure: boolean): string {
  return [`${BINDING_COOKIE}=${browserKey}`, 'Path=/authorize', 'HttpOnly', 'SameSite=Strict', `Max-Age=${LIFETIME_MS / 1000}`, ...(secure ? ['Secure'] : [])].join('; ');
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
