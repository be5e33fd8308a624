/**
 * Refresh tokens (`refresh_tokens`), kept only as their SHA-256. Tokens descending from one
 * authorisation share a `family_id`: a rotated token stays in the table (with `rotated_at` set) so that
 * its reuse is recognised as theft and the whole family revoked. This module only stores; the rules
 * live in the token endpoint.
 */
import type { Db } from '../db/open-database.js';

export interface RefreshTokenRecord {
  familyId: string;
  clientId: string;
  userId: string;
  accountId: string;
  scope: string;
  audience: string;
  /** Epoch ms. */
  expiresAt: number;
  rotatedAt: number | null;
  revokedAt: number | null;
}

export function refreshTokensRepo(db: Db) {
  const insert = db.prepare(
    `INSERT INTO refresh_tokens (token_hash, family_id, client_id, user_id, account_id, scope, audience, expires_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const find = db.prepare<[string], RefreshTokenRecord>(
    `SELECT family_id AS familyId, client_id AS clientId, user_id AS userId, account_id AS accountId, scope, audience,
            expires_at AS expiresAt, rotated_at AS rotatedAt, revoked_at AS revokedAt
       FROM refresh_tokens WHERE token_hash = ?`,
  );
  const markRotated = db.prepare('UPDATE refresh_tokens SET rotated_at = ? WHERE token_hash = ? AND rotated_at IS NULL AND revoked_at IS NULL');
  const revokeFamily = db.prepare('UPDATE refresh_tokens SET revoked_at = ? WHERE family_id = ? AND revoked_at IS NULL');
  const revokeUser = db.prepare('UPDATE refresh_tokens SET revoked_at = ? WHERE user_id = ? AND revoked_at IS NULL');
  const purge = db.prepare('DELETE FROM refresh_tokens WHERE expires_at < ?');

  return {
    insert(tokenHash: string, token: Omit<RefreshTokenRecord, 'rotatedAt' | 'revokedAt'>): void {
      insert.run(tokenHash, token.familyId, token.clientId, token.userId, token.accountId, token.scope, token.audience, token.expiresAt);
    },
    find: (tokenHash: string): RefreshTokenRecord | undefined => find.get(tokenHash),
    /** Marks the token exchanged for a successor; false when it was already rotated or revoked. */
    markRotated: (tokenHash: string, now: number): boolean => markRotated.run(now, tokenHash).changes === 1,
    revokeFamily: (familyId: string, now: number): void => void revokeFamily.run(now, familyId),
    /** Revokes every refresh token of the user, in every account (a new password). */
    revokeUser: (userId: string, now: number): void => void revokeUser.run(now, userId),
    /** Forgets tokens that expired before `before` (epoch ms). */
    purgeExpired: (before: number): void => void purge.run(before),
  };
}

export type RefreshTokensRepo = ReturnType<typeof refreshTokensRepo>;
