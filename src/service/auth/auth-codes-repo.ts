/**
 * Authorisation codes (`auth_codes`), kept only as the SHA-256 of the code. A used code stays (with the
 * refresh-token family it produced) until it has long expired, so a second use can be recognised and
 * the family revoked. This module only stores; the rules live in the token endpoint.
 */
import type { Db } from '../db/open-database.js';

/** What the user approved at /authorize, bound to the code. */
export interface AuthCodeGrant {
  clientId: string;
  userId: string;
  accountId: string;
  redirectUri: string;
  scope: string;
  audience: string;
  /** S256 challenge; null when a confidential client sent none. */
  codeChallenge: string | null;
}

export interface AuthCodeRecord extends AuthCodeGrant {
  /** Epoch ms. */
  expiresAt: number;
  usedAt: number | null;
  /** The refresh-token family issued from the code, if any. */
  familyId: string | null;
}

export function authCodesRepo(db: Db) {
  const insert = db.prepare(
    `INSERT INTO auth_codes (code_hash, client_id, user_id, account_id, redirect_uri, scope, audience, code_challenge, expires_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const find = db.prepare<[string], AuthCodeRecord>(
    `SELECT client_id AS clientId, user_id AS userId, account_id AS accountId, redirect_uri AS redirectUri, scope, audience,
            code_challenge AS codeChallenge, expires_at AS expiresAt, used_at AS usedAt, family_id AS familyId
       FROM auth_codes WHERE code_hash = ?`,
  );
  const markUsed = db.prepare('UPDATE auth_codes SET used_at = ?, family_id = ? WHERE code_hash = ? AND used_at IS NULL');
  const purge = db.prepare('DELETE FROM auth_codes WHERE expires_at < ?');

  return {
    insert(codeHash: string, grant: AuthCodeGrant, expiresAt: number): void {
      insert.run(codeHash, grant.clientId, grant.userId, grant.accountId, grant.redirectUri, grant.scope, grant.audience, grant.codeChallenge, expiresAt);
    },
    find: (codeHash: string): AuthCodeRecord | undefined => find.get(codeHash),
    /** Marks the code used, recording the family issued from it; false when it was already used. */
    markUsed: (codeHash: string, now: number, familyId: string | null): boolean => markUsed.run(now, familyId, codeHash).changes === 1,
    /** Forgets codes that expired before `before` (epoch ms). */
    purgeExpired: (before: number): void => void purge.run(before),
  };
}

export type AuthCodesRepo = ReturnType<typeof authCodesRepo>;
