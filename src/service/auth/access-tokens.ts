/**
 * Access tokens: ES256 JWTs signed with the installation's key (signing-keys.ts: the key file beside
 * the database). A token whose key id a rotation retired is refused with TOKEN_KEY_RETIRED. Verification pins the algorithm and checks `iss`, `aud` and `exp`, so `alg: none`,
 * HS256-with-the-public-key and tampered tokens are all refused. A token that verified is remembered
 * (by its exact text, signature included) until it expires: every API request carries one, and an
 * ES256 verification costs more than the rest of a small request's work on the service.
 * Each token carries the token generation (`gen`: account, user) it was issued under, stamped from
 * `generationOf` unless the issuer gives it; request authentication refuses an older one
 * (session-members.ts). A token without `gen` counts as generation 0 of both.
 * A token issued from a refresh-token family carries it (`fam`), and every token its `jti`: request
 * authentication refuses a token whose family or jti was revoked (token-revocation.ts). A token issued
 * to an OAuth client names it (`client_id`, RFC 9068), so only that client may revoke it.
 */
import { randomUUID } from 'node:crypto';
import { SignJWT, decodeProtectedHeader, importJWK, jwtVerify, errors as joseErrors, type JWK, type CryptoKey } from 'jose';
import { ServiceError } from '../errors/service-error.js';
import type { Clock } from '../clock.js';
import type { Settings } from '../settings/settings-repo.js';
import type { TokenGeneration } from './session-members.js';
import type { SigningKeys } from './signing-keys.js';

const ALGORITHM = 'ES256';
/** Verified tokens remembered at most; a client uses one at a time, so this is many clients' worth. */
const REMEMBERED_TOKENS = 1000;

export interface AccessClaims {
  /** User id. */
  sub: string;
  /** Space-separated scopes, including `subdomain:<account>`. */
  scope: string;
  /** The token generation it was issued under (issue: the current one when left out). */
  generation?: TokenGeneration;
  /** The refresh-token family it was issued from, if any: revoking the family refuses it. */
  family?: string | undefined;
  /** The OAuth client it was issued to (tokens minted by the admin CLI have none). */
  clientId?: string | undefined;
}

/** What a verified token says. */
export interface VerifiedClaims extends AccessClaims {
  generation: TokenGeneration;
  /** The token's own id: revoking it alone refuses it (a token of no family). */
  jti: string;
  /** Epoch ms. */
  expiresAtMs: number;
}

/** The current token generation of a user in the account with this subdomain, for stamping tokens. */
export type GenerationOf = (subdomain: string, userId: string) => TokenGeneration | undefined;

export interface AccessTokens {
  readonly issuer: string;
  readonly audience: string;
  issue(claims: AccessClaims, ttlSeconds: number, audience?: string): Promise<string>;
  verify(token: string): Promise<VerifiedClaims>;
  /** The public key set, for `/.well-known/jwks.json`. */
  publicJwks(): { keys: JWK[] };
}

