/**
 * The browser's and the client's side of the OAuth code flow, for service tests: open the sign-in form,
 * post credentials (carrying the form's cookie like a browser would), read the redirect, call the token
 * endpoint. Redirects are never followed, so tests see exactly where the service sends the browser.
 */
import { createHash, randomBytes } from 'node:crypto';
import { ADMIN_PASSWORD, type TestService } from './test-service.js';

export const DESKTOP_CLIENT_ID = 'asset-sync-desktop';
export const LOOPBACK_REDIRECT = 'http://127.0.0.1:53117/callback';

export interface PkcePair {
  verifier: string;
  challenge: string;
}

export function pkcePair(): PkcePair {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** Query parameters of /authorize; `undefined` leaves a default parameter out. */
export type AuthorizeParams = Record<string, string | undefined>;

/** The desktop client's usual request (PKCE S256, offline access), with `overrides` applied. */
export function authorizeParams(service: TestService, pkce: PkcePair, overrides: AuthorizeParams = {}): AuthorizeParams {
  return {
    response_type: 'code',
    client_id: DESKTOP_CLIENT_ID,
    redirect_uri: LOOPBACK_REDIRECT,
    audience: service.running.ctx.config.audience,
    scope: 'subdomain:local offline_access',
    state: randomBytes(12).toString('base64url'),
    code_challenge: pkce.challenge,
    code_challenge_method: 'S256',
    ...overrides,
  };
}

export function authorizeUrl(service: TestService, params: AuthorizeParams): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value !== undefined) query.set(key, value);
  return `${service.url}/authorize?${query.toString()}`;
}

export interface SignInForm {
  response: Response;
  html: string;
  /** The sealed request in the form's hidden field ('' when the answer is no form). */
  transaction: string;
  /** `name=value` of the cookie set with the form ('' when none). */
  cookie: string;
}

export async function openSignInForm(service: TestService, params: AuthorizeParams): Promise<SignInForm> {
  const response = await fetch(authorizeUrl(service, params), { redirect: 'manual' });
  const html = await response.text();
  const transaction = /name="transaction" value="([^"]*)"/.exec(html)?.[1] ?? '';
  const cookie = response.headers.getSetCookie()[0]?.split(';')[0] ?? '';
  return { response, html, transaction, cookie };
}

export interface Credentials {
  email?: string;
  password?: string;
  decision?: 'allow' | 'deny';
  /** Replaces the form's cookie (e.g. '' for a browser without it). */
  cookie?: string;
  /** Replaces the hidden field (tampering tests). */
  transaction?: string;
}

/** Posts the sign-in form as a browser would. */
export async function submitSignIn(service: TestService, form: SignInForm, credentials: Credentials = {}): Promise<Response> {
  const body = new URLSearchParams({
    transaction: credentials.transaction ?? form.transaction,
    email: credentials.email ?? service.running.ctx.config.adminEmail,
    password: credentials.password ?? ADMIN_PASSWORD,
    decision: credentials.decision ?? 'allow',
  });
  const cookie = credentials.cookie ?? form.cookie;
  return fetch(`${service.url}/authorize`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...(cookie === '' ? {} : { cookie }) },
    body: body.toString(),
  });
}

/** Where a 302 sends the browser. */
export function redirectLocation(response: Response): URL {
  const location = response.headers.get('location');
  if (response.status !== 302 || location === null) throw new Error(`expected a redirect, got ${response.status}`);
  return new URL(location);
}

export interface Authorized {
  code: string;
  state: string | null;
  location: URL;
}

/** The whole browser part: form, sign-in, redirect with a code. */
export async function authorize(service: TestService, params: AuthorizeParams, credentials: Credentials = {}): Promise<Authorized> {
  const form = await openSignInForm(service, params);
  if (form.response.status !== 200) throw new Error(`no sign-in form: ${form.response.status} ${form.html.slice(0, 200)}`);
  const location = redirectLocation(await submitSignIn(service, form, credentials));
  const code = location.searchParams.get('code');
  if (code === null) throw new Error(`no code in ${location.href}`);
  return { code, state: location.searchParams.get('state'), location };
}

export interface TokenAnswer {
  status: number;
  headers: Headers;
  body: any;
}

/** POST /oauth/token, form-encoded unless `json` is set. */
export async function requestToken(
  service: TestService,
  params: Record<string, string>,
  options: { json?: boolean; headers?: Record<string, string> } = {},
): Promise<TokenAnswer> {
  const response = await fetch(`${service.url}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': options.json === true ? 'application/json' : 'application/x-www-form-urlencoded', ...options.headers },
    body: options.json === true ? JSON.stringify(params) : new URLSearchParams(params).toString(),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text === '' ? {} : JSON.parse(text) };
}

/** Exchanges a code from the desktop flow for tokens. */
export function exchangeCode(service: TestService, code: string, verifier: string, overrides: Record<string, string> = {}): Promise<TokenAnswer> {
  return requestToken(service, {
    grant_type: 'authorization_code',
    client_id: DESKTOP_CLIENT_ID,
    code,
    redirect_uri: LOOPBACK_REDIRECT,
    code_verifier: verifier,
    ...overrides,
  });
}

export function refresh(service: TestService, refreshToken: string, clientId = DESKTOP_CLIENT_ID): Promise<TokenAnswer> {
  return requestToken(service, { grant_type: 'refresh_token', client_id: clientId, refresh_token: refreshToken });
}

/** GET /current-user with a bearer token. */
export async function currentUser(service: TestService, accessToken: string): Promise<{ status: number; body: any }> {
  const response = await fetch(`${service.url}/current-user`, { headers: { authorization: `Bearer ${accessToken}` } });
  return { status: response.status, body: await response.json() };
}
