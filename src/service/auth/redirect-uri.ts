/**
 * Which redirect URIs a client may register and use, and how the answer is appended to one. A URI is
 * registered as written (any absolute http(s) URI without fragment or credentials, a bare origin such as
 * `https://intranet.example.test` included, as on the hosted service [real, observed]), and the
 * `redirect_uri` of /authorize and /oauth/token must equal a registered string exactly, character for
 * character, with no normalising on either side (`https://a.test` and `https://a.test/` are two URIs).
 * The one exception (RFC 8252 §7.3): a native client allowed "any loopback port" may use
 * `http://127.0.0.1:<port>/path` or `http://localhost:<port>/path` when the same URI without that port
 * is registered; both must then be in canonical form. This module must never loosen anything else: not
 * the scheme, host, path or query, and never a URI with credentials or a fragment.
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

/**
 * May a client register this URI, as written? An absolute http(s) URI (`scheme://host…`) without
 * fragment, credentials, spaces or control characters (which a URL parser would drop or rewrite, so the
 * browser would be sent somewhere other than the string registered).
 */
export function isRegistrableRedirectUri(uri: string): boolean {
  // eslint-disable-next-line no-control-regex -- spaces and control characters are what is refused
  if (!/^https?:\/\//i.test(uri) || /[\u0000-\u0020\u007f#\\]/.test(uri) || !URL.canParse(uri)) return false;
  const authority = uri.slice(uri.indexOf('//') + 2).split(/[/?]/, 1)[0] ?? '';
  const url = new URL(uri);
  return authority !== '' && !authority.includes('@') && url.hostname !== '' && url.username === '' && url.password === '';
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
