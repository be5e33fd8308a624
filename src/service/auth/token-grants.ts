/**
 * The two grants of the token endpoint. `authorization_code`: a code is single-use and short-lived, bound
 * to its client, redirect URI and PKCE challenge; a second use revokes the refresh-token family it
 * produced. `refresh_token`: only issued with `offline_access`. A public client's (no secret: the desktop
 * app) is rotated on use, and presenting a rotated token again is treated as theft and revokes the whole
 * family. A confidential client's is not rotated (RFC 9700 §4.14.2: the client authenticates every
 * refresh), so an integration may keep one refresh token for good, as on the hosted service [real];
 * `rotateRefreshTokens: false` (`--no-refresh-rotation`) turns rotation off for public clients too.
 * Each check-and-update runs in one SQLite transaction, so two concurrent uses cannot both win; the
 * outcome is returned (not thrown) from the transaction so that a revocation is committed even though
 * the request fails. This module must never issue a token for a failed check.
 * Every grant is checked against the account as it is now: the user must still be a member (or staff,
 * session-members.ts), and a member must still pass the account's security settings (PASSWORD allowed,
 * an address at an allowed domain). The access token carries the token generation read in that same
 * transaction. A code exchanged by a staff member is recorded as a staff sign-in for the account's admins.
 */
import { randomUUID } from 'node:crypto';
import type { ServiceContext } from '../context.js';
import { ServiceError } from '../errors/service-error.js';
import type { OAuthClient } from './oauth-clients-repo.js';
import type { AuthCodesRepo } from './auth-codes-repo.js';
import { accountSettings } from '../administration/account-settings.js';
import { staffSignIns } from '../staff/staff-sign-ins.js';
import { memberSignInRefusal } from './sign-in-policy.js';
import type { SessionMember, TokenGeneration } from './session-members.js';
import type { RefreshTokensRepo } from './refresh-tokens-repo.js';
import type { TokenRevocation } from './token-revocation.js';
import { OFFLINE_ACCESS } from './authorize-request.js';
import { hashSecret, newOpaqueSecret } from './opaque-secrets.js';
import { verifierMatches } from './pkce.js';

export interface GrantDeps {
  ctx: ServiceContext;
  codes: AuthCodesRepo;
  refreshTokens: RefreshTokensRepo;
  revocation: TokenRevocation;
}

/** RFC 6749 §5.1. */
export interface TokenResponse {
  access_token: string;
  refresh_token?: string;
  expires_in: number;
  token_type: 'Bearer';
  scope: string;
}

export interface CodeExchange {
  code: string;
  redirectUri: string;
  codeVerifier: string | undefined;
}

/** What a successful check grants: tokens for this user and scope, and maybe a new refresh token. */
interface Granted {
  userId: string;
  scope: string;
  generation: TokenGeneration;
  clientId: string;
  /** The refresh-token family the access token belongs to (revoking it refuses the token). */
  familyId: string | null;
  refreshToken: string | undefined;
}

type Outcome = { granted: Granted } | { refused: ServiceError };

const invalidGrant = (message: string): Outcome => ({ refused: new ServiceError('OAUTH_INVALID_GRANT', message) });

export async function exchangeAuthorizationCode(deps: GrantDeps, client: OAuthClient, exchange: CodeExchange): Promise<TokenResponse> {
  const { ctx, codes, revocation } = deps;
  const now = ctx.clock.now();
  const codeHash = hashSecret(exchange.code);

  const outcome = ctx.db.transaction((): Outcome => {
    const record = codes.find(codeHash);
    if (record?.clientId !== client.clientId) return invalidGrant('The authorisation code is unknown or was issued to another client.');
    if (record.usedAt !== null) {
      if (record.familyId !== null) revocation.revokeFamily(record.familyId, now);
      return { refused: new ServiceError('OAUTH_GRANT_REUSED', 'The authorisation code was already used; the tokens issued from it have been revoked.') };
    }
    if (record.expiresAt <= now) return invalidGrant('The authorisation code has expired; sign in again.');
    if (record.redirectUri !== exchange.redirectUri) return invalidGrant('The redirect_uri differs from the one used at /authorize.');
    if (record.codeChallenge !== null) {
      if (exchange.codeVerifier === undefined) {
        return { refused: new ServiceError('OAUTH_INVALID_REQUEST', 'The code was requested with PKCE: send its code_verifier.') };
      }
      if (!verifierMatches(exchange.codeVerifier, record.codeChallenge)) return invalidGrant('The code_verifier does not match the code_challenge.');
    } else if (exchange.codeVerifier !== undefined) {
      return invalidGrant('A code_verifier was sent for a code requested without code_challenge.');
    }
    const holder = grantStillHolds(ctx, record);
    if ('refused' in holder) return holder;

    const familyId = record.scope.split(' ').includes(OFFLINE_ACCESS) ? randomUUID() : null;
    if (!codes.markUsed(codeHash, now, familyId)) return invalidGrant('The authorisation code was already used.');
    if (holder.staff) staffSignIns(ctx.db).record(record.accountId, { userId: holder.id, email: holder.email, clientId: client.clientId, dateSignedIn: ctx.nowIso() });
    const refreshToken = familyId === null ? undefined : startRefreshToken(deps, familyId, record, now);
    return { granted: { userId: record.userId, scope: record.scope, generation: holder.generation, clientId: client.clientId, familyId, refreshToken } };
  })();
  return respond(ctx, outcome);
}

