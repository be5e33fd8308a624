/**
 * The loopback control server: the headless app's window. It carries the one bridge
 * contract over HTTP so the same UI runs in any browser, and lets `asset-sync status`/`conflicts` ask
 * the running app. Protocol:
 *   GET  /?secret=S           a window link, spent on use, for an HttpOnly SameSite=Strict session cookie; 303 to /
 *   GET  /…                   the built renderer (dist/renderer/), strict CSP, its page carrying the app's
 *                             state (initial-state.ts); any other path a browser
 *                             asks for gets an HTML page (404 with a link to the start page), never JSON
 *   POST /api/<method>        a bridge command: JSON body in, `{ result }` or `{ error: {name,code,message} }` out
 *   PUT  /api/copy-in?…       one dropped file's bytes, streamed to disk (folderId, relDir, relPath, lastModified)
 *   GET  /api/events          server-sent events: every AppEvent as `data: <json>`, the state first
 *   GET  /conflict-preview/<id>/<mine|theirs>   a conflict's thumbnail, found by the app from the id alone
 *   POST /cli/window-link     (the CLI key only) a new window link, for `asset-sync open`
 * Bound to 127.0.0.1 only; request-guard.ts has the rules (Host, Origin, links, CLI key). Nothing is logged.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { bridgeMethods, type AppBridge, type BridgeMethod } from '../../shared/bridge/app-bridge.js';
import { BridgeError, toBridgeError } from '../../shared/bridge/bridge-error.js';
import type { BridgeErrorData } from '../../shared/bridge/app-state.js';
import type { AppController, StreamCopyRequest } from '../app/app-types.js';
import { parseConflictPreviewPath } from '../app/conflict-sides.js';
import { Sessions, checkSite, newSecret } from './request-guard.js';
import { SECURITY_HEADERS, isPagePath, loadStaticFiles, serveStatic, type StaticFiles } from './static-files.js';
import { initialStateBlock } from '../../shared/bridge/initial-state.js';
import { PAGE_STYLE_PATH, START_PAGE, sendNoSuchPage, sendPage, sendPageStyle, wantsPage } from './control-pages.js';

/** What the server needs of the app: the bridge, plus streamed copies for browser drops and conflict thumbnails. */
export interface ControlTarget extends AppBridge, Pick<AppController, 'conflictPreview'> {
  copyInStream(request: StreamCopyRequest): Promise<{ relPath: string }>;
}

export interface ControlServerOptions {
  target: ControlTarget;
  /** dist/renderer/ (the built UI); without it the API still works. */
  staticDir?: string;
  /** 0 (default) picks a free port. */
  port?: number;
  /** The CLI's bearer key (default: 32 random bytes). */
  cliKey?: string;
  /** Signs the session cookies (default: 32 random bytes, so sessions end with the server). */
  cookieKey?: string;
  /** How soon a browser's event stream tries again after it dropped (default 1 s). */
  reconnectMs?: number;
  /** SSE keep-alive comment interval (default 15 s). */
  heartbeatMs?: number;
  /** Told when a window link has been traded for a session: a window is opening. */
  onWindowOpened?: () => void;
  /** Told when a window has been sent a state: a getState answered, or an event stream's first state written. */
  onStateSent?: () => void;
}

export interface ControlServer {
  /** A window link made at start (`http://127.0.0.1:PORT/?secret=…`): it opens the window once. Never log it. */
  readonly url: string;
  /** The address without a secret. */
  readonly origin: string;
  readonly port: number;
  /** The CLI's bearer key (app.json). Never log it. */
  readonly cliKey: string;
  /** A new one-time window link. */
  newLink(): string;
  close(): Promise<void>;
}

const MAX_JSON_BYTES = 1024 * 1024;
/** Where the CLI asks for a new window link. */
export const CLI_WINDOW_LINK = '/cli/window-link';
const OPEN_WITH_LINK = 'Open a window link of Asset Sync: the one it printed when it started, or a new one from "asset-sync open".';
const USED_LINK = 'A window link opens Asset Sync once, and this one was already used (or is not one). Run "asset-sync open" on this computer for a new one.';

