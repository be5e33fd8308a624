/**
 * PKCE (RFC 7636) with the S256 method only: `plain` would hand the challenge's secret to anyone who
 * sees the authorisation request, so it is refused. Pure functions; must never accept a verifier that
 * is not the one the challenge was derived from.
 */
import { createHash } from 'node:crypto';
import { sameSecret } from './opaque-secrets.js';

/** RFC 7636 §4.1: 43–128 characters from the unreserved set. */
const VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;
/** BASE64URL(SHA256(verifier)) without padding is always 43 characters. */
const S256_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

export function isValidVerifier(verifier: string): boolean {
  return VERIFIER.test(verifier);
}

export function isValidS256Challenge(challenge: string): boolean {
  return S256_CHALLENGE.test(challenge);
}

/** The S256 challenge of a verifier. */
export function s256Challenge(verifier: string): string {
  return createHash('sha256').update(verifier, 'ascii').digest('base64url');
}

/** Does the verifier prove possession of the challenge? Malformed verifiers never do. */
export function verifierMatches(verifier: string, challenge: string): boolean {
  return isValidVerifier(verifier) && sameSecret(s256Challenge(verifier), challenge);
}
