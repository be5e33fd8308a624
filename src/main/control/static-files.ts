/**
 * Serves the built renderer (dist/renderer/) to the browser: only files of that directory, with a strict
 * Content-Security-Policy on every answer (scripts and styles from this server only, no inline code, no
 * framing, connections to this server only). The UI routes by hash, so its one page is `/` (or
 * `/index.html`); any other path is a file of the build or nothing. The build is a few small files that
 * do not change while the app runs: they are read once, when the server starts, and each answer is one
 * write from memory, with no file-system round trip for a busy start (the service and the engine
 * loading beside it) to hold up.
 */
import { readdir, readFile } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { extname, join, posix } from 'node:path';

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

/** The build's files by their path below its directory (`index.html`, `assets/index-….js`). */
export type StaticFiles = ReadonlyMap<string, { body: Buffer; type: string }>;

/** Reads every file below `root` (none when it does not exist: the API still works). */
export async function loadStaticFiles(root: string): Promise<StaticFiles> {
  const files = new Map<string, { body: Buffer; type: string }>();
  const walk = async (dir: string, prefix: string): Promise<void> => {
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      const name = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
      if (entry.isDirectory()) await walk(join(dir, entry.name), name);
      else if (entry.isFile()) files.set(name, { body: await readFile(join(dir, entry.name)), type: types[extname(entry.name).toLowerCase()] ?? 'application/octet-stream' });
    }
  };
  await walk(root, '');
  return files;
}

/** Whether `urlPath` names the UI's one page (`/` or `/index.html`). */
export function isPagePath(urlPath: string): boolean {
  return urlPath === '/' || urlPath === '/index.html';
}

/**
 * Answers GET/HEAD of a renderer file; false when the path is not one (the caller answers 404). The
 * page gets `pageHead` (markup of this answer only) written at the end of its <head>.
 */
export function serveStatic(files: StaticFiles, urlPath: string, response: ServerResponse, head: boolean, pageHead?: string): boolean {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return false;
  }
  if (decoded.includes('\0')) return false;
  const wanted = decoded === '/' ? '/index.html' : decoded;
  // Only a file of the build answers: a path that climbs out of it names none.
  const file = files.get(posix.normalize(wanted).replace(/^\/+/, ''));
  if (file === undefined) return false;
  const page = wanted === '/index.html';
  const body = page && pageHead !== undefined ? withHead(file.body, pageHead) : file.body;
  response.writeHead(200, {
    ...SECURITY_HEADERS,
    'content-type': file.type,
    'content-length': String(body.length),
    'cache-control': page ? 'no-store' : 'private, max-age=3600',
  });
  response.end(head ? undefined : body);
  return true;
}

/** The page with `markup` before its </head> (at its end when it has none). */
function withHead(page: Buffer, markup: string): Buffer {
  const at = page.indexOf('</head>');
  const extra = Buffer.from(markup);
  return at < 0 ? Buffer.concat([page, extra]) : Buffer.concat([page.subarray(0, at), extra, page.subarray(at)]);
}