const statusOf = (code: string): number => {
  if (code === 'INVALID_REQUEST' || code.startsWith('INVALID')) return 400;
  if (code === 'NOT_FOUND' || code === 'UNKNOWN_METHOD' || code.endsWith('_NOT_FOUND')) return 404;
  if (code === 'FORBIDDEN') return 403;
  if (code === 'INTERNAL') return 500;
  return 409;
};

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(status, { ...SECURITY_HEADERS, 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', 'content-length': String(Buffer.byteLength(text)) });
  response.end(text);
}

function sendError(response: ServerResponse, status: number, error: BridgeErrorData): void {
  sendJson(response, status, { error });
}

async function readJson(request: IncomingMessage): Promise<unknown> {
  const type = request.headers['content-type'] ?? '';
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_JSON_BYTES) throw new BridgeError('INVALID_REQUEST', 'The request body is too large.');
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') return {};
  if (!/^application\/json\b/i.test(type)) throw new BridgeError('INVALID_REQUEST', 'Commands are JSON: send Content-Type: application/json.');
  try {
    return JSON.parse(text);
  } catch {
    throw new BridgeError('INVALID_REQUEST', 'The request body is not valid JSON.');
  }
}

function objectBody(body: unknown): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new BridgeError('INVALID_REQUEST', 'The request body must be a JSON object.');
  return body as Record<string, unknown>;
}

/** Runs one bridge method with a JSON body; the app validates the fields it reads. */
async function dispatch(target: AppBridge, method: BridgeMethod, raw: unknown): Promise<unknown> {
  const body = objectBody(raw);
  // The request objects are checked field by field by the controller; here only their outer shape.
  const request = body as never;
  switch (method) {
    case 'getState':
      return target.getState();
    case 'listActivity':
      return target.listActivity(request);
    case 'addFolder':
      return target.addFolder(request);
    case 'removeFolder':
      return target.removeFolder(request);
    case 'updateFolder':
      return target.updateFolder(request);
    case 'pause':
      return target.pause(request);
    case 'resume':
      return target.resume(request);
    case 'syncNow':
      return target.syncNow(request);
    case 'resolveConflict':
      return target.resolveConflict(request);
    case 'openConflictVersion':
      return target.openConflictVersion(request);
    case 'retry':
      return target.retry(request);
    case 'confirmDeletions':
      return target.confirmDeletions(request);
    case 'restoreDeletions':
      return target.restoreDeletions(request);
    case 'copyIn': {
      const items = body.items;
      if (!Array.isArray(items) || items.some((item: unknown) => typeof item !== 'object' || item === null || (item as { kind?: unknown }).kind !== 'path')) {
        throw new BridgeError('INVALID_REQUEST', 'Over HTTP, copyIn takes { kind: "path" } items; dropped bytes go to PUT /api/copy-in.');
      }
      return target.copyIn(request);
    }
    case 'signIn':
      return target.signIn(request);
    case 'useLocalLibrary':
      return target.useLocalLibrary();
    case 'signOut':
      return target.signOut();
    case 'updateSettings':
      return target.updateSettings(request);
    case 'openPath':
      return target.openPath(request);
    case 'searchAssets':
      return target.searchAssets(request);
    case 'listPresets':
      return target.listPresets();
    case 'quickDownload':
      return target.quickDownload(request);
    case 'revealDownload':
      return target.revealDownload(request);
  }
}

const isMethod = (name: string): name is BridgeMethod => (bridgeMethods as readonly string[]).includes(name);

