/**
 * PKCE (RFC 7636) with the S256 method, and the random `state` of an authorisation request. Pure
 * apart from the system's secure random source. The verifier is a secret until the code is exchanged:
 * it must never be logged or put in a URL.
 */
import { createHash, randomBytes } from 'node:crypto';

export interface PkcePair {
  /** 43 characters of base64url: 32 random bytes. */
  verifier: string;
  /** base64url(SHA-256(verifier)) */
  challenge: string;
  method: 'S256';
}

export function pkceChallenge(verifier: string): string {
  return createHash('sha256').update(verifier, 'ascii').digest('base64url');
}

export function createPkcePair(): PkcePair {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: pkceChallenge(verifier), method: 'S256' };
}

/** An unguessable `state` that ties the browser's answer to this sign-in. */
export function randomState(): string {
  return randomBytes(24).toString('base64url');
}
