/**
 * The window's page served through our own `app://bundle/` scheme instead of file:// (Electron security
 * checklist: "use a custom protocol instead of file://"). A file:// page may read any local file the
 * user can, and a meta tag is the only place for its content policy; through this handler the page can
 * reach only the built renderer's directory, and every answer carries the Content-Security-Policy as a
 * real header (the meta tag in index.html stays as a backstop, rewritten to the same policy as it is served:
 * a page obeys both, so a meta tag without the account's service would block its thumbnails). A path that leaves the directory, by
 * `..`, an encoded slash or a backslash, is refused with 403 before any file is touched.
 *
 * The scheme is registered as standard and secure before the app is ready (main.ts), so the page has a
 * real origin (`app://bundle`), relative URLs resolve, and it counts as a secure context.
 */
import { readFile as fsReadFile, stat as fsStat } from 'node:fs/promises';
import { extname, isAbsolute, relative, resolve, sep } from 'node:path';
import mime from 'mime';
import { parseConflictPreviewPath, type ConflictPreview } from '../app/conflict-sides.js';
import type { ConflictSideName } from '../../shared/bridge/app-state.js';
import { WINDOW_CONTENT_SECURITY_POLICY } from './window-options.js';

export const APP_SCHEME = 'app';
export const APP_HOST = 'bundle';
/** The window's page; routes are its hash (`#/conflicts`). */
export const APP_PAGE_URL = `${APP_SCHEME}://${APP_HOST}/index.html`;

/**
 * For protocol.registerSchemesAsPrivileged, before `ready`: a standard, secure scheme. `supportFetchAPI`
 * lets Chromium fetch the page's own module scripts (vite emits `<script type="module" crossorigin>`)
 * from it; the page itself can still fetch nothing (CSP `connect-src 'none'`), and without `corsEnabled`
 * no other origin can read from it. No CSP bypass, no service workers.
 */
export const APP_SCHEME_PRIVILEGES = {
  scheme: APP_SCHEME,
  privileges: { standard: true, secure: true, supportFetchAPI: true, corsEnabled: false, bypassCSP: false, allowServiceWorkers: false, stream: false },
} as const;

/** What the handler reads of the request (Electron passes a fetch Request). */
export interface AppRequestLike {
  readonly url: string;
  readonly method: string;
}

export interface AppProtocolFiles {
  readFile(path: string): Promise<Uint8Array>;
  isFile(path: string): Promise<boolean>;
}

const systemFiles: AppProtocolFiles = {
  readFile: (path) => fsReadFile(path),
  isFile: (path) =>
    fsStat(path).then(
      (info) => info.isFile(),
      () => false,
    ),
};

/** The answer headers of every response, errors included. */
function headers(contentType: string, policy: string): Headers {
  return new Headers({
    'Content-Type': contentType,
    'Content-Security-Policy': policy,
    'X-Content-Type-Options': 'nosniff',
    'Cache-Control': 'no-cache',
  });
}

function refuse(status: number, why: string, policy: string): Response {
  return new Response(why, { status, headers: headers('text/plain; charset=utf-8', policy) });
}

const META_POLICY = /(<meta\s+http-equiv="Content-Security-Policy"\s+content=")[^"]*(")/i;

/**
 * The page with its meta tag's policy replaced by `policy` (without frame-ancestors, which a meta tag
 * may not carry). The policy holds no `"` (its service origin is a parsed URL's origin, window-options.ts).
 */
export function withMetaPolicy(html: string, policy: string): string {
  const meta = policy
    .split('; ')
    .filter((directive) => !directive.startsWith('frame-ancestors '))
    .join('; ');
  return html.replace(META_POLICY, (_match, start: string, end: string) => `${start}${meta}${end}`);
}

/**
 * The file under `rootDir` that a request names, or the HTTP status that refuses it: 404 for another
 * host, 400 for a malformed path, 403 for one that leaves the directory.
 */
export function resolveAppPath(rootDir: string, url: string): { file: string } | { status: 400 | 403 | 404 } {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { status: 400 };
  }
  if (parsed.protocol !== `${APP_SCHEME}:` || parsed.host !== APP_HOST) return { status: 404 };
  let path: string;
  try {
    path = decodeURIComponent(parsed.pathname);
  } catch {
    return { status: 400 };
  }
  if (path.includes('\0')) return { status: 400 };
  // The URL parser already removed plain `..` segments; what is left after decoding (`%2F..`, `..\`)
  // must still land inside the root.
  if (path.includes('\\')) return { status: 403 };
  if (path === '/' || path === '') path = '/index.html';
  const root = resolve(rootDir);
  const file = resolve(root, `.${path}`);
  const inside = relative(root, file);
  if (inside === '' || inside.startsWith(`..${sep}`) || inside === '..' || isAbsolute(inside)) return { status: 403 };
  return { file };
}

/** Finds a conflict's thumbnail by its id (the app's rule, as the control server asks it). */
export type ConflictPreviews = (request: { conflictId: number; side: ConflictSideName }) => Promise<ConflictPreview | undefined>;

/**
 * The handler for protocol.handle('app', …): the built renderer in `rootDir`, read only, under the
 * window's policy as it is at each request (`policy`: it follows the account's service); and a
 * conflict's thumbnail at `/conflict-preview/<id>/<mine|theirs>`, which the app finds by id alone.
 */
export function createAppProtocolHandler(
  rootDir: string,
  files: AppProtocolFiles = systemFiles,
  policy: () => string = () => WINDOW_CONTENT_SECURITY_POLICY,
  conflictPreviews?: ConflictPreviews,
): (request: AppRequestLike) => Promise<Response> {
  return async (request) => {
    const current = policy();
    if (request.method !== 'GET' && request.method !== 'HEAD') return refuse(405, 'Only GET and HEAD.', current);
    const url = URL.parse(request.url);
    const preview = url !== null && url.protocol === `${APP_SCHEME}:` && url.host === APP_HOST ? parseConflictPreviewPath(url.pathname) : undefined;
    if (preview !== undefined && conflictPreviews !== undefined) {
      const image = await conflictPreviews(preview).catch(() => undefined);
      if (image === undefined) return refuse(404, 'No preview.', current);
      return new Response(request.method === 'HEAD' ? null : new Blob([image.bytes]), { status: 200, headers: headers(image.contentType, current) });
    }
    const target = resolveAppPath(rootDir, request.url);
    if ('status' in target) return refuse(target.status, target.status === 403 ? 'Outside the app.' : 'Not found.', current);
    if (!(await files.isFile(target.file))) return refuse(404, 'Not found.', current);
    const bytes = await files.readFile(target.file);
    const type = mime.getType(extname(target.file)) ?? 'application/octet-stream';
    const contentType = type.startsWith('text/') || type === 'application/javascript' ? `${type}; charset=utf-8` : type;
    const body = type === 'text/html' ? new TextEncoder().encode(withMetaPolicy(new TextDecoder().decode(bytes), current)) : bytes;
    return new Response(request.method === 'HEAD' ? null : new Blob([body]), { status: 200, headers: headers(contentType, current) });
  };
}
