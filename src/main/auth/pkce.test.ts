import { describe, expect, it } from 'vitest';
import { createPkcePair, pkceChallenge, randomState } from './pkce.js';

describe('PKCE S256', () => {
  it('matches the worked example of RFC 7636 appendix B', () => {
    expect(pkceChallenge('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk')).toBe('E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM');
  });

  it('makes fresh, well-formed pairs and states', () => {
    const a = createPkcePair();
    const b = createPkcePair();
    expect(a.verifier).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(a.challenge).toBe(pkceChallenge(a.verifier));
    expect(a.method).toBe('S256');
    expect(a.verifier).not.toBe(b.verifier);
    expect(randomState()).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(randomState()).not.toBe(randomState());
  });
});
