import { describe, expect, it } from 'vitest';
import { isValidS256Challenge, s256Challenge, verifierMatches } from './pkce.js';

describe('PKCE S256', () => {
  // RFC 7636 Appendix B.
  const verifier = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';
  const challenge = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';

  it('derives the RFC 7636 example challenge', () => {
    expect(s256Challenge(verifier)).toBe(challenge);
    expect(isValidS256Challenge(challenge)).toBe(true);
  });

  it('accepts only the verifier the challenge came from', () => {
    expect(verifierMatches(verifier, challenge)).toBe(true);
    expect(verifierMatches(`${verifier.slice(0, -1)}N`, challenge)).toBe(false);
    // `plain` would compare the challenge itself with the verifier.
    expect(verifierMatches(challenge, challenge)).toBe(false);
  });

  it.each([
    ['too short', 'a'.repeat(42)],
    ['too long', 'a'.repeat(129)],
    ['outside the unreserved set', `${'a'.repeat(42)}/`],
  ])('refuses a verifier %s', (_name, candidate) => {
    expect(verifierMatches(candidate, s256Challenge(candidate))).toBe(false);
  });
});
