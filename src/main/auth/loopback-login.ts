/**
 * Sign-in for a desktop or CLI client: the OAuth authorisation-code flow with PKCE (S256) and a random
 * `state`, through the system browser and a one-shot loopback listener (callback-listener.ts), then the
 * code exchanged at `/oauth/token` and the tokens stored (token-store.ts). `logout` asks the server to
 * end the sign-in (RFC 7009, where its metadata names a revocation endpoint) and forgets the tokens
 * whatever the server answers: signing out on this computer never waits on the network for long.
 * The server is checked first (server-metadata.ts), so a wrong address fails in seconds.
 * The browser is opened by an injected `openUrl`, so this module runs headless and in tests; it has no
 * CLI of its own. It must never print or log a token, a code or the PKCE verifier.
 */
import { ApiError, type ProxyEnv, type ClientClock, systemClock } from '../api/index.js';
import { startCallbackListener } from './callback-listener.js';
import { checkAuthServer } from './server-metadata.js';
import { requestTokens, revokeToken, tokenEndpoint } from './oauth-token-client.js';
import { createPkcePair, randomState } from './pkce.js';
import { fileTokenStore, type StoredTokens, type TokenStore } from './token-store.js';

export const DEFAULT_AUDIENCE = 'https://assetplatform.io';
export const DEFAULT_CLIENT_ID = 'asset-sync-desktop';
export const DEFAULT_SUBDOMAIN = 'local';
export const DEFAULT_LOGIN_TIMEOUT_MS = 5 * 60_000;

export interface LoginOptions {
  /** The API's base URL. */
  server: string;
  /** Where the tokens are stored. */
  stateDir: string;
  /** Shows the URL to the user: the system browser (xdg-open/open/start), or a test's fake browser. */
  openUrl: (url: string) => void | Promise<void>;
  /** The authorisation server's base URL (default: `server`, as on the local service). */
  authServer?: string;
  audience?: string;
  /** The account to sign in to (`subdomain:<sub>` scope). */
  subdomain?: string;
  clientId?: string;
  /** Only for a confidential client (a custom integration with a secret). */
  clientSecret?: string;
  /** 0 (default) = an ephemeral port; the hosted server needs the port registered with the client id. */
  port?: number;
  timeoutMs?: number;
  signal?: AbortSignal;
  env?: ProxyEnv;
  clock?: ClientClock;
  /** Checks the authorisation server before anything opens (default: its metadata, server-metadata.ts, 5 s). */
  checkServer?: (authServer: string) => Promise<unknown>;
  /** Where the tokens are kept (default: the 0600 file in stateDir). */
  store?: TokenStore;
}

function baseUrl(value: string, what: string): string {
  const trimmed = value.trim().replace(/\/+$/, '');
  if (!URL.canParse(trimmed) || !/^https?:$/.test(new URL(trimmed).protocol)) {
    throw new ApiError({ code: 'INVALID_SERVER', message: `The ${what} address must be an http(s) URL, got "${value}".` });
  }
  return trimmed;
}

/** The /authorize URL the browser is sent to. */
export function authorizeUrl(authServer: string, params: { clientId: string; redirectUri: string; audience: string; scope: string; state: string; codeChallenge: string }): string {
  const url = new URL(`${authServer}/authorize`);
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: params.clientId,
    redirect_uri: params.redirectUri,
    audience: params.audience,
    scope: params.scope,
    state: params.state,
    code_challenge: params.codeChallenge,
    code_challenge_method: 'S256',
  }).toString();
  return url.href;
}

