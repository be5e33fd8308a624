/**
 * Opaque secrets of the authorisation server: authorisation codes, refresh tokens, client secrets and
 * the sign-in binding cookie. Codes and tokens are stored only as their SHA-256, so a copy of the
 * database cannot replay them; every comparison of a secret runs in constant time. Never log a secret
 * and never compare one with `===`.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** 256 random bits, base64url (43 characters). */
export function newOpaqueSecret(): string {
  return randomBytes(32).toString('base64url');
}

/** What the database keeps instead of the secret itself. */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('base64url');
}

/** Constant-time equality of two strings of any length (both are hashed to a fixed length first). */
export function sameSecret(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given, 'utf8').digest();
  const b = createHash('sha256').update(expected, 'utf8').digest();
  return timingSafeEqual(a, b);
}
