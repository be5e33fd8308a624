/**
 * The control server's own pages for a person (a refusal, an address that is no page) and their style
 * sheet: fixed words with an optional link, CSP-clean (no script, no inline style), and nothing a request
 * carried reaches them unescaped. The UI itself is the renderer's build (static-files.ts).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { SECURITY_HEADERS } from './static-files.js';

/** Text for an HTML page: nothing a request carried reaches a page unescaped. */
function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/** The look of the server's own pages (refusals, not found): served at PAGE_STYLE_PATH to anyone, it holds nothing. */
export const PAGE_STYLE_PATH = '/_page.css';
const PAGE_STYLE = `:root{color-scheme:light dark;font:16px/1.5 system-ui,sans-serif}
body{margin:0;display:grid;min-height:100vh;place-items:center;background:Canvas;color:CanvasText}
main{max-width:32rem;padding:2rem}h1{font-size:1.5rem;margin:0 0 .5rem}p{margin:0 0 1rem}
a{color:LinkText;font-weight:600}`;

export function sendPageStyle(response: ServerResponse, head: boolean): void {
  response.writeHead(200, { ...SECURITY_HEADERS, 'content-type': 'text/css; charset=utf-8', 'cache-control': 'no-store', 'content-length': String(Buffer.byteLength(PAGE_STYLE)) });
  response.end(head ? undefined : PAGE_STYLE);
}

/** A page for a person: fixed words, an optional link; CSP-clean (no script, no inline style). */
export function sendPage(response: ServerResponse, status: number, title: string, text: string, link?: { href: string; label: string }, extra: Record<string, string> = {}): void {
  const linkHtml = link === undefined ? '' : `<p><a href="${escapeHtml(link.href)}">${escapeHtml(link.label)}</a></p>`;
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="color-scheme" content="light dark"><meta name="viewport" content="width=device-width, initial-scale=1"><link rel="stylesheet" href="${PAGE_STYLE_PATH}"><title>${escapeHtml(title)} · Asset Sync</title></head><body><main><h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p>${linkHtml}</main></body></html>`;
  response.writeHead(status, { ...SECURITY_HEADERS, ...extra, 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', 'content-length': String(Buffer.byteLength(html)) });
  response.end(html);
}

/**
 * Whether a person's browser asked for a page, so a failure answers HTML: a GET or HEAD outside /api/
 * that does not ask for JSON. The API's clients (the UI's fetches, the CLI) always get JSON.
 */
export function wantsPage(request: IncomingMessage, pathname: string): boolean {
  const method = request.method ?? 'GET';
  if ((method !== 'GET' && method !== 'HEAD') || pathname === '/api' || pathname.startsWith('/api/')) return false;
  const accept = (request.headers.accept ?? '').toLowerCase();
  return !accept.includes('application/json') || accept.includes('text/html');
}

export const START_PAGE = { href: '/', label: 'Go to the start page of Asset Sync' };

/** The page for an address that is not one of the app's pages. */
export function sendNoSuchPage(response: ServerResponse, extra: Record<string, string> = {}): void {
  sendPage(response, 404, 'This page does not exist', 'Asset Sync has no page at this address: it may be mistyped, or from an older version of the app.', START_PAGE, extra);
}
