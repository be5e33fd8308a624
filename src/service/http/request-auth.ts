/**
 * Bearer authentication for API routes: verifies the JWT, selects the account named by its
 * `subdomain:` scope, and loads the caller's role there (a member's, or admin for staff: see
 * auth/session-members.ts). A token issued before the account's or the user's last security change
 * (an older token generation), or whose grant was revoked (signed out: auth/token-revocation.ts), is
 * refused with TOKEN_REVOKED. Routes read the result with
 * `caller(request)`. Routes marked `config: { public: true }` (OAuth pages, signed URLs) skip it.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Role } from '../accounts/accounts-repo.js';
import type { MemberRow } from '../accounts/accounts-repo.js';
import { isRetired, type SessionMember, type SessionMembers } from '../auth/session-members.js';
import type { FolderScope } from '../groups/folder-scope.js';
import type { FolderPolicy } from '../groups/folder-policy.js';
import { subdomainOf, type AccessTokens } from '../auth/access-tokens.js';
import { ServiceError } from '../errors/service-error.js';

export interface Caller {
  userId: string;
  email: string;
  name: string | null;
  accountId: string;
  role: Role;
  /** Staff of the installation working in this account (not a member of it; role admin). */
  staff: boolean;
  /** The caller's folder limit from their groups (null: none); applied wherever assets are read. */
  folders: FolderScope;
}

declare module 'fastify' {
  interface FastifyRequest {
    caller: Caller | null;
  }
  interface FastifyContextConfig {
    /** No bearer token needed (OAuth pages, signed URLs, health). */
    public?: boolean;
    /** The body is raw bytes streamed by the handler itself (upload parts). */
    rawBody?: boolean;
  }
}

export function installRequestAuth(app: FastifyInstance, tokens: AccessTokens, sessions: SessionMembers, scopes: Pick<FolderPolicy, 'scopeOf'>): void {
  app.decorateRequest('caller', null);
  app.addHook('onRequest', async (request) => {
    if (request.routeOptions.config.public === true || request.routeOptions.url === undefined) return;
    request.caller = callerOf(await authenticate(request.headers.authorization, tokens, sessions), scopes);
  });
}

async function authenticate(header: string | undefined, tokens: AccessTokens, sessions: SessionMembers): Promise<SessionMember> {
  if (header === undefined || header.trim() === '') throw new ServiceError('UNAUTHENTICATED');
  const [scheme, credential] = header.trim().split(/\s+/, 2);
  if (scheme?.toLowerCase() === 'passcode') {
    throw new ServiceError('UNAUTHENTICATED', 'Passcode authentication is only for portal visitors (/public/portals/…); use a bearer token here.');
  }
  if (scheme?.toLowerCase() !== 'bearer' || credential === undefined) {
    throw new ServiceError('UNAUTHENTICATED', 'Send the access token as "Authorization: Bearer <token>".');
  }
  const claims = await tokens.verify(credential);
  const subdomain = subdomainOf(claims.scope);
  if (subdomain === undefined) throw new ServiceError('TOKEN_INVALID', 'The token has no "subdomain:" scope selecting an account.');
  const found = sessions.forToken(subdomain, claims.sub, claims);
  if (found === undefined) {
    // Rare (a removed user, a deleted account): the second lookup only runs to say which.
    const why = sessions.hasAccount(subdomain) ? "The token's user is not a member of that account." : `No account with subdomain "${subdomain}".`;
    throw new ServiceError('TOKEN_INVALID', why);
  }
  const { member, revoked } = found;
  if (isRetired(claims.generation, member.generation)) throw new ServiceError('TOKEN_REVOKED');
  if (revoked) throw new ServiceError('TOKEN_REVOKED', 'The access token was revoked (its sign-in was ended); sign in again.');
  return member;
}

/** A member (or staff) acting in an account: requests, and the jobs and uploads that act for them later. */
export function callerOf(member: MemberRow | SessionMember, scopes: Pick<FolderPolicy, 'scopeOf'>): Caller {
  const { id: userId, email, name, account_id: accountId, role } = member;
  const staff = 'staff' in member && member.staff;
  return { userId, email, name, accountId, role, staff, folders: scopes.scopeOf(accountId, userId, role) };
}

/** The authenticated caller of an API route (a bug if called on a public route). */
export function caller(request: FastifyRequest): Caller {
  if (request.caller === null) throw new ServiceError('UNAUTHENTICATED');
  return request.caller;
}