export async function loadAccessTokens(
  settings: Settings,
  keys: Pick<SigningKeys, 'accessToken' | 'retiredKeyIds'>,
  audience: string,
  clock: Clock,
  generationOf?: GenerationOf,
): Promise<AccessTokens> {
  const issuer = settings.getOrCreate('issuer', () => `urn:asset-sync:${randomUUID()}`);
  const privateJwk: JWK = keys.accessToken;
  const kid = keys.accessToken.kid;
  const retired = new Set(keys.retiredKeyIds);
  const privateKey = (await importJWK(privateJwk, ALGORITHM)) as CryptoKey;
  const { d: _d, ...publicJwk } = privateJwk;
  const publicKey = (await importJWK(publicJwk, ALGORITHM)) as CryptoKey;
  const seconds = (): number => Math.floor(clock.now() / 1000);
  const verified = new Map<string, VerifiedClaims>();

  return {
    issuer,
    audience,
    async issue(claims, ttlSeconds, tokenAudience = audience) {
      const now = seconds();
      const subdomain = subdomainOf(claims.scope);
      const generation = claims.generation ?? (subdomain === undefined ? undefined : generationOf?.(subdomain, claims.sub));
      return new SignJWT({
        scope: claims.scope,
        ...(generation === undefined ? {} : { gen: [generation.account, generation.user] }),
        ...(claims.family === undefined ? {} : { fam: claims.family }),
        ...(claims.clientId === undefined ? {} : { client_id: claims.clientId }),
      })
        .setProtectedHeader({ alg: ALGORITHM, kid, typ: 'JWT' })
        .setSubject(claims.sub)
        .setIssuer(issuer)
        .setAudience(tokenAudience)
        .setIssuedAt(now)
        .setExpirationTime(now + ttlSeconds)
        .setJti(randomUUID())
        .sign(privateKey);
    },
    async verify(token) {
      const known = verified.get(token);
      if (known !== undefined) {
        // jose refuses a token whose exp is not after now: the same rule here.
        if (clock.now() >= known.expiresAtMs) {
          verified.delete(token);
          throw new ServiceError('TOKEN_EXPIRED');
        }
        return known;
      }
      try {
        const { payload } = await jwtVerify(token, publicKey, {
          algorithms: [ALGORITHM],
          issuer,
          audience,
          currentDate: new Date(clock.now()),
          requiredClaims: ['sub', 'exp', 'iss', 'aud'],
        });
        if (typeof payload.sub !== 'string') throw new ServiceError('TOKEN_INVALID', 'The token has no subject.');
        const claims: VerifiedClaims = {
          sub: payload.sub,
          scope: typeof payload.scope === 'string' ? payload.scope : '',
          generation: generationIn(payload.gen),
          family: typeof payload.fam === 'string' ? payload.fam : undefined,
          clientId: typeof payload.client_id === 'string' ? payload.client_id : undefined,
          // A token without a jti can only be refused by its family or generation: '' matches no revocation.
          jti: typeof payload.jti === 'string' ? payload.jti : '',
          expiresAtMs: (payload.exp as number) * 1000,
        };
        // Oldest first out: a Map iterates in insertion order.
        if (verified.size >= REMEMBERED_TOKENS) verified.delete(verified.keys().next().value ?? '');
        verified.set(token, claims);
        return claims;
      } catch (error) {
        if (error instanceof ServiceError) throw error;
        if (error instanceof joseErrors.JWTExpired) throw new ServiceError('TOKEN_EXPIRED', undefined, {}, { cause: error });
        if (retired.has(keyIdOf(token))) throw new ServiceError('TOKEN_KEY_RETIRED', undefined, {}, { cause: error });
        throw new ServiceError('TOKEN_INVALID', `The access token is not valid for this service (${describe(error)}).`, {}, { cause: error });
      }
    },
    publicJwks: () => ({ keys: [{ ...publicJwk, use: 'sig' }] }),
  };
}

/** The `gen` claim as issued ([account, user]); absent or malformed counts as the first generation. */
export function generationIn(claim: unknown): TokenGeneration {
  const parts: unknown[] = Array.isArray(claim) ? claim : [];
  const [account, user] = parts;
  if (parts.length === 2 && typeof account === 'number' && typeof user === 'number' && Number.isSafeInteger(account) && Number.isSafeInteger(user)) return { account, user };
  return { account: 0, user: 0 };
}

/** The `kid` of a token's header; '' when it has none or is not a JWT. */
function keyIdOf(token: string): string {
  try {
    return decodeProtectedHeader(token).kid ?? '';
  } catch {
    return '';
  }
}

function describe(error: unknown): string {
  if (error instanceof joseErrors.JOSEError) return error.code;
  return 'malformed';
}

/** The account subdomain a scope string selects (`subdomain:local` → `local`). */
export function subdomainOf(scope: string): string | undefined {
  for (const part of scope.split(/\s+/)) {
    if (part.startsWith('subdomain:') && part.length > 'subdomain:'.length) return part.slice('subdomain:'.length);
  }
  return undefined;
}
