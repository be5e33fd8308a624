/**
 * Serves the built renderer (dist/renderer/) to the browser: only files below that directory, streamed,
 * with a strict Content-Security-Policy on every answer (scripts and styles from this server only, no
 * inline code, no framing, connections to this server only). The UI routes by hash, so its one page is
 * `/` (or `/index.html`); any other path is a file of the build or nothing.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { extname, join, normalize, relative, sep } from 'node:path';

export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob: http://127.0.0.1:* http://localhost:*",
  "font-src 'self'",
  "connect-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** Headers every answer of the control server carries. */
export const SECURITY_HEADERS: Record<string, string> = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'x-frame-options': 'DENY',
};

const types: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.webmanifest': 'application/manifest+json',
};

/** Answers GET/HEAD of a renderer file; false when the path is not one (the caller answers 404). */
export async function serveStatic(root: string, urlPath: string, response: ServerResponse, head: boolean): Promise<boolean> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return false;
  }
  if (decoded.includes('\0')) return false;
  const wanted = decoded === '/' ? '/index.html' : decoded;
  const path = normalize(join(root, wanted));
  const inside = relative(root, path);
  if (inside.startsWith('..') || inside.startsWith(sep) || inside === '') return false;
  const info = await stat(path).catch(() => undefined);
  if (info?.isFile() !== true) return false;
  response.writeHead(200, {
    ...SECURITY_HEADERS,
    'content-type': types[extname(path).toLowerCase()] ?? 'application/octet-stream',
    'content-length': String(info.size),
    'cache-control': wanted === '/index.html' ? 'no-store' : 'private, max-age=3600',
  });
  if (head) {
    response.end();
    return true;
  }
  await new Promise<void>((resolve) => {
    const stream = createReadStream(path);
    stream.once('error', () => {
      response.destroy();
      resolve();
    });
    stream.once('end', resolve);
    stream.pipe(response);
  });
  return true;
}
