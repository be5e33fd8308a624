/**
 * The engine's TokenProvider (src/main/api/api-client.ts) backed by the token store: answers the stored
 * access token, refreshes it through `POST {auth}/oauth/token` when it has expired (a minute early) or
 * when the API refused it, and stores the answer atomically — a new refresh token replaces the old.
 * Refreshes are single-flight within the process (concurrent 401s refresh once) and serialised across
 * processes by the token lock, re-reading the file first in case another process already refreshed.
 * With `ASSET_SYNC_TOKEN` set it answers that static token and never refreshes (the user chose where
 * it goes). A stored sign-in is handed out only for the origin it was issued by: asked for another
 * server it fails with SIGNED_IN_ELSEWHERE before any request is made, so no path can send it there.
 * It must never log a token.
 */
import { ApiError, staticTokenProvider, type TokenProvider, systemClock, type ClientClock, type ProxyEnv } from '../api/index.js';
import { requestTokens, tokenEndpoint } from './oauth-token-client.js';
import { withTokenLock, type LockTiming } from './token-lock.js';
import { fileTokenStore, tokenFromEnv, type StoredTokens, type TokenStore } from './token-store.js';

export interface TokenProviderOptions {
  stateDir: string;
  /** Read for ASSET_SYNC_TOKEN and the proxy variables (default process.env). */
  env?: ProxyEnv;
  clock?: ClientClock;
  /** Refresh this long before the stored expiry, ms (default 60 s). */
  refreshMarginMs?: number;
  lockTiming?: LockTiming;
  /** Where the tokens are kept (default: the 0600 file in stateDir). */
  store?: TokenStore;
}

/** Token-endpoint codes that mean the refresh token is dead. */
const REVOKED: ReadonlySet<string> = new Set(['OAUTH_INVALID_GRANT', 'OAUTH_GRANT_REUSED', 'OAUTH_INVALID_CLIENT', 'OAUTH_UNKNOWN_CLIENT', 'OAUTH_UNAUTHORIZED_CLIENT']);

export function notSignedIn(reason: string, cause?: unknown): ApiError {
  return new ApiError({ code: 'NOT_SIGNED_IN', status: 401, message: `${reason} Sign in with "asset-sync login".`, cause });
}

/** The user is signed in to `signedIn`, and something wants a token for `wanted`, another origin. */
export function signedInElsewhere(signedIn: string, wanted: string): ApiError {
  return new ApiError({
    code: 'SIGNED_IN_ELSEWHERE',
    message: `You are signed in to ${signedIn}, not ${wanted}: run \`asset-sync login --server ${wanted}\`.`,
  });
}

function originOf(server: string): string {
  return URL.canParse(server) ? new URL(server).origin : server;
}

/** Throws SIGNED_IN_ELSEWHERE unless the stored tokens were issued for `server`'s origin. */
export function assertTokensFor(tokens: Pick<StoredTokens, 'server'>, server: string): void {
  if (originOf(tokens.server) !== originOf(server)) throw signedInElsewhere(tokens.server, server);
}

export function createTokenProvider(options: TokenProviderOptions): TokenProvider {
  const env = options.env ?? process.env;
  const fromEnv = tokenFromEnv(env);
  if (fromEnv !== undefined) return staticTokenProvider(fromEnv);

  const clock = options.clock ?? systemClock;
  const store = options.store ?? fileTokenStore(options.stateDir);
  const margin = options.refreshMarginMs ?? 60_000;
  let current: StoredTokens | undefined;
  let inflight: Promise<StoredTokens> | undefined;

  const load = async (): Promise<StoredTokens> => {
    current = (await store.read()) ?? current;
    if (current === undefined) throw notSignedIn('Nobody is signed in.');
    return current;
  };

  const refreshFrom = async (stale: StoredTokens): Promise<StoredTokens> => {
    if (stale.refreshToken === null) throw notSignedIn('The sign-in has expired and cannot be renewed.');
    const params = {
      grant_type: 'refresh_token',
      client_id: stale.clientId,
      refresh_token: stale.refreshToken,
      ...(stale.clientSecret === undefined ? {} : { client_secret: stale.clientSecret }),
    };
    const answer = await requestTokens(tokenEndpoint(stale.authServer), params, { env, clock }).catch((error: unknown) => {
      // One code for "the user must sign in again", whatever the server called it.
      if (error instanceof ApiError && REVOKED.has(error.code)) throw notSignedIn('The sign-in was revoked or has expired.', error);
      throw error;
    });
    const renewed: StoredTokens = {
      ...stale,
      accessToken: answer.accessToken,
      // A rotated refresh token replaces the old one in the same atomic write.
      refreshToken: answer.refreshToken ?? stale.refreshToken,
      expiresAt: answer.expiresIn === undefined ? null : clock.now() + answer.expiresIn * 1000,
      scope: answer.scope ?? stale.scope,
    };
    await store.write(renewed);
    return renewed;
  };

  /** Refreshes unless the token on disk is already not `previous` (another process renewed it). */
  const refresh = (previous: string): Promise<StoredTokens> => {
    inflight ??= withTokenLock(
      options.stateDir,
      async () => {
        const latest = await load();
        return latest.accessToken !== previous ? latest : refreshFrom(latest);
      },
      options.lockTiming,
    )
      .then((tokens) => (current = tokens))
      .finally(() => {
        inflight = undefined;
      });
    return inflight;
  };

  // The file may have been replaced by a sign-in to another server meanwhile: checked on every answer.
  const answerFor = (tokens: StoredTokens, server: string): string => {
    assertTokensFor(tokens, server);
    return tokens.accessToken;
  };

  const expired = (tokens: StoredTokens): boolean => tokens.expiresAt !== null && clock.now() >= tokens.expiresAt - margin;

  return {
    async accessToken(server) {
      if (inflight !== undefined) return answerFor(await inflight, server);
      const tokens = current ?? (await load());
      assertTokensFor(tokens, server);
      if (!expired(tokens)) return tokens.accessToken;
      if (tokens.refreshToken === null) return tokens.accessToken; // the server decides; a 401 ends it
      return answerFor(await refresh(tokens.accessToken), server);
    },

    async refreshed(previous, server) {
      if (inflight !== undefined) return answerFor(await inflight, server);
      // Someone else in this process already replaced the refused token.
      if (current !== undefined && current.accessToken !== previous) return answerFor(current, server);
      assertTokensFor(current ?? (await load()), server);
      return answerFor(await refresh(previous), server);
    },
  };
}