export async function refreshAccessToken(deps: GrantDeps, client: OAuthClient, presented: string): Promise<TokenResponse> {
  const { ctx, refreshTokens, revocation } = deps;
  const now = ctx.clock.now();
  const tokenHash = hashSecret(presented);

  const outcome = ctx.db.transaction((): Outcome => {
    const record = refreshTokens.find(tokenHash);
    if (record?.clientId !== client.clientId) return invalidGrant('The refresh token is unknown or was issued to another client.');
    if (record.revokedAt !== null) return invalidGrant('The refresh token has been revoked; sign in again.');
    if (record.rotatedAt !== null) {
      // A rotated token in use again means two parties hold the family: end it for both.
      revocation.revokeFamily(record.familyId, now);
      return { refused: new ServiceError('OAUTH_GRANT_REUSED', 'The refresh token was already exchanged; every token of its family has been revoked.') };
    }
    if (record.expiresAt <= now) return invalidGrant('The refresh token has expired; sign in again.');
    const holder = grantStillHolds(ctx, record);
    if ('refused' in holder) {
      revocation.revokeFamily(record.familyId, now);
      return holder;
    }
    const granted = { userId: record.userId, scope: record.scope, generation: holder.generation, clientId: client.clientId, familyId: record.familyId };
    if (!rotates(ctx, client)) return { granted: { ...granted, refreshToken: undefined } };
    if (!refreshTokens.markRotated(tokenHash, now)) return invalidGrant('The refresh token was already exchanged.');
    const successor = startRefreshToken(deps, record.familyId, record, now);
    return { granted: { ...granted, refreshToken: successor } };
  })();
  return respond(ctx, outcome);
}

/** RFC 9700 §4.14.2: sender-constrained by its secret, a confidential client's refresh token needs no rotation. */
function rotates(ctx: ServiceContext, client: OAuthClient): boolean {
  return ctx.config.rotateRefreshTokens && client.clientSecret === null;
}

/**
 * The user must still be a member of the account (or staff), the service must still serve the token's
 * audience, and a member must still pass the account's security settings: an account that has since
 * refused passwords or restricted its e-mail domains ends the sessions they no longer allow. Staff are
 * the installation's, not the account's, so its settings do not apply to them (docs/api.md).
 */
function grantStillHolds(ctx: ServiceContext, grant: { userId: string; accountId: string; audience: string }): SessionMember | { refused: ServiceError } {
  if (grant.audience !== ctx.config.audience) return { refused: new ServiceError('OAUTH_INVALID_GRANT', 'The grant was issued for another audience.') };
  const holder = ctx.sessions.byAccount(grant.accountId, grant.userId);
  if (holder === undefined) return { refused: new ServiceError('OAUTH_INVALID_GRANT', 'The user is no longer a member of the account (nor staff).') };
  const refusal = holder.staff ? undefined : memberSignInRefusal(accountSettings(ctx.db), grant.accountId, holder.email);
  if (refusal !== undefined) {
    return { refused: new ServiceError('OAUTH_INVALID_GRANT', `The account's security settings no longer allow this user's e-mail domain or sign-in method: ${refusal} Sign in again.`) };
  }
  return holder;
}

function startRefreshToken(
  deps: GrantDeps,
  familyId: string,
  grant: { clientId: string; userId: string; accountId: string; scope: string; audience: string },
  now: number,
): string {
  deps.refreshTokens.purgeExpired(now);
  const token = newOpaqueSecret();
  deps.refreshTokens.insert(hashSecret(token), {
    familyId,
    clientId: grant.clientId,
    userId: grant.userId,
    accountId: grant.accountId,
    scope: grant.scope,
    audience: grant.audience,
    expiresAt: now + deps.ctx.config.refreshTokenTtl * 1000,
  });
  return token;
}

async function respond(ctx: ServiceContext, outcome: Outcome): Promise<TokenResponse> {
  if ('refused' in outcome) throw outcome.refused;
  const { userId, scope, generation, clientId, familyId, refreshToken } = outcome.granted;
  const accessToken = await ctx.tokens.issue({ sub: userId, scope, generation, clientId, family: familyId ?? undefined }, ctx.config.accessTokenTtl);
  return {
    access_token: accessToken,
    ...(refreshToken === undefined ? {} : { refresh_token: refreshToken }),
    expires_in: ctx.config.accessTokenTtl,
    token_type: 'Bearer',
    scope,
  };
}
