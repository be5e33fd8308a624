/**
 * Which redirect URIs a client may use, and how the answer is appended to one. Registered URIs match
 * exactly, character for character. The one exception (RFC 8252 §7.3): a native client allowed "any
 * loopback port" may use `http://127.0.0.1:<port>/path` or `http://localhost:<port>/path` when the same
 * URI without that port is registered. This module must never loosen anything else: not the scheme,
 * host, path or query, and never a URI with credentials or a fragment.
 */

const LOOPBACK_HOSTS: ReadonlySet<string> = new Set(['127.0.0.1', 'localhost', '[::1]']);

export interface RedirectPolicy {
  redirectUris: readonly string[];
  allowAnyLoopbackPort: boolean;
}

export function redirectUriAllowed(client: RedirectPolicy, requested: string): boolean {
  if (client.redirectUris.includes(requested)) return true;
  if (!client.allowAnyLoopbackPort) return false;
  const asked = parseCanonical(requested);
  if (asked === undefined || !isLoopback(asked)) return false;
  return client.redirectUris.some((registered) => {
    const allowed = parseCanonical(registered);
    return (
      allowed !== undefined &&
      isLoopback(allowed) &&
      allowed.hostname === asked.hostname &&
      allowed.pathname === asked.pathname &&
      allowed.search === asked.search
    );
  });
}

/** `redirectUri` with `params` added to its query (an existing query is kept, RFC 6749 §3.1.2). */
export function redirectTo(redirectUri: string, params: Record<string, string>): string {
  const url = new URL(redirectUri);
  for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
  return url.href;
}

/** Is this an absolute URI a client may register (no fragment, no credentials)? */
export function isRegistrableRedirectUri(uri: string): boolean {
  const url = parseCanonical(uri);
  return url !== undefined && (url.protocol === 'https:' || url.protocol === 'http:');
}

/**
 * Parses a URI that is already in its canonical form, so that what we compare is exactly what the
 * browser will be sent to (`/a/../callback`, `:80` or a missing path would otherwise match loosely).
 */
function parseCanonical(uri: string): URL | undefined {
  if (!URL.canParse(uri)) return undefined;
  const url = new URL(uri);
  if (url.href !== uri || url.username !== '' || url.password !== '' || url.href.includes('#')) return undefined;
  return url;
}

function isLoopback(url: URL): boolean {
  return url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname);
}
