/**
 * Ending a grant before it expires, the one place that does it. Revoking a refresh-token family ends its
 * refresh tokens and refuses every access token issued from it (they carry the family, access-tokens.ts);
 * an access token of no family is refused by its own jti. Request authentication reads the refusals in
 * the statement it already runs (session-members.ts), so a revocation holds at once, in every process
 * on the data directory. A refusal is kept only while a token it refuses can still be valid.
 */
import type { Db } from '../db/open-database.js';
import type { RefreshTokensRepo } from './refresh-tokens-repo.js';

export interface TokenRevocation {
  /** Ends the family's refresh tokens and refuses its access tokens (issued up to `now`). */
  revokeFamily(familyId: string, now: number): void;
  /** Refuses one access token until it expires. */
  revokeAccessToken(jti: string, expiresAtMs: number, now: number): void;
}

export function tokenRevocation(db: Db, refreshTokens: Pick<RefreshTokensRepo, 'revokeFamily'>, accessTokenTtlSeconds: number): TokenRevocation {
  const refuse = db.prepare<[string, number]>('INSERT INTO revoked_grants (id, expires_at) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET expires_at = max(expires_at, excluded.expires_at)');
  const forget = db.prepare<[number]>('DELETE FROM revoked_grants WHERE expires_at <= ?');
  return {
    revokeFamily(familyId, now) {
      refreshTokens.revokeFamily(familyId, now);
      // Its newest access token was issued at `now` at the latest.
      refuse.run(familyId, now + accessTokenTtlSeconds * 1000);
      forget.run(now);
    },
    revokeAccessToken(jti, expiresAtMs, now) {
      if (jti === '' || expiresAtMs <= now) return;
      refuse.run(jti, expiresAtMs);
      forget.run(now);
    },
  };
}
