/**
 * The check `login` makes before it opens anything: fetch the authorisation server's metadata (RFC
 * 8414, `/.well-known/oauth-authorization-server`; Auth0-style servers answer OpenID's
 * `/.well-known/openid-configuration` instead) and say in a few seconds what is wrong — nothing
 * listening, unknown host, TLS refused, or something that is not an Asset Sync / Dash sign-in — rather
 * than print a sign-in URL and wait five minutes for a sign-in that cannot come.
 * It sends no credentials: the metadata is public.
 */
import { loadGot } from './load-got.js';
import type { Response } from 'got';
import { ApiError, describeUrl, createAgentPool, type ProxyEnv } from '../api/index.js';

export interface ServerMetadata {
  authorizationEndpoint: string;
  tokenEndpoint: string;
  /** RFC 7009's endpoint, where the server has one (ours does; a server without it cannot end a sign-in). */
  revocationEndpoint?: string;
}

export interface MetadataCheckOptions {
  env?: ProxyEnv;
  /** Connection and answer time limit per request, ms (default 5 s). */
  timeoutMs?: number;
}

const METADATA_PATHS = ['/.well-known/oauth-authorization-server', '/.well-known/openid-configuration'];

const UNREACHABLE: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'nothing is listening there (connection refused)',
  ENOTFOUND: 'no such host',
  EAI_AGAIN: 'its name could not be looked up (DNS)',
  EHOSTUNREACH: 'the host is unreachable',
  ENETUNREACH: 'the network is unreachable',
  ECONNRESET: 'the connection was reset',
  EADDRNOTAVAIL: 'the address is not available',
};

function errorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null || !('code' in error)) return undefined;
  return typeof error.code === 'string' ? error.code : undefined;
}

function isTlsFailure(code: string, message: string): boolean {
  return /^(CERT_|ERR_TLS_|ERR_SSL_|DEPTH_ZERO_|SELF_SIGNED_|UNABLE_TO_(GET|VERIFY)_|EPROTO$)/.test(code) || /SSL|TLS|certificate/i.test(message);
}

/** A failure below HTTP as what the user can act on. */
function unreachable(base: string, error: unknown): ApiError {
  const code = errorCode(error) ?? (error instanceof Error ? error.name : 'Error');
  const message = error instanceof Error ? error.message : String(error);
  if (isTlsFailure(code, message)) {
    return new ApiError({ code: 'SERVER_TLS_ERROR', message: `Can't sign in at ${base}: its TLS connection failed (${code}). Check the address (http or https?) and the server's certificate.` });
  }
  const reason = UNREACHABLE[code] ?? (error instanceof Error && error.name === 'TimeoutError' ? 'it did not answer in time' : code);
  return new ApiError({ code: 'SERVER_UNREACHABLE', message: `Can't reach ${base}: ${reason}. Check the address and that the service is running.` });
}

function metadataOf(response: Response<string>): ServerMetadata | undefined {
  if (response.statusCode !== 200) return undefined;
  try {
    const body: unknown = JSON.parse(response.body);
    if (typeof body !== 'object' || body === null) return undefined;
    const authorization = 'authorization_endpoint' in body ? body.authorization_endpoint : undefined;
    const token = 'token_endpoint' in body ? body.token_endpoint : undefined;
    const revocation = 'revocation_endpoint' in body ? body.revocation_endpoint : undefined;
    if (typeof authorization !== 'string' || typeof token !== 'string') return undefined;
    return { authorizationEndpoint: authorization, tokenEndpoint: token, ...(typeof revocation === 'string' && URL.canParse(revocation) ? { revocationEndpoint: revocation } : {}) };
  } catch {
    return undefined;
  }
}

/** Answers the authorisation server's metadata, or throws SERVER_UNREACHABLE, SERVER_TLS_ERROR or NOT_AN_ASSET_SERVICE. */
export async function checkAuthServer(authServer: string, options: MetadataCheckOptions = {}): Promise<ServerMetadata> {
  const base = authServer.replace(/\/+$/, '');
  const timeout = options.timeoutMs ?? 5_000;
  const agents = createAgentPool(options.env ?? process.env);
  const answers: string[] = [];
  // got is loaded on the first look: the app's start (the local library) makes none.
  const got = await loadGot();
  try {
    for (const path of METADATA_PATHS) {
      const url = new URL(`${base}${path}`);
      let response: Response<string>;
      try {
        response = await got(url, {
          headers: { accept: 'application/json', 'user-agent': 'asset-sync' },
          agent: agents.agentsFor(url),
          timeout: { lookup: timeout, connect: timeout, secureConnect: timeout, response: timeout },
          retry: { limit: 0 },
          throwHttpErrors: false,
          followRedirect: false,
          responseType: 'text',
        });
      } catch (error) {
        throw unreachable(base, error);
      }
      const metadata = metadataOf(response);
      if (metadata !== undefined) return metadata;
      answers.push(`${describeUrl(url)} answered ${response.statusCode}`);
    }
  } finally {
    agents.destroy();
  }
  throw new ApiError({
    code: 'NOT_AN_ASSET_SERVICE',
    message: `${base} answers, but not as an Asset Sync or Dash sign-in server (${answers.join('; ')}). Check the address: it is the service's base URL, e.g. http://127.0.0.1:7480.`,
  });
}
