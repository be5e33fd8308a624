/**
 * Who may talk to the control server. It listens on 127.0.0.1 only, but any web page the user opens can
 * send requests to 127.0.0.1, and a DNS-rebinding page can even make them same-origin by name; so:
 * - the Host header must name this server (`127.0.0.1:PORT` or `localhost:PORT`): a rebound name fails;
 * - a request that carries an Origin (or `Sec-Fetch-Site: cross-site`) not of this server is refused,
 *   and no CORS header is ever sent, so other pages can neither read answers nor preflight writes;
 * - every API request proves who it is: a browser by the session cookie a window link was exchanged
 *   for (HttpOnly, SameSite=Strict), the CLI by `Authorization: Bearer <CLI key>`.
 * Two credentials, kept apart. A window link (`/?secret=…`) opens the window once: its secret is spent
 * when exchanged for the cookie, and is never a bearer token, so a link left in a terminal, a history or
 * a screenshot opens nothing afterwards. The CLI key never leaves app.json (0600 in the state dir) and
 * never opens a window. New links are made on demand (`asset-sync open`). A session cookie is signed
 * with the cookie key, which the state dir keeps across starts (ui-address.ts), so an open tab or a
 * bookmark gets back in when the app starts again, for SESSION_DAYS after its link was used.
 * Secrets are compared in constant time and never logged or echoed.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** How long a browser stays let in after it used a window link, across restarts of the app. */
export const SESSION_DAYS = 30;
const SESSION_SECONDS = SESSION_DAYS * 24 * 3600;
/** A cookie dated this far ahead of the clock is not one this app made. */
const CLOCK_SKEW_SECONDS = 300;
/** Unused window links kept at most; making one more forgets the oldest. */
const OPEN_LINKS = 16;

/**
 * The session cookie's name carries the port: cookies are shared by every port of 127.0.0.1, and two
 * apps (two state dirs) in one browser must not overwrite each other's session.
 */
export function sessionCookieName(port: number): string {
  return `asset_sync_session_${port}`;
}

export type GuardVerdict = { ok: true } | { ok: false; status: number; code: 'WRONG_HOST' | 'CROSS_ORIGIN' | 'NOT_AUTHORISED'; message: string };

export function newSecret(): string {
  return randomBytes(32).toString('base64url');
}

/** Constant-time equality of two secrets of any length (hashes first, so lengths do not leak). */
export function sameSecret(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

export function allowedHosts(port: number): string[] {
  return [`127.0.0.1:${port}`, `localhost:${port}`];
}

export function allowedOrigins(port: number): string[] {
  return allowedHosts(port).map((host) => `http://${host}`);
}

/** The Host and Origin rules (before any authentication). */
export function checkSite(request: IncomingMessage, port: number): GuardVerdict {
  const host = request.headers.host?.toLowerCase();
  if (host === undefined || !allowedHosts(port).includes(host)) {
    return { ok: false, status: 421, code: 'WRONG_HOST', message: 'This server answers only to 127.0.0.1 and localhost.' };
  }
  const origin = request.headers.origin;
  if (origin !== undefined && !allowedOrigins(port).includes(origin.toLowerCase())) {
    return { ok: false, status: 403, code: 'CROSS_ORIGIN', message: 'Requests from other sites are refused.' };
  }
  if (request.headers['sec-fetch-site'] === 'cross-site') {
    return { ok: false, status: 403, code: 'CROSS_ORIGIN', message: 'Requests from other sites are refused.' };
  }
  return { ok: true };
}

export function cookieValue(request: IncomingMessage, name: string): string | undefined {
  const header = request.headers.cookie;
  if (header === undefined) return undefined;
  for (const part of header.split(';')) {
    const index = part.indexOf('=');
    if (index < 0) continue;
    if (part.slice(0, index).trim() === name) return part.slice(index + 1).trim();
  }
  return undefined;
}

export function bearerToken(request: IncomingMessage): string | undefined {
  const header = request.headers.authorization;
  const match = header === undefined ? null : /^Bearer\s+(\S+)$/i.exec(header);
  return match?.[1];
}

/**
 * The server's sessions: the unused window links, the CLI key, and the cookies links were exchanged
 * for. A cookie is `<issued seconds>.<random>.<HMAC-SHA256 of both under the cookie key>`, checked
 * without any list, so it stays good across restarts that keep the cookie key, until it is SESSION_DAYS old.
 */
export class Sessions {
  /** Unused window-link secrets, oldest first. */
  private readonly links: string[] = [];

  constructor(
    private readonly cliKey: string,
    private readonly cookieKey: string,
    /** The server's port, known once it listens (the cookie's name carries it). */
    private readonly port: () => number,
    private readonly now: () => number = Date.now,
  ) {}

  /** A new one-time window-link secret. */
  newLink(): string {
    const secret = newSecret();
    this.links.push(secret);
    if (this.links.length > OPEN_LINKS) this.links.shift();
    return secret;
  }

  /** Spends a window link: true once for each secret `newLink` made, false ever after. */
  redeem(given: string): boolean {
    // Every link is compared, so the time taken says nothing about which (or whether one) matched.
    const index = this.links.reduce((found, secret, at) => (sameSecret(given, secret) ? at : found), -1);
    if (index < 0) return false;
    this.links.splice(index, 1);
    return true;
  }

  /** A new session cookie for a browser that used a window link. */
  open(): string {
    const claim = `${Math.floor(this.now() / 1000)}.${randomBytes(18).toString('base64url')}`;
    return `${claim}.${this.sign(claim)}`;
  }

  /** Whether the request carries the CLI key as its bearer token. */
  fromCli(request: IncomingMessage): boolean {
    const bearer = bearerToken(request);
    return bearer !== undefined && sameSecret(bearer, this.cliKey);
  }

  /** Whether the request carries a live session cookie or the CLI key. */
  authorised(request: IncomingMessage): boolean {
    if (bearerToken(request) !== undefined) return this.fromCli(request);
    const cookie = cookieValue(request, sessionCookieName(this.port()));
    return cookie !== undefined && this.validCookie(cookie);
  }

  /** The Set-Cookie header of a new session. */
  cookieHeader(): string {
    return sessionCookieHeader(this.port(), this.open());
  }

  private validCookie(cookie: string): boolean {
    const match = /^(\d{1,12})\.([A-Za-z0-9_-]{24})\.([A-Za-z0-9_-]{43})$/.exec(cookie);
    if (match === null) return false;
    const [, issued = '', , mac = ''] = match;
    const age = Math.floor(this.now() / 1000) - Number(issued);
    if (age > SESSION_SECONDS || age < -CLOCK_SKEW_SECONDS) return false;
    return sameSecret(mac, this.sign(cookie.slice(0, cookie.lastIndexOf('.'))));
  }

  private sign(claim: string): string {
    return createHmac('sha256', this.cookieKey).update(`asset-sync session ${claim}`).digest('base64url');
  }
}

/** The Set-Cookie header of a session: not readable by scripts, never sent by other sites, kept SESSION_DAYS. */
export function sessionCookieHeader(port: number, cookie: string): string {
  return `${sessionCookieName(port)}=${cookie}; HttpOnly; SameSite=Strict; Path=/; Max-Age=${SESSION_SECONDS}`;
}
