/**
 * Who a user is inside an account for a session: a member with their role, or, when they are not a
 * member but a staff member of the installation, staff acting with the admin role (SERVICE-SPEC §4.3:
 * "staff members can log in to any account"). A membership wins: a staff member who also belongs to
 * the account works there as that member. Sign-in, the token endpoint, every API request and the job
 * runner all ask here, so the rule is in one place.
 *
 * It also keeps the token generations (migration 0016): one per account and one per user. A token
 * carries the pair it was issued under; `bumpAccount` / `bumpUser` retire every token issued before.
 * The request lookup returns both numbers with the caller, in the one statement that already runs on
 * every request, so checking them costs no extra read (and stays right when another process, the
 * admin CLI, makes the change). The same statement says whether the token's family or jti was revoked
 * (token-revocation.ts), for the same reasons.
 */
import type { MemberRow } from '../accounts/accounts-repo.js';
import type { Db } from '../db/open-database.js';

/** The account's and the user's token generation a token was issued under. */
export interface TokenGeneration {
  account: number;
  user: number;
}

export interface SessionMember extends MemberRow {
  /** Staff of the installation, not a member of the account (their role there is admin). */
  staff: boolean;
  generation: TokenGeneration;
}

/** The grants a presented access token belongs to: its refresh-token family (if any) and its own jti. */
export interface TokenGrants {
  family?: string | undefined;
  jti: string;
}

interface SessionRow extends MemberRow {
  staff: number;
  account_generation: number;
  user_generation: number;
}

const COLUMNS = `u.id, u.email, u.name, u.password_hash, a.id AS account_id, COALESCE(m.role, 'admin') AS role, m.role IS NULL AS staff,
                 a.token_generation AS account_generation, u.token_generation AS user_generation`;
const FROM = `FROM accounts a JOIN users u ON u.id = ?
              LEFT JOIN memberships m ON m.account_id = a.id AND m.user_id = u.id`;
const SELECT = `SELECT ${COLUMNS} ${FROM}`;
/** The request's lookup also says whether the token's family or jti was revoked (its two parameters come first). */
const SELECT_WITH_REVOCATION = `SELECT ${COLUMNS}, EXISTS (SELECT 1 FROM revoked_grants r WHERE r.id IN (?, ?)) AS revoked ${FROM}`;
const MEMBER_OR_STAFF = '(m.user_id IS NOT NULL OR EXISTS (SELECT 1 FROM staff_members s WHERE s.user_id = u.id))';

/** Whether a token of generation `token` was issued before the last security change (`current`). */
export function isRetired(token: TokenGeneration, current: TokenGeneration): boolean {
  return token.account < current.account || token.user < current.user;
}

export function sessionMembers(db: Db) {
  // Positional parameters: the request path runs this on every call, and binding an object costs more.
  const bySubdomain = db.prepare<[string, string, string, string], SessionRow & { revoked: number }>(
    `${SELECT_WITH_REVOCATION} WHERE a.subdomain = ? AND ${MEMBER_OR_STAFF}`,
  );
  const byAccount = db.prepare<[string, string], SessionRow>(`${SELECT} WHERE a.id = ? AND ${MEMBER_OR_STAFF}`);
  const generation = db.prepare<[string, string], { account_generation: number; user_generation: number }>(
    'SELECT a.token_generation AS account_generation, u.token_generation AS user_generation FROM accounts a JOIN users u ON u.id = ? WHERE a.subdomain = ?',
  );
  const account = db.prepare<[string], { id: string }>('SELECT id FROM accounts WHERE subdomain = ?');
  const bumpAccount = db.prepare('UPDATE accounts SET token_generation = token_generation + 1 WHERE id = ?');
  const bumpUser = db.prepare('UPDATE users SET token_generation = token_generation + 1 WHERE id = ?');
  const toMember = (row: SessionRow | undefined): SessionMember | undefined =>
    row === undefined
      ? undefined
      : {
          id: row.id,
          email: row.email,
          name: row.name,
          password_hash: row.password_hash,
          account_id: row.account_id,
          role: row.role,
          staff: row.staff === 1,
          generation: { account: row.account_generation, user: row.user_generation },
        };

  return {
    /**
     * The user in the account with this subdomain (undefined: no such account, or neither member nor
     * staff), and whether the presented token's grants were revoked.
     */
    forToken: (subdomain: string, userId: string, grants: TokenGrants): { member: SessionMember; revoked: boolean } | undefined => {
      const row = bySubdomain.get(grants.family ?? '', grants.jti, userId, subdomain);
      const member = toMember(row);
      return row === undefined || member === undefined ? undefined : { member, revoked: row.revoked === 1 };
    },
    byAccount: (accountId: string, userId: string) => toMember(byAccount.get(userId, accountId)),
    hasAccount: (subdomain: string): boolean => account.get(subdomain) !== undefined,
    /** The generation a token for this user in this account is issued under now (undefined: no such account or user). */
    generationOf: (subdomain: string, userId: string): TokenGeneration | undefined => {
      const row = generation.get(userId, subdomain);
      return row === undefined ? undefined : { account: row.account_generation, user: row.user_generation };
    },
    /** Retires every access token issued for the account so far. */
    bumpAccount: (accountId: string): void => void bumpAccount.run(accountId),
    /** Retires every access token issued to the user so far, in every account. */
    bumpUser: (userId: string): void => void bumpUser.run(userId),
  };
}

export type SessionMembers = ReturnType<typeof sessionMembers>;
