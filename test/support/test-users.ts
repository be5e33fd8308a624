/** Extra users with a role in the local account, and a clock tests move by hand. */
import type { Role } from '../../src/service/accounts/accounts-repo.js';
import { hashPassword } from '../../src/service/accounts/passwords.js';
import { LOCAL_SUBDOMAIN } from '../../src/service/bootstrap.js';
import type { TestService } from './test-service.js';

/** Creates a user who is `role` in the local account and returns a bearer token for them. */
export async function addUser(service: TestService, email: string, role: Role, password = 'a password of theirs'): Promise<{ userId: string; token: string }> {
  const { ctx } = service.running;
  const account = ctx.accounts.bySubdomain(LOCAL_SUBDOMAIN);
  if (account === undefined) throw new Error('no local account');
  const user = ctx.accounts.createUser(email, email.split('@')[0] ?? email, await hashPassword(password), ctx.nowIso());
  ctx.accounts.addMembership(account.id, user.id, role);
  return { userId: user.id, token: await service.token(email) };
}

/** A clock that stands still until the test moves it. */
export interface FakeClock {
  now(): number;
  advance(milliseconds: number): void;
}

export function fakeClock(start = Date.now()): FakeClock {
  let time = start;
  return {
    now: () => time,
    advance(milliseconds) {
      time += milliseconds;
    },
  };
}
