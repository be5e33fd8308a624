import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AppBridge } from '../../shared/bridge/app-bridge.js';
import type { AppEvent } from '../../shared/bridge/app-events.js';
import type { AppState } from '../../shared/bridge/app-state.js';
import { BridgeError } from '../../shared/bridge/bridge-error.js';
import { initialStateBlock } from '../../shared/bridge/initial-state.js';
import { startControlServer, type ControlServer, type ControlTarget } from './control-server.js';
import { tempDir } from '../../../test/support/temp-dir.js';

function stateOf(revision: number): AppState {
  return {
    revision,
    overall: 'up-to-date',
    account: { kind: 'none' },
    connection: { kind: 'online' },
    paused: null,
    folders: [],
    conflicts: [],
    notSynced: [],
    notSyncedTotal: 0,
    heldDeletions: [],
    settings: { publishLive: false, uploadBytesPerSecond: null, downloadBytesPerSecond: null, launchAtLogin: false, startWithLocalLibrary: false, notifications: true, downloadFolder: null },
    quickDownload: { folder: '/tmp', recent: [], presets: [] },
    host: { kind: 'headless', platform: 'linux', secureStorage: false, canOpenPaths: false, version: 'test' },
  };
}

/** A bridge that records calls; the server is what is under test. */
function fakeTarget() {
  const calls: { method: string; request: unknown }[] = [];
  const listeners = new Set<(event: AppEvent) => void>();
  const streamed: { relPath: string; bytes: string }[] = [];
  const record =
    (method: string) =>
    async (request?: unknown): Promise<void> => {
      calls.push({ method, request });
    };
  const target: ControlTarget = {
    getState: async () => stateOf(7),
    listActivity: async () => [],
    addFolder: record('addFolder'),
    removeFolder: async (request) => {
      calls.push({ method: 'removeFolder', request });
      throw new BridgeError('NOT_FOUND', `There is no synced folder ${request.folderId}.`);
    },
    updateFolder: record('updateFolder'),
    pause: record('pause'),
    resume: record('resume'),
    syncNow: record('syncNow'),
    resolveConflict: record('resolveConflict'),
    retry: record('retry'),
    confirmDeletions: record('confirmDeletions'),
    restoreDeletions: record('restoreDeletions'),
    copyIn: async () => ({ copied: 0, renamed: [] }),
    signIn: async () => ({ authorizeUrl: 'http://example.invalid/authorize' }),
    useLocalLibrary: record('useLocalLibrary'),
    signOut: record('signOut'),
    updateSettings: async () => stateOf(1).settings,
    openPath: record('openPath'),
    openConflictVersion: record('openConflictVersion'),
    searchAssets: async () => [],
    listPresets: async () => [],
    quickDownload: async (request) => ({ id: 1, assetId: request.assetId, filename: 'a.jpg', presetId: request.presetId, presetName: 'Original', note: null, status: 'done', bytesDone: 1, bytesTotal: 1, path: '/tmp/a.jpg', error: null }),
    revealDownload: record('revealDownload'),
    // Conflict 1 has a thumbnail of our version only; any other id is unknown.
    conflictPreview: async (request) => {
      calls.push({ method: 'conflictPreview', request });
      if (request.conflictId !== 1) throw new BridgeError('NOT_FOUND', `There is no conflict ${request.conflictId}.`);
      return request.side === 'mine' ? { contentType: 'image/webp', bytes: new TextEncoder().encode('RIFF-thumb') } : undefined;
    },
    subscribe(listener) {
      listeners.add(listener);
      listener({ type: 'state', state: stateOf(7) });
      return () => listeners.delete(listener);
    },
    async copyInStream(request) {
      const chunks: Buffer[] = [];
      for await (const chunk of request.body as AsyncIterable<Buffer>) chunks.push(chunk);
      streamed.push({ relPath: request.relPath, bytes: Buffer.concat(chunks).toString('utf8') });
      return { relPath: request.relPath };
    },
  } satisfies ControlTarget & AppBridge;
  return { target, calls, listeners, streamed };
}

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A raw request, so the test controls Host, Origin and Cookie exactly as an attacker could. */
function send(port: number, options: { method?: string; path: string; headers?: Record<string, string>; body?: string }): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, method: options.method ?? 'GET', path: options.path, headers: { host: `127.0.0.1:${port}`, ...options.headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

let staticDir: string;

beforeAll(() => {
  staticDir = tempDir('control-static-');
  mkdirSync(join(staticDir, 'assets'));
  writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>Asset Sync</title><script type="module" src="./assets/app.js"></script>');
  writeFileSync(join(staticDir, 'assets', 'app.js'), 'console.log("app")');
});

describe('the control server', () => {
  let server: ControlServer;
  let fake: ReturnType<typeof fakeTarget>;

  const start = async (): Promise<ControlServer> => {
    fake = fakeTarget();
    server = await startControlServer({ target: fake.target, staticDir });
    return server;
  };

  afterEach(async () => {
    await server.close();
  });

  /** The secret a window link carries. */
  const secretOf = (link: string): string => new URL(link).searchParams.get('secret') ?? '';

  /** The cookie a window link hands out. */
  const login = async (link = server.newLink()): Promise<string> => {
    const answer = await send(server.port, { path: `/?secret=${secretOf(link)}` });
    expect(answer.status).toBe(303);
    expect(answer.headers.location).toBe('/');
    const cookie = answer.headers['set-cookie']?.[0] ?? '';
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    expect(cookie).not.toContain(secretOf(link));
    return cookie.split(';')[0] ?? '';
  };

  it('binds 127.0.0.1 and carries a 32-byte secret in its URL', async () => {
    await start();
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?secret=[A-Za-z0-9_-]{43}$/);
    expect(server.origin).toBe(`http://127.0.0.1:${server.port}`);
  });

  it('exchanges the secret for a session cookie that opens the UI and the API', async () => {
    await start();
    const cookie = await login();
    const page = await send(server.port, { path: '/', headers: { cookie } });
    expect(page.status).toBe(200);
    expect(page.body).toContain('<title>Asset Sync</title>');
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect(page.headers['content-security-policy']).toContain("default-src 'none'");
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    const script = await send(server.port, { path: '/assets/app.js', headers: { cookie } });
    expect(script.status).toBe(200);
    expect(script.headers['content-type']).toMatch(/javascript/);
    const api = await send(server.port, { method: 'POST', path: '/api/getState', headers: { cookie, 'content-type': 'application/json' }, body: '{}' });
    expect(api.status).toBe(200);
    expect(JSON.parse(api.body).result.revision).toBe(7);
  });

  it("writes the app's state into the page it serves a session, as a data block at the end of its head", async () => {
    await start();
    const cookie = await login();
    for (const path of ['/', '/index.html']) {
      const page = await send(server.port, { path, headers: { cookie } });
      expect(page.body).toBe(`<!doctype html><title>Asset Sync</title><script type="module" src="./assets/app.js"></script>${initialStateBlock(stateOf(7))}`);
      expect(page.headers['content-length']).toBe(String(Buffer.byteLength(page.body)));
      expect(page.headers['cache-control']).toBe('no-store');
    }
    // Only the page: a file of the build is served as built, and without a session there is no state.
    expect((await send(server.port, { path: '/assets/app.js', headers: { cookie } })).body).toBe('console.log("app")');
    expect((await send(server.port, { path: '/' })).body).not.toContain('revision');
  });

  it('serves the build as it was when the server started, from memory: one write per answer', async () => {
    const ownDir = tempDir('control-static-own-');
    writeFileSync(join(ownDir, 'index.html'), '<!doctype html><title>Asset Sync</title>');
    fake = fakeTarget();
    server = await startControlServer({ target: fake.target, staticDir: ownDir });
    const cookie = await login();
    writeFileSync(join(ownDir, 'index.html'), 'changed on disk');
    writeFileSync(join(ownDir, 'later.js'), 'console.log("later")');
    const page = await send(server.port, { path: '/', headers: { cookie } });
    expect(page.body).toBe(`<!doctype html><title>Asset Sync</title>${initialStateBlock(stateOf(7))}`);
    expect(page.headers['content-length']).toBe(String(page.body.length));
    expect((await send(server.port, { path: '/later.js', headers: { cookie } })).status).toBe(404);
  });

  it('serves a conflict thumbnail by conflict id and version only, to a session', async () => {
    await start();
    const cookie = await login();
    const thumb = await send(server.port, { path: '/conflict-preview/1/mine?v=abc', headers: { cookie, accept: 'image/*' } });
    expect(thumb.status).toBe(200);
    expect(thumb.headers['content-type']).toBe('image/webp');
    expect(thumb.body).toBe('RIFF-thumb');
    expect(fake.calls).toContainEqual({ method: 'conflictPreview', request: { conflictId: 1, side: 'mine' } });
    // A version without a thumbnail, an unknown conflict: a status the image sees, never a page.
    expect((await send(server.port, { path: '/conflict-preview/1/theirs', headers: { cookie, accept: 'image/*' } })).status).toBe(404);
    expect((await send(server.port, { path: '/conflict-preview/9/mine', headers: { cookie, accept: 'image/*' } })).status).toBe(404);
    // Nothing but an id and a version reaches the app: a path is not an address of a thumbnail.
    for (const path of ['/conflict-preview/1/..%2F..%2Fetc%2Fpasswd', '/conflict-preview/1/mine/x', '/conflict-preview/..%2F1/mine', '/conflict-preview/-1/mine']) {
      expect((await send(server.port, { path, headers: { cookie, accept: 'image/*' } })).status).toBe(404);
    }
    expect(fake.calls.filter((call) => call.method === 'conflictPreview')).toHaveLength(3);
    // Without the session, nothing.
    expect((await send(server.port, { path: '/conflict-preview/1/mine', headers: { accept: 'image/*' } })).status).not.toBe(200);
    expect(fake.calls.filter((call) => call.method === 'conflictPreview')).toHaveLength(3);
  });

  it('refuses a missing or wrong secret, and a made-up cookie', async () => {
    await start();
    expect((await send(server.port, { path: '/?secret=wrong' })).status).toBe(403);
    expect((await send(server.port, { path: '/' })).status).toBe(401);
    expect((await send(server.port, { method: 'POST', path: '/api/getState', headers: { 'content-type': 'application/json' }, body: '{}' })).status).toBe(401);
    const forged = await send(server.port, { method: 'POST', path: '/api/getState', headers: { cookie: `asset_sync_session_${server.port}=forged`, 'content-type': 'application/json' }, body: '{}' });
    expect(forged.status).toBe(401);
    expect(JSON.parse(forged.body).error.code).toBe('NOT_AUTHORISED');
    const badBearer = await send(server.port, { method: 'POST', path: '/api/getState', headers: { authorization: 'Bearer nope', 'content-type': 'application/json' }, body: '{}' });
    expect(badBearer.status).toBe(401);
    expect((await send(server.port, { path: '/api/events' })).status).toBe(401);
    expect(fake.calls).toEqual([]);
  });

  it('opens the window once per link; a spent link opens nothing, and a link is never a bearer token', async () => {
    await start();
    const link = server.url;
    const cookie = await login(link);
    const again = await send(server.port, { path: `/?secret=${secretOf(link)}`, headers: { accept: 'text/html' } });
    expect(again.status).toBe(403);
    expect(again.headers['set-cookie']).toBeUndefined();
    expect(again.body).toContain('asset-sync open');
    // The browser that used it is already in: its reload just shows the window.
    const reload = await send(server.port, { path: `/?secret=${secretOf(link)}`, headers: { cookie } });
    expect([reload.status, reload.headers.location, reload.headers['set-cookie']]).toEqual([303, '/', undefined]);
    for (const secret of [secretOf(link), secretOf(server.newLink())]) {
      const asBearer = await send(server.port, { method: 'POST', path: '/api/getState', headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' }, body: '{}' });
      expect(asBearer.status).toBe(401);
    }
    expect(fake.calls).toEqual([]);
  });

  it('lets the CLI in by its own key, which hands out window links and opens no window itself', async () => {
    await start();
    const bearer = { authorization: `Bearer ${server.cliKey}`, 'content-type': 'application/json' };
    expect((await send(server.port, { method: 'POST', path: '/api/getState', headers: bearer, body: '{}' })).status).toBe(200);
    const asked = await send(server.port, { method: 'POST', path: '/cli/window-link', headers: bearer, body: '{}' });
    expect(asked.status).toBe(200);
    const link = JSON.parse(asked.body).result.url as string;
    expect(link).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${server.port}/\\?secret=[A-Za-z0-9_-]{43}$`));
    await login(link);
    expect((await send(server.port, { path: `/?secret=${server.cliKey}` })).status).toBe(403);
    // A browser's session opens the window; it cannot mint links.
    const cookie = await login();
    const fromBrowser = await send(server.port, { method: 'POST', path: '/cli/window-link', headers: { cookie, 'content-type': 'application/json' }, body: '{}' });
    expect(fromBrowser.status).toBe(403);
  });

  it('refuses a wrong Host header even with the secret (DNS rebinding)', async () => {
    await start();
    const cookie = await login();
    for (const host of ['evil.example:80', `evil.example:${server.port}`, `127.0.0.1:${server.port + 1}`, '127.0.0.1']) {
      const answer = await send(server.port, { method: 'POST', path: '/api/pause', headers: { host, authorization: `Bearer ${server.cliKey}`, cookie, 'content-type': 'application/json' }, body: '{"span":"until-resumed"}' });
      expect(answer.status, host).toBe(421);
    }
    expect((await send(server.port, { path: `/?secret=${secretOf(server.newLink())}`, headers: { host: 'evil.example' } })).status).toBe(421);
    expect(fake.calls).toEqual([]);
    // localhost by name is this server too.
    const local = await send(server.port, { method: 'POST', path: '/api/getState', headers: { host: `localhost:${server.port}`, cookie, 'content-type': 'application/json' }, body: '{}' });
    expect(local.status).toBe(200);
  });

  it('refuses cross-origin requests and never sends CORS headers', async () => {
    await start();
    const cookie = await login();
    const hostile: Record<string, string>[] = [{ origin: 'http://evil.example' }, { origin: 'null' }, { origin: `http://127.0.0.1:${server.port + 1}` }, { 'sec-fetch-site': 'cross-site' }];
    for (const headers of hostile) {
      const answer = await send(server.port, { method: 'POST', path: '/api/pause', headers: { ...headers, cookie, 'content-type': 'application/json' }, body: '{"span":"until-resumed"}' });
      expect(answer.status, JSON.stringify(headers)).toBe(403);
      expect(answer.headers['access-control-allow-origin']).toBeUndefined();
    }
    const preflight = await send(server.port, { method: 'OPTIONS', path: '/api/pause', headers: { origin: 'http://evil.example', 'access-control-request-method': 'POST' } });
    expect(preflight.status).toBe(403);
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
    expect(fake.calls).toEqual([]);
    // The page's own origin is fine.
    const same = await send(server.port, { method: 'POST', path: '/api/pause', headers: { origin: server.origin, cookie, 'content-type': 'application/json' }, body: '{"span":"until-resumed"}' });
    expect(same.status).toBe(200);
    expect(same.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('runs a command round trip, and answers errors as { name, code, message }', async () => {
    await start();
    const cookie = await login();
    const headers = { cookie, 'content-type': 'application/json' };
    const paused = await send(server.port, { method: 'POST', path: '/api/pause', headers, body: JSON.stringify({ folderId: 'f1', span: 'one-hour' }) });
    expect(paused.status).toBe(200);
    expect(JSON.parse(paused.body)).toEqual({ result: null });
    expect(fake.calls).toEqual([{ method: 'pause', request: { folderId: 'f1', span: 'one-hour' } }]);
    const missing = await send(server.port, { method: 'POST', path: '/api/removeFolder', headers, body: JSON.stringify({ folderId: 'nope' }) });
    expect(missing.status).toBe(404);
    expect(JSON.parse(missing.body)).toEqual({ error: { name: 'BridgeError', code: 'NOT_FOUND', message: 'There is no synced folder nope.' } });
    const unknown = await send(server.port, { method: 'POST', path: '/api/dropTables', headers, body: '{}' });
    expect(JSON.parse(unknown.body).error.code).toBe('UNKNOWN_METHOD');
    const notJson = await send(server.port, { method: 'POST', path: '/api/pause', headers, body: '{span' });
    expect(notJson.status).toBe(400);
    expect(JSON.parse(notJson.body).error.code).toBe('INVALID_REQUEST');
    const bytesOverPost = await send(server.port, { method: 'POST', path: '/api/copyIn', headers, body: JSON.stringify({ folderId: 'f1', relDir: '', items: [{ kind: 'bytes' }] }) });
    expect(JSON.parse(bytesOverPost.body).error.code).toBe('INVALID_REQUEST');
  });

  it('streams a dropped file through PUT /api/copy-in', async () => {
    await start();
    const cookie = await login();
    const answer = await send(server.port, { method: 'PUT', path: `/api/copy-in?folderId=f1&relDir=&relPath=${encodeURIComponent('Shots/a.png')}&lastModified=1700000000000`, headers: { cookie }, body: 'png bytes' });
    expect(answer.status).toBe(200);
    expect(fake.streamed).toEqual([{ relPath: 'Shots/a.png', bytes: 'png bytes' }]);
  });

  it('delivers the state over server-sent events at once, then later events', async () => {
    await start();
    const cookie = await login();
    const received: AppEvent[] = [];
    const done = new Promise<void>((resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port: server.port, path: '/api/events', headers: { host: `127.0.0.1:${server.port}`, cookie } }, (res) => {
        expect(res.statusCode).toBe(200);
        expect(res.headers['content-type']).toMatch(/^text\/event-stream/);
        let buffer = '';
        // Destroying the request below aborts the response: that is the end of the test, not an error.
        res.on('error', () => undefined);
        res.on('data', (chunk: Buffer) => {
          buffer += chunk.toString('utf8');
          for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
            const frame = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const data = frame.split('\n').find((line) => line.startsWith('data: '));
            if (data === undefined) continue;
            received.push(JSON.parse(data.slice('data: '.length)) as AppEvent);
            if (received.length === 1) for (const listener of fake.listeners) listener({ type: 'sign-in-needed', server: 'http://x', reason: null });
            if (received.length === 2) {
              req.destroy();
              resolve();
            }
          }
        });
      });
      req.on('error', (error) => (received.length >= 2 ? resolve() : reject(error)));
      req.end();
    });
    await done;
    expect(received[0]).toMatchObject({ type: 'state', state: { revision: 7 } });
    expect(received[1]).toEqual({ type: 'sign-in-needed', server: 'http://x', reason: null });
  });

  it('tells when a window opens and when a window has been sent a state, after the answer went out', async () => {
    const told: string[] = [];
    fake = fakeTarget();
    server = await startControlServer({ target: fake.target, staticDir, onWindowOpened: () => told.push('opened'), onStateSent: () => told.push('state') });
    const cookie = await login();
    expect(told).toEqual(['opened']);
    // A spent link, the page, its files, and other commands are no window opening and no state.
    expect((await send(server.port, { path: `/?secret=${secretOf(server.url)}`, headers: { cookie } })).status).toBe(303);
    await send(server.port, { path: '/', headers: { cookie } });
    await send(server.port, { path: '/assets/app.js', headers: { cookie } });
    await send(server.port, { method: 'POST', path: '/api/listActivity', headers: { cookie, 'content-type': 'application/json' }, body: '{"limit":1}' });
    expect(told).toEqual(['opened', 'opened']);
    const state = await send(server.port, { method: 'POST', path: '/api/getState', headers: { cookie, 'content-type': 'application/json' }, body: '{}' });
    expect(JSON.parse(state.body).result.revision).toBe(7);
    expect(told).toEqual(['opened', 'opened', 'state']);
    // An event stream: told once its first state is written.
    await new Promise<void>((resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port: server.port, path: '/api/events', headers: { host: `127.0.0.1:${server.port}`, cookie } }, (res) => {
        res.on('error', () => undefined);
        res.on('data', (chunk: Buffer) => {
          if (!chunk.toString('utf8').includes('"revision":7')) return;
          expect(told).toEqual(['opened', 'opened', 'state', 'state']);
          req.destroy();
          resolve();
        });
      });
      req.on('error', (error) => (told.length === 4 ? resolve() : reject(error)));
      req.end();
    });
  });

  it("answers a browser's unknown path with an HTML 404 page linking to the start page, with or without the secret", async () => {
    await start();
    const cookie = await login();
    const browser = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };
    const spent = secretOf(server.newLink());
    const asked = [
      { path: '/nope', headers: browser },
      { path: '/nope', headers: { ...browser, cookie } },
      { path: '/settings/general', headers: { ...browser, cookie } },
      { path: `/nope?secret=${spent}`, headers: browser },
      { path: '/nope?secret=wrong', headers: browser },
      { path: '/nope.txt', headers: { ...browser, cookie } },
      { path: '/<script>alert(1)</script>?q="><img/src=x/onerror=alert(1)>', headers: { ...browser, cookie } },
    ];
    for (const { path, headers } of asked) {
      const answer = await send(server.port, { path, headers });
      expect(answer.status, path).toBe(404);
      expect(answer.headers['content-type'], path).toBe('text/html; charset=utf-8');
      expect(answer.body, path).toContain('This page does not exist');
      expect(answer.body, path).toContain('<a href="/">Go to the start page of Asset Sync</a>');
      expect(answer.headers['content-security-policy'], path).toContain("default-src 'none'");
      expect(answer.headers['x-content-type-options'], path).toBe('nosniff');
      // Nothing of the request comes back: not the path, not the query, not the secret.
      expect(answer.body, path).not.toContain('<script');
      expect(answer.body, path).not.toContain('<img');
      expect(answer.body, path).not.toContain('nope');
      expect(answer.body, path).not.toContain(spent);
    }
    // With a good link, the page's link opens the window: the answer carries a session cookie.
    const withSecret = await send(server.port, { path: `/nope?secret=${secretOf(server.newLink())}`, headers: browser });
    const session = withSecret.headers['set-cookie']?.[0]?.split(';')[0] ?? '';
    expect(session).toMatch(new RegExp(`^asset_sync_session_${server.port}=`));
    expect((await send(server.port, { path: '/', headers: { ...browser, cookie: session } })).body).toContain('<title>Asset Sync</title>');
    expect((await send(server.port, { path: '/nope?secret=wrong', headers: browser })).headers['set-cookie']).toBeUndefined();
    // Its look comes from this server (the CSP allows no inline style), with no session needed.
    const style = await send(server.port, { path: '/_page.css', headers: { accept: 'text/css,*/*;q=0.1' } });
    expect([style.status, style.headers['content-type']]).toEqual([200, 'text/css; charset=utf-8']);
    // The start page and the build's files are still served.
    expect((await send(server.port, { path: '/', headers: { ...browser, cookie } })).status).toBe(200);
    expect((await send(server.port, { path: '/index.html', headers: { ...browser, cookie } })).status).toBe(200);
    expect((await send(server.port, { path: '/assets/app.js', headers: { cookie } })).status).toBe(200);
  });

  it('keeps JSON errors for API clients: the /api/ prefix, or a request that asks for JSON', async () => {
    await start();
    const cookie = await login();
    const json = { accept: 'application/json' };
    const answers = [
      await send(server.port, { path: '/api/nope', headers: { cookie } }),
      await send(server.port, { path: '/api/nope', headers: { accept: 'text/html' } }),
      await send(server.port, { method: 'POST', path: '/api/nope', headers: { cookie, 'content-type': 'application/json' }, body: '{}' }),
      await send(server.port, { path: '/nope', headers: { ...json, cookie } }),
      await send(server.port, { path: '/nope', headers: json }),
    ];
    expect(answers.map((answer) => answer.status)).toEqual([400, 401, 404, 404, 401]);
    for (const answer of answers) {
      expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(JSON.parse(answer.body).error).toMatchObject({ name: 'BridgeError', code: expect.any(String), message: expect.any(String) });
    }
    expect(JSON.parse(answers[3]?.body ?? '').error.code).toBe('NOT_FOUND');
  });

  it('refuses a foreign host or site with a page for a browser, and JSON for the API', async () => {
    await start();
    const browser = { accept: 'text/html' };
    const rebound = await send(server.port, { path: '/nope', headers: { ...browser, host: `evil.example:${server.port}` } });
    expect(rebound.status).toBe(421);
    expect(rebound.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(rebound.body).toContain(`<a href="http://127.0.0.1:${server.port}/">`);
    expect(rebound.body).not.toContain('evil.example');
    const linked = await send(server.port, { path: '/', headers: { ...browser, 'sec-fetch-site': 'cross-site' } });
    expect(linked.status).toBe(403);
    expect(linked.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(linked.headers['access-control-allow-origin']).toBeUndefined();
    const api = await send(server.port, { path: '/api/events', headers: { ...browser, 'sec-fetch-site': 'cross-site' } });
    expect(api.status).toBe(403);
    expect(JSON.parse(api.body).error.code).toBe('CROSS_ORIGIN');
    expect(fake.calls).toEqual([]);
  });

  it('serves nothing outside the renderer directory', async () => {
    await start();
    const cookie = await login();
    for (const path of ['/../package.json', '/%2e%2e/%2e%2e/etc/passwd', '/assets/../../x.js']) {
      const answer = await send(server.port, { path, headers: { cookie } });
      expect(answer.body, path).not.toContain('root:');
      expect([200, 404], path).toContain(answer.status);
      if (answer.status === 200) expect(answer.body).toContain('<title>Asset Sync</title>');
    }
  });
});
