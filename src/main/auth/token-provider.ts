/**
 * The engine's TokenProvider (src/main/api/api-client.ts) backed by the token store: answers the stored
 * access token, refreshes it through `POST {auth}/oauth/token` when it has expired (a minute early) or
 * when the API refused it, and stores the answer atomically — a new refresh token replaces the old.
 * Refreshes are single-flight within the process (concurrent 401s refresh once) and serialised across
 * processes by the token lock, re-reading the file first in case another process already refreshed.
 * With `ASSET_SYNC_TOKEN` set it answers that static token and never refreshes.
 * It must never log a token.
 */
import { ApiError } from '../api/api-error.js';
import { staticTokenProvider, type TokenProvider } from '../api/api-client.js';
import { systemClock, type ClientClock } from '../api/client-clock.js';
import type { ProxyEnv } from '../api/proxy-agents.js';
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

  const expired = (tokens: StoredTokens): boolean => tokens.expiresAt !== null && clock.now() >= tokens.expiresAt - margin;

  return {
    async accessToken() {
      if (inflight !== undefined) return (await inflight).accessToken;
      const tokens = current ?? (await load());
      if (!expired(tokens)) return tokens.accessToken;
      if (tokens.refreshToken === null) return tokens.accessToken; // the server decides; a 401 ends it
      return (await refresh(tokens.accessToken)).accessToken;
    },

    async refreshed(previous) {
      if (inflight !== undefined) return (await inflight).accessToken;
      // Someone else in this process already replaced the refused token.
      if (current !== undefined && current.accessToken !== previous) return current.accessToken;
      return (await refresh(previous)).accessToken;
    },
  };
}
