/**
 * The client side of `POST {auth}/oauth/token` (RFC 6749 §4.1.3 and §6): sends a form-encoded grant and
 * reads `{ access_token, refresh_token?, expires_in, token_type, scope }`. Failures are ApiErrors whose
 * code is the service's, or `OAUTH_<ERROR>` from RFC 6749's `error`. Codes and refresh tokens are
 * single-use, so a request is repeated only when it provably never reached the server (or the server
 * said 429/503): a blind retry could revoke the whole sign-in as a replay. The same form POST also
 * revokes a token at the server's revocation endpoint (RFC 7009), which is safe to repeat.
 * It must never log a token, a code or a verifier, nor put one in an error.
 */
import { loadGot } from './load-got.js';
import { z } from 'zod';
import { apiErrorFromResponse, invalidResponse, safeToRepeat, systemClock, type ApiError, type ClientClock, createAgentPool, type ProxyEnv, transportError, DEFAULT_RETRY, withRetries } from '../api/index.js';

export interface TokenAnswer {
  accessToken: string;
  /** Present when the server issued (or rotated) a refresh token. */
  refreshToken: string | undefined;
  /** Seconds, when the server said. */
  expiresIn: number | undefined;
  scope: string | undefined;
}

export interface TokenClientDeps {
  env?: ProxyEnv;
  clock?: ClientClock;
  random?: () => number;
}

const answerSchema = z.object({
  access_token: z.string().min(1),
  refresh_token: z.string().min(1).nullish(),
  expires_in: z.union([z.number(), z.string().regex(/^\d+$/).transform(Number)]).nullish(),
  token_type: z.string().nullish(),
  scope: z.string().nullish(),
});

/** `{authServer}/oauth/token` */
export function tokenEndpoint(authServer: string): URL {
  return new URL(`${authServer.replace(/\/+$/, '')}/oauth/token`);
}

/** How long each kind of request may take: a grant is worth waiting for; a sign-out must not hang. */
interface FormTimeouts {
  connectMs: number;
  responseMs: number;
}

/**
 * One form POST to the authorisation server, repeated as `shouldRetry` allows; answers the body of a
 * 2xx, throws an ApiError (OAuth codes mapped) for anything else.
 */
async function postForm(endpoint: URL, form: Record<string, string>, deps: TokenClientDeps, options: { attempts: number; timeouts: FormTimeouts; shouldRetry: (error: ApiError) => boolean }): Promise<string> {
  const clock = deps.clock ?? systemClock;
  const agents = createAgentPool(deps.env ?? process.env);
  try {
    const retryContext = { clock, random: deps.random ?? Math.random, policy: { ...DEFAULT_RETRY, attempts: options.attempts } };
    return await withRetries(
      retryContext,
      async () => {
        let response;
        try {
          // got is loaded on the first exchange: the app's start (the local library) makes none.
          const got = await loadGot();
          response = await got(endpoint, {
            method: 'POST',
            form,
            headers: { accept: 'application/json', 'user-agent': 'asset-sync' },
            agent: agents.agentsFor(endpoint),
            timeout: { connect: options.timeouts.connectMs, secureConnect: options.timeouts.connectMs, response: options.timeouts.responseMs },
            retry: { limit: 0 },
            throwHttpErrors: false,
            followRedirect: false,
            responseType: 'text',
          });
        } catch (error) {
          throw transportError(error, 'POST', endpoint);
        }
        if (response.statusCode >= 300) {
          throw apiErrorFromResponse({ method: 'POST', url: endpoint, status: response.statusCode, retryAfter: response.headers['retry-after'], bodyText: response.body, now: clock.now(), oauth: true });
        }
        return response.body;
      },
      options.shouldRetry,
    );
  } finally {
    agents.destroy();
  }
}

export async function requestTokens(endpoint: URL, params: Record<string, string>, deps: TokenClientDeps = {}): Promise<TokenAnswer> {
  const body = await postForm(endpoint, params, deps, { attempts: 3, timeouts: { connectMs: 15_000, responseMs: 60_000 }, shouldRetry: safeToRepeat });
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    throw invalidResponse('POST', endpoint, 'the token answer is not JSON');
  }
  const answer = answerSchema.safeParse(parsed);
  if (!answer.success) throw invalidResponse('POST', endpoint, 'the token answer has no access_token');
  if (answer.data.token_type != null && answer.data.token_type.toLowerCase() !== 'bearer') {
    throw invalidResponse('POST', endpoint, `token_type ${answer.data.token_type} is not Bearer`);
  }
  return {
    accessToken: answer.data.access_token,
    refreshToken: answer.data.refresh_token ?? undefined,
    expiresIn: answer.data.expires_in ?? undefined,
    scope: answer.data.scope ?? undefined,
  };
}

/**
 * RFC 7009: asks the server to end a sign-in by revoking one of its tokens. Revocation is idempotent, so
 * a request that may not have arrived is simply sent again; a server that answers 200 has done it.
 */
export async function revokeToken(endpoint: URL, params: { token: string; tokenTypeHint: 'refresh_token' | 'access_token'; clientId: string; clientSecret?: string | undefined }, deps: TokenClientDeps = {}): Promise<void> {
  const form: Record<string, string> = { token: params.token, token_type_hint: params.tokenTypeHint, client_id: params.clientId };
  if (params.clientSecret !== undefined) form.client_secret = params.clientSecret;
  await postForm(endpoint, form, deps, { attempts: 2, timeouts: { connectMs: 5_000, responseMs: 10_000 }, shouldRetry: (error) => error.retryable });
}