export async function startControlServer(options: ControlServerOptions): Promise<ControlServer> {
  const cliKey = options.cliKey ?? newSecret();
  const staticFiles: StaticFiles | undefined = options.staticDir === undefined ? undefined : await loadStaticFiles(options.staticDir);
  const heartbeatMs = options.heartbeatMs ?? 15_000;
  const streams = new Set<ServerResponse>();
  let port = 0;
  const sessions = new Sessions(cliKey, options.cookieKey ?? newSecret(), () => port);
  const newLink = (): string => `http://127.0.0.1:${port}/?secret=${sessions.newLink()}`;

  const events = (request: IncomingMessage, response: ServerResponse): void => {
    response.writeHead(200, { ...SECURITY_HEADERS, 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', connection: 'keep-alive' });
    // A dropped stream (the app stopped) is tried again this soon, so a restarted app is found quickly.
    response.write(`retry: ${options.reconnectMs ?? 1000}\n: connected\n\n`);
    streams.add(response);
    const unsubscribe = options.target.subscribe((event) => {
      response.write(`data: ${JSON.stringify(event)}\n\n`);
    });
    // A subscriber is sent the state at once (the bridge's contract): it has gone out.
    options.onStateSent?.();
    const heartbeat = setInterval(() => response.write(': keep-alive\n\n'), heartbeatMs);
    const end = (): void => {
      clearInterval(heartbeat);
      unsubscribe();
      streams.delete(response);
    };
    request.once('close', end);
    response.once('close', end);
  };

  const copyIn = async (request: IncomingMessage, response: ServerResponse, url: URL): Promise<void> => {
    const folderId = url.searchParams.get('folderId');
    const relPath = url.searchParams.get('relPath');
    if (folderId === null || relPath === null) throw new BridgeError('INVALID_REQUEST', 'PUT /api/copy-in needs folderId and relPath.');
    const lastModified = Number(url.searchParams.get('lastModified') ?? NaN);
    const length = Number(request.headers['content-length'] ?? NaN);
    const result = await options.target.copyInStream({
      folderId,
      relDir: url.searchParams.get('relDir') ?? '',
      relPath,
      lastModified: Number.isFinite(lastModified) ? lastModified : null,
      size: Number.isFinite(length) ? length : null,
      body: request,
    });
    sendJson(response, 200, { result });
  };

  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const url = new URL(request.url ?? '/', `http://127.0.0.1:${port}`);
    const method = request.method ?? 'GET';
    const page = wantsPage(request, url.pathname);
    const site = checkSite(request, port);
    if (!site.ok) {
      request.resume();
      if (!page) sendError(response, site.status, { name: 'BridgeError', code: site.code, message: site.message });
      else if (site.code === 'WRONG_HOST') sendPage(response, site.status, 'Not this address', 'Asset Sync answers only at 127.0.0.1 and localhost.', { href: `http://127.0.0.1:${port}/`, label: 'Go to the start page of Asset Sync' });
      else sendPage(response, site.status, 'Not from another site', 'Asset Sync does not open from links on other sites. Open the address it printed when it started.');
      return;
    }

    if (page && url.pathname === PAGE_STYLE_PATH) {
      request.resume();
      sendPageStyle(response, method === 'HEAD');
      return;
    }

    // The one unauthenticated step: a window link, spent as it is traded for a session cookie.
    const offered = url.searchParams.get('secret');
    if (method === 'GET' && url.pathname === '/' && offered !== null) {
      if (sessions.redeem(offered)) {
        response.writeHead(303, { ...SECURITY_HEADERS, 'set-cookie': sessions.cookieHeader(), location: '/', 'cache-control': 'no-store' });
        response.end();
        options.onWindowOpened?.();
      } else if (sessions.authorised(request)) {
        // A spent link in a browser that is already in (a reload, the back button): just the window.
        response.writeHead(303, { ...SECURITY_HEADERS, location: '/', 'cache-control': 'no-store' });
        response.end();
      } else {
        sendPage(response, 403, 'This link was used', USED_LINK);
      }
      return;
    }

    if (!sessions.authorised(request)) {
      request.resume();
      if (!page) sendError(response, 401, { name: 'BridgeError', code: 'NOT_AUTHORISED', message: 'Open a window link of Asset Sync (run "asset-sync open" for one); the CLI uses the key in app.json.' });
      else if (url.pathname === '/') sendPage(response, 401, 'Asset Sync', OPEN_WITH_LINK);
      // A wrong path with a good link: the page says so, and its link opens the window.
      else if (offered !== null && sessions.redeem(offered)) sendNoSuchPage(response, { 'set-cookie': sessions.cookieHeader() });
      else sendNoSuchPage(response);
      return;
    }

    if (url.pathname === CLI_WINDOW_LINK && method === 'POST') {
      request.resume();
      // Only the CLI may ask: a browser's cookie opens this window, it does not hand out new keys to it.
      if (!sessions.fromCli(request)) throw new BridgeError('FORBIDDEN', 'Only the asset-sync command on this computer may ask for a window link.');
      sendJson(response, 200, { result: { url: newLink() } });
      return;
    }

    if (url.pathname === '/api/events' && method === 'GET') {
      events(request, response);
      return;
    }
    const preview = parseConflictPreviewPath(url.pathname);
    if (preview !== undefined && (method === 'GET' || method === 'HEAD')) {
      request.resume();
      // An image's failure is answered as such (a status the <img> sees), never as a page.
      const image = await options.target.conflictPreview(preview).catch((error: unknown) => toBridgeError(error));
      if (image === undefined || 'code' in image) {
        const error = image ?? { name: 'BridgeError', code: 'PREVIEW_NOT_FOUND', message: 'This version has no preview.' };
        sendError(response, statusOf(error.code), error);
        return;
      }
      // The address carries the version shown (`?v=`), so a cached thumbnail is never of another version.
      response.writeHead(200, { ...SECURITY_HEADERS, 'content-type': image.contentType, 'content-length': String(image.bytes.byteLength), 'cache-control': 'private, max-age=3600' });
      response.end(method === 'HEAD' ? undefined : image.bytes);
      return;
    }
    if (url.pathname === '/api/copy-in' && method === 'PUT') {
      await copyIn(request, response, url);
      return;
    }
    if (url.pathname.startsWith('/api/')) {
      const name = url.pathname.slice('/api/'.length);
      if (method !== 'POST') {
        request.resume();
        throw new BridgeError('INVALID_REQUEST', `Use POST for /api/${name}.`);
      }
      if (!isMethod(name)) {
        request.resume();
        throw new BridgeError('UNKNOWN_METHOD', `There is no command "${name}".`);
      }
      const result = await dispatch(options.target, name, await readJson(request));
      sendJson(response, 200, { result: result ?? null });
      if (name === 'getState') options.onStateSent?.();
      return;
    }
    if ((method === 'GET' || method === 'HEAD') && staticFiles !== undefined) {
      // The page comes with the state its window shows first: one round trip fewer before it shows anything.
      // A state the app cannot build now is left to the page to ask for.
      const state = isPagePath(url.pathname) && method === 'GET' ? await options.target.getState().catch(() => undefined) : undefined;
      const head = state === undefined ? undefined : initialStateBlock(state);
      if (serveStatic(staticFiles, url.pathname, response, method === 'HEAD', head)) return;
    }
    request.resume();
    if (page) sendNoSuchPage(response);
    else sendError(response, 404, { name: 'BridgeError', code: 'NOT_FOUND', message: `There is nothing at ${url.pathname}.` });
  };

  const server: Server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      const data = toBridgeError(error);
      if (response.headersSent) response.destroy();
      else if (wantsPage(request, URL.parse(request.url ?? '/', 'http://127.0.0.1')?.pathname ?? '/')) sendPage(response, 500, 'Something went wrong', 'Asset Sync could not show this page. Try again, or restart the app.', START_PAGE);
      else sendError(response, statusOf(data.code), data);
    });
  });
  server.headersTimeout = 30_000;
  // Drops and the event stream are long: no whole-request time limit.
  server.requestTimeout = 0;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  port = (server.address() as AddressInfo).port;
  const origin = `http://127.0.0.1:${port}`;
  return {
    url: newLink(),
    origin,
    port,
    cliKey,
    newLink,
    async close() {
      for (const stream of streams) stream.end();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