/** Runs the whole sign-in and stores the tokens; answers what it stored. */
export async function login(options: LoginOptions): Promise<StoredTokens> {
  const server = baseUrl(options.server, 'server');
  const authServer = baseUrl(options.authServer ?? server, 'authorisation server');
  const clientId = options.clientId ?? DEFAULT_CLIENT_ID;
  const clock = options.clock ?? systemClock;
  // Before anything opens: a server that is not there, or not a sign-in server, is said in seconds.
  await (options.checkServer ?? ((address: string) => checkAuthServer(address, { env: options.env ?? process.env })))(authServer);
  const pkce = createPkcePair();
  const state = randomState();
  const listener = await startCallbackListener(state, options.port ?? 0);
  try {
    const scope = `subdomain:${options.subdomain ?? DEFAULT_SUBDOMAIN} offline_access`;
    const url = authorizeUrl(authServer, { clientId, redirectUri: listener.redirectUri, audience: options.audience ?? DEFAULT_AUDIENCE, scope, state, codeChallenge: pkce.challenge });
    const code = listener.waitForCode(options.timeoutMs ?? DEFAULT_LOGIN_TIMEOUT_MS, options.signal);
    // The browser may answer while openUrl is still running: never leave the rejection unobserved.
    code.catch(() => undefined);
    try {
      await options.openUrl(url);
    } catch (error) {
      throw new ApiError({ code: 'BROWSER_OPEN_FAILED', message: `Could not open the browser for sign-in: ${error instanceof Error ? error.message : String(error)}`, cause: error });
    }
    const params: Record<string, string> = {
      grant_type: 'authorization_code',
      client_id: clientId,
      code: await code,
      redirect_uri: listener.redirectUri,
      code_verifier: pkce.verifier,
    };
    if (options.clientSecret !== undefined) params.client_secret = options.clientSecret;
    const answer = await requestTokens(tokenEndpoint(authServer), params, { env: options.env ?? process.env, clock });
    const tokens: StoredTokens = {
      server,
      authServer,
      clientId,
      accessToken: answer.accessToken,
      refreshToken: answer.refreshToken ?? null,
      expiresAt: answer.expiresIn === undefined ? null : clock.now() + answer.expiresIn * 1000,
      scope: answer.scope ?? scope,
    };
    if (options.clientSecret !== undefined) tokens.clientSecret = options.clientSecret;
    await (options.store ?? fileTokenStore(options.stateDir)).write(tokens);
    return tokens;
  } finally {
    await listener.close();
  }
}

/** What the server did with a sign-out. */
export type Revocation =
  /** It ended the sign-in: its tokens are refused from now on. */
  | { kind: 'revoked' }
  /** It offers no revocation (no `revocation_endpoint`): the tokens stay valid until they expire. */
  | { kind: 'not-offered' }
  /** It could not be told; the tokens stay valid until they expire. */
  | { kind: 'failed'; reason: string }
  /** There was no sign-in to end. */
  | { kind: 'nothing' };

export interface LogoutOptions {
  stateDir: string;
  store?: TokenStore;
  env?: ProxyEnv;
  clock?: ClientClock;
}

/** Ends the stored sign-in on the server where it can, and forgets it here; answers whether there was one. */
export async function logout(options: LogoutOptions): Promise<{ signedOut: boolean; revocation: Revocation }> {
  const store = options.store ?? fileTokenStore(options.stateDir);
  const tokens = await store.read().catch(() => undefined);
  const revocation = tokens === undefined ? ({ kind: 'nothing' } as const) : await endSignIn(tokens, options);
  return { signedOut: await store.delete(), revocation };
}

/** Revokes the refresh token (its whole family: RFC 7009 §2.1), or the access token when there is none. */
async function endSignIn(tokens: StoredTokens, options: LogoutOptions): Promise<Revocation> {
  const env = options.env ?? process.env;
  try {
    const metadata = await checkAuthServer(tokens.authServer, { env });
    if (metadata.revocationEndpoint === undefined) return { kind: 'not-offered' };
    await revokeToken(
      new URL(metadata.revocationEndpoint),
      {
        ...(tokens.refreshToken === null ? { token: tokens.accessToken, tokenTypeHint: 'access_token' } : { token: tokens.refreshToken, tokenTypeHint: 'refresh_token' }),
        clientId: tokens.clientId,
        clientSecret: tokens.clientSecret,
      },
      { env, clock: options.clock ?? systemClock },
    );
    return { kind: 'revoked' };
  } catch (error) {
    return { kind: 'failed', reason: error instanceof Error ? error.message : String(error) };
  }
}
