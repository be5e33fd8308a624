/**
 * Who may talk to the control server. It listens on 127.0.0.1 only, but any web page the user opens can
 * send requests to 127.0.0.1, and a DNS-rebinding page can even make them same-origin by name; so:
 * - the Host header must name this server (`127.0.0.1:PORT` or `localhost:PORT`): a rebound name fails;
 * - a request that carries an Origin (or `Sec-Fetch-Site: cross-site`) not of this server is refused,
 *   and no CORS header is ever sent, so other pages can neither read answers nor preflight writes;
 * - every API request proves it knows the secret: the session cookie the secret was exchanged for
 *   (HttpOnly, SameSite=Strict), or `Authorization: Bearer <secret>` (the CLI).
 * Secrets are compared in constant time and never logged or echoed.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

export const SESSION_COOKIE = 'asset_sync_session';

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

/** The server's sessions: the secret, and the cookies it was exchanged for. */
export class Sessions {
  private readonly cookies = new Set<string>();

  constructor(private readonly secret: string) {}

  /** A new session cookie for a browser that showed the secret. */
  open(): string {
    const cookie = randomBytes(32).toString('base64url');
    this.cookies.add(cookie);
    return cookie;
  }

  matchesSecret(given: string): boolean {
    return sameSecret(given, this.secret);
  }

  /** Whether the request carries a live session cookie or the secret as a bearer token. */
  authorised(request: IncomingMessage): boolean {
    const bearer = bearerToken(request);
    if (bearer !== undefined) return sameSecret(bearer, this.secret);
    const cookie = cookieValue(request, SESSION_COOKIE);
    if (cookie === undefined) return false;
    for (const known of this.cookies) if (sameSecret(cookie, known)) return true;
    return false;
  }
}

/** The Set-Cookie header of a session: not readable by scripts, never sent by other sites. */
export function sessionCookieHeader(cookie: string): string {
  return `${SESSION_COOKIE}=${cookie}; HttpOnly; SameSite=Strict; Path=/`;
}
