/**
 * Signed, expiring URLs for part uploads and downloads: they carry no bearer token, so the signature
 * (HMAC-SHA256 over the path, expiry and bound parameters, with the installation's secret) is the
 * only thing that authorises them. Anything not covered by the signature is ignored.
 */
import { createHmac, createSecretKey, timingSafeEqual } from 'node:crypto';
import { ServiceError } from '../errors/service-error.js';
import type { Clock } from '../clock.js';

export interface UrlSigner {
  /** `baseUrl + path?params&expires=…&signature=…` */
  sign(path: string, params: Record<string, string>, ttlSeconds: number): { url: string; expiresAt: number };
  /** Verifies the query of a request to `path`; returns the bound params. Throws 403 when invalid or expired. */
  verify(path: string, query: Record<string, string | undefined>, boundKeys: readonly string[]): Record<string, string>;
}

export function createUrlSigner(secret: string, clock: Clock, baseUrl: () => string): UrlSigner {
  // The secret imported once: given as a string, every HMAC imports it again (a page of search results
  // signs a preview URL per asset).
  const key = createSecretKey(secret, 'utf8');
  const mac = (payload: string): Buffer => createHmac('sha256', key).update(payload).digest();
  const payloadOf = (path: string, params: Record<string, string>, expires: string): string =>
    [path, expires, ...Object.keys(params).sort().map((key) => `${key}=${params[key] ?? ''}`)].join('\n');

  return {
    sign(path, params, ttlSeconds) {
      const expiresAt = clock.now() + ttlSeconds * 1000;
      const expires = String(Math.floor(expiresAt / 1000));
      const signature = mac(payloadOf(path, params, expires)).toString('base64url');
      // Without parameters the query is two URL-safe values (digits, base64url), written as URLSearchParams
      // writes them, without building one per URL (a page of search results signs a preview URL per asset).
      const query = Object.keys(params).length === 0 ? `expires=${expires}&signature=${signature}` : new URLSearchParams({ ...params, expires, signature }).toString();
      return { url: `${baseUrl()}${path}?${query}`, expiresAt: Number(expires) * 1000 };
    },
    verify(path, query, boundKeys) {
      const { expires, signature } = query;
      if (expires === undefined || signature === undefined || !/^\d{1,12}$/.test(expires)) {
        throw new ServiceError('INVALID_SIGNATURE', 'The URL is not signed; ask the API for a signed URL.');
      }
      const params: Record<string, string> = {};
      for (const key of boundKeys) {
        const value = query[key];
        if (value !== undefined) params[key] = value;
      }
      const expected = mac(payloadOf(path, params, expires));
      const given = Buffer.from(signature, 'base64url');
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw new ServiceError('INVALID_SIGNATURE');
      if (Number(expires) * 1000 < clock.now()) throw new ServiceError('SIGNED_URL_EXPIRED');
      return params;
    },
  };
}
