/**
 * The checksums tests compare against: an MD5 as the service reports it (hex, or base64 for a part's
 * Content-MD5) and a SHA-256 in hex. The one place tests hash bytes; test code never calls
 * `createHash` for these itself. Must never stream or read files: it hashes what it is given.
 */
import { createHash } from 'node:crypto';

/** The MD5 of `data` in lower-case hex (a file's `checksum`, a part's ETag without quotes). */
export function md5Hex(data: string | Uint8Array): string {
  return createHash('md5').update(data).digest('hex');
}

/** The MD5 of `data` in base64 (a part's Content-MD5 header). */
export function md5Base64(data: string | Uint8Array): string {
  return createHash('md5').update(data).digest('base64');
}

/** The SHA-256 of `data` in lower-case hex. */
export function sha256Hex(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}
