/**
 * User management on a data directory, for `asset-sync user …`: add a user with a role, list, change a
 * role or a password, remove. An account always keeps at least one admin, so nobody can lock the
 * installation out of its own schema and settings. Adding a user counts against the account's `user`
 * quota (administration/quotas.ts): over it, nothing is created. A new password retires the user's
 * access tokens and refresh tokens, so a leaked password stops working everywhere at once.
 */
import { ROLES, type MemberRow, type Role } from '../accounts/accounts-repo.js';
import { generatePassword, hashPassword } from '../accounts/passwords.js';
import { AdminError } from './admin-error.js';
import { quotas } from '../administration/quotas.js';
import { sessionMembers } from '../auth/session-members.js';
import { refreshTokensRepo } from '../auth/refresh-tokens-repo.js';
import { ServiceError } from '../errors/service-error.js';
import { withDataDir, type DataDirSession } from './data-dir.js';

export interface UserTarget {
  dataDir: string;
  subdomain?: string | undefined;
}

export interface UserSummary {
  id: string;
  email: string;
  name: string | null;
  role: Role;
}

export const MIN_PASSWORD_LENGTH = 8;

export function parseRole(value: string | undefined): Role {
  const role = ROLES.find((known) => known === value);
  if (role === undefined) throw new AdminError('INVALID_INPUT', `--role must be one of ${ROLES.join(', ')}${value === undefined ? '' : `, got "${value}"`}.`);
  return role;
}

function checkEmail(email: string): string {
  const trimmed = email.trim();
  if (!/^[^\s@]+@[^\s@]+$/.test(trimmed) || trimmed.length > 320) throw new AdminError('INVALID_INPUT', `"${email}" is not an email address.`);
  return trimmed;
}

function checkPassword(password: string): string {
  if (password.length < MIN_PASSWORD_LENGTH) throw new AdminError('INVALID_INPUT', `A password needs at least ${MIN_PASSWORD_LENGTH} characters.`);
  return password;
}

function member({ accounts, account }: DataDirSession, email: string): MemberRow {
  const user = accounts.userByEmail(email.trim());
  if (user === undefined) throw new AdminError('NO_SUCH_USER', `No user ${email}.`);
  const found = accounts.membership(account.id, user.id);
  if (found === undefined) throw new AdminError('NOT_A_MEMBER', `${email} is not a member of account "${account.subdomain}".`);
  return found;
}

const summary = (row: MemberRow): UserSummary => ({ id: row.id, email: row.email, name: row.name, role: row.role });

/** Adds a member; returns the password when one was generated (to be shown once). */
export async function addUser(target: UserTarget, input: { email: string; role: Role; password?: string | undefined; name?: string | undefined }): Promise<{ user: UserSummary; generatedPassword?: string }> {
  const email = checkEmail(input.email);
  const password = input.password === undefined ? generatePassword() : checkPassword(input.password);
  const passwordHash = await hashPassword(password);
  return withDataDir(target.dataDir, target.subdomain, (session) => {
    const { db, accounts, account } = session;
    const user = db.transaction(() => {
      const existing = accounts.userByEmail(email);
      if (existing !== undefined && accounts.membership(account.id, existing.id) !== undefined) {
        throw new AdminError('USER_EXISTS', `${email} is already a member; use \`asset-sync user set-role\` to change the role.`);
      }
      try {
        quotas(db).check(account.id, 'user', 1);
      } catch (error) {
        if (error instanceof ServiceError) throw new AdminError('QUOTA_EXCEEDED', error.message);
        throw error;
      }
      const row = existing ?? accounts.createUser(email, input.name ?? null, passwordHash, new Date().toISOString());
      accounts.addMembership(account.id, row.id, input.role);
      return member(session, email);
    })();
    return input.password === undefined ? { user: summary(user), generatedPassword: password } : { user: summary(user) };
  });
}

export async function listUsers(target: UserTarget): Promise<UserSummary[]> {
  return withDataDir(target.dataDir, target.subdomain, ({ accounts, account }) => accounts.members(account.id).map(summary));
}

export async function setRole(target: UserTarget, email: string, role: Role): Promise<UserSummary> {
  return withDataDir(target.dataDir, target.subdomain, (session) => {
    const { db, accounts, account } = session;
    return db.transaction(() => {
      const row = member(session, email);
      if (row.role === 'admin' && role !== 'admin' && accounts.adminCount(account.id) === 1) {
        throw new AdminError('LAST_ADMIN', `${row.email} is the last admin; make another user admin first.`);
      }
      accounts.setRole(account.id, row.id, role);
      return { ...summary(row), role };
    })();
  });
}

export async function removeUser(target: UserTarget, email: string): Promise<UserSummary> {
  return withDataDir(target.dataDir, target.subdomain, (session) => {
    const { db, accounts, account } = session;
    return db.transaction(() => {
      const row = member(session, email);
      if (row.role === 'admin' && accounts.adminCount(account.id) === 1) {
        throw new AdminError('LAST_ADMIN', `${row.email} is the last admin and cannot be removed.`);
      }
      accounts.removeMember(account.id, row.id);
      return summary(row);
    })();
  });
}

/** Sets a password; returns it when generated. */
export async function setPassword(target: UserTarget, email: string, password?: string): Promise<string | undefined> {
  const chosen = password === undefined ? generatePassword() : checkPassword(password);
  const passwordHash = await hashPassword(chosen);
  return withDataDir(target.dataDir, target.subdomain, (session) => {
    const { db, accounts } = session;
    db.transaction(() => {
      const { id } = member(session, email);
      accounts.setPassword(id, passwordHash);
      sessionMembers(db).bumpUser(id);
      refreshTokensRepo(db).revokeUser(id, Date.now());
    })();
    return password === undefined ? chosen : undefined;
  });
}
