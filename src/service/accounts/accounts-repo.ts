/** Accounts, users and their memberships (which role a user has in which account). */
import { randomUUID } from 'node:crypto';
import type { Db } from '../db/open-database.js';

export type Role = 'admin' | 'member' | 'viewer';
export const ROLES: readonly Role[] = ['admin', 'member', 'viewer'];

export interface AccountRow {
  id: string;
  subdomain: string;
  name: string;
}

export interface UserRow {
  id: string;
  email: string;
  name: string | null;
  password_hash: string;
}

export interface MemberRow extends UserRow {
  role: Role;
  account_id: string;
}

export function accountsRepo(db: Db) {
  const bySubdomain = db.prepare<[string], AccountRow>('SELECT id, subdomain, name FROM accounts WHERE subdomain = ?');
  const byId = db.prepare<[string], AccountRow>('SELECT id, subdomain, name FROM accounts WHERE id = ?');
  const insertAccount = db.prepare('INSERT INTO accounts (id, subdomain, name, date_created) VALUES (?, ?, ?, ?)');
  const userByEmail = db.prepare<[string], UserRow>('SELECT id, email, name, password_hash FROM users WHERE email = ?');
  const userById = db.prepare<[string], UserRow>('SELECT id, email, name, password_hash FROM users WHERE id = ?');
  const insertUser = db.prepare('INSERT INTO users (id, email, name, password_hash, date_created) VALUES (?, ?, ?, ?, ?)');
  const insertMembership = db.prepare('INSERT INTO memberships (account_id, user_id, role) VALUES (?, ?, ?)');
  const membership = db.prepare<[string, string], MemberRow>(
    `SELECT u.id, u.email, u.name, u.password_hash, m.role, m.account_id
       FROM memberships m JOIN users u ON u.id = m.user_id WHERE m.account_id = ? AND m.user_id = ?`,
  );
  // Every API request asks this: one statement for the account and the membership together.
  const memberBySubdomain = db.prepare<[string, string], MemberRow>(
    `SELECT u.id, u.email, u.name, u.password_hash, m.role, m.account_id
       FROM accounts a JOIN memberships m ON m.account_id = a.id JOIN users u ON u.id = m.user_id WHERE a.subdomain = ? AND m.user_id = ?`,
  );

  const members = db.prepare<[string], MemberRow>(
    `SELECT u.id, u.email, u.name, u.password_hash, m.role, m.account_id
       FROM memberships m JOIN users u ON u.id = m.user_id WHERE m.account_id = ? ORDER BY u.email`,
  );
  const setRole = db.prepare('UPDATE memberships SET role = ? WHERE account_id = ? AND user_id = ?');
  const removeMembership = db.prepare('DELETE FROM memberships WHERE account_id = ? AND user_id = ?');
  const membershipCount = db.prepare<[string], { n: number }>('SELECT count(*) AS n FROM memberships WHERE user_id = ?');
  const removeUser = db.prepare('DELETE FROM users WHERE id = ?');
  const adminCount = db.prepare<[string], { n: number }>("SELECT count(*) AS n FROM memberships WHERE account_id = ? AND role = 'admin'");
  const setPassword = db.prepare('UPDATE users SET password_hash = ? WHERE id = ?');

  return {
    bySubdomain: (subdomain: string) => bySubdomain.get(subdomain),
    byId: (id: string) => byId.get(id),
    createAccount(subdomain: string, name: string, now: string): AccountRow {
      const id = randomUUID();
      insertAccount.run(id, subdomain, name, now);
      return { id, subdomain, name };
    },
    userByEmail: (email: string) => userByEmail.get(email),
    userById: (id: string) => userById.get(id),
    createUser(email: string, name: string | null, passwordHash: string, now: string): UserRow {
      const id = randomUUID();
      insertUser.run(id, email, name, passwordHash, now);
      return { id, email, name, password_hash: passwordHash };
    },
    addMembership: (accountId: string, userId: string, role: Role) => void insertMembership.run(accountId, userId, role),
    membership: (accountId: string, userId: string) => membership.get(accountId, userId),
    /** The user's membership in the account with this subdomain (undefined: no such account, or not a member). */
    membershipBySubdomain: (subdomain: string, userId: string) => memberBySubdomain.get(subdomain, userId),
    members: (accountId: string) => members.all(accountId),
    setRole: (accountId: string, userId: string, role: Role) => void setRole.run(role, accountId, userId),
    /** Removes the membership, and the user with it once they belong to no account. */
    removeMember(accountId: string, userId: string): void {
      removeMembership.run(accountId, userId);
      if ((membershipCount.get(userId)?.n ?? 0) === 0) removeUser.run(userId);
    },
    adminCount: (accountId: string) => adminCount.get(accountId)?.n ?? 0,
    setPassword: (userId: string, passwordHash: string) => void setPassword.run(passwordHash, userId),
  };
}

export type AccountsRepo = ReturnType<typeof accountsRepo>;
