/**
 * Defence in depth for logs: errors are built never to carry a token or a signed URL's query, but a
 * message quoting a server's answer could. Strips bearer tokens, JWT-looking strings and URL queries.
 */
const JWT = /\beyJ[\w-]+\.[\w-]+\.[\w-]+/g;
const BEARER = /\b(Bearer|Passcode)\s+\S+/gi;
const URL_QUERY = /(https?:\/\/[^\s"'?]+)\?[^\s"']*/g;
const SECRETS = /\b(access_token|refresh_token|client_secret|code|signature|code_verifier)=[^&\s"']+/gi;

export function redact(text: string): string {
  return text.replace(URL_QUERY, '$1?…').replace(BEARER, '$1 …').replace(JWT, '…jwt…').replace(SECRETS, '$1=…');
}
