import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { APP_PAGE_URL, APP_SCHEME_PRIVILEGES, createAppProtocolHandler, resolveAppPath } from './app-protocol.js';
import { WINDOW_CONTENT_SECURITY_POLICY, navigationDecision, windowContentSecurityPolicy } from './window-options.js';
import { tempDir } from '../../../test/support/temp-dir.js';
let root: string;

beforeAll(async () => {
  const temp = tempDir('app-protocol-');
  // The renderer's build beside a secret the page must never read.
  root = join(temp, 'renderer');
  await mkdir(join(root, 'assets'), { recursive: true });
  // As the renderer's index.html has it: a meta policy as a backstop of the header.
  await writeFile(
    join(root, 'index.html'),
    `<!doctype html><meta\n      http-equiv="Content-Security-Policy"\n      content="default-src 'none'; img-src 'self' data:; connect-src 'self'"\n    /><title>Asset Sync</title>`,
  );
  await writeFile(join(root, 'assets', 'app.js'), 'console.log(1)');
  await writeFile(join(root, 'assets', 'app.css'), 'body{}');
  await writeFile(join(temp, 'secret.txt'), 'tokens');
  await writeFile(join(temp, 'renderer-evil.txt'), 'sibling');
});

const get = (url: string, method = 'GET'): Promise<Response> => createAppProtocolHandler(root)({ url, method });

describe('the app:// protocol', () => {
  it('registers as a standard, secure scheme, readable by no other origin, with no CSP bypass', () => {
    expect(APP_SCHEME_PRIVILEGES).toMatchObject({ scheme: 'app', privileges: { standard: true, secure: true, corsEnabled: false, bypassCSP: false, allowServiceWorkers: false } });
    // The page's own connections stay closed by its policy, whatever the scheme allows.
    expect(WINDOW_CONTENT_SECURITY_POLICY).toContain("connect-src 'none'");
  });

  it('serves the page with the content policy as a real header and the right type', async () => {
    const page = await get(APP_PAGE_URL);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toBe(WINDOW_CONTENT_SECURITY_POLICY);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await page.text()).toContain('<title>Asset Sync</title>');
    const script = await get('app://bundle/assets/app.js');
    expect(script.headers.get('content-type')).toMatch(/^(application|text)\/javascript; charset=utf-8$/);
    expect(await script.text()).toBe('console.log(1)');
    expect((await get('app://bundle/assets/app.css')).headers.get('content-type')).toBe('text/css; charset=utf-8');
  });

  it("serves the page under the policy as it is now, its meta tag rewritten to it (a page obeys both)", async () => {
    let policy = WINDOW_CONTENT_SECURITY_POLICY;
    const handler = createAppProtocolHandler(root, undefined, () => policy);
    const metaOf = (html: string): string | undefined => /http-equiv="Content-Security-Policy"\s+content="([^"]*)"/.exec(html)?.[1];
    const before = await handler({ url: APP_PAGE_URL, method: 'GET' });
    expect(metaOf(await before.text())).toBe(WINDOW_CONTENT_SECURITY_POLICY.replace("; frame-ancestors 'none'", ''));
    policy = windowContentSecurityPolicy('https://acme.example.com');
    const after = await handler({ url: APP_PAGE_URL, method: 'GET' });
    expect(after.headers.get('content-security-policy')).toBe(policy);
    const html = await after.text();
    expect(metaOf(html)).toContain('img-src \'self\' data: blob: http://127.0.0.1:* http://localhost:* https://acme.example.com;');
    expect(metaOf(html)).not.toContain('frame-ancestors');
    expect(html).toContain('<title>Asset Sync</title>');
    // Other files are served as they are, under the same header.
    const script = await handler({ url: 'app://bundle/assets/app.js', method: 'GET' });
    expect(script.headers.get('content-security-policy')).toBe(policy);
    expect(await script.text()).toBe('console.log(1)');
  });

  it('serves index.html for the bare origin, and a HEAD without a body', async () => {
    expect(await (await get('app://bundle/')).text()).toContain('Asset Sync');
    const head = await get(APP_PAGE_URL, 'HEAD');
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
  });

  it.each([
    ['an encoded slash climbing out', 'app://bundle/..%2Fsecret.txt'],
    ['an encoded slash twice', 'app://bundle/assets/..%2F..%2Fsecret.txt'],
    ['a backslash', 'app://bundle/..%5Csecret.txt'],
    ['a sibling directory sharing the prefix', 'app://bundle/..%2Frenderer-evil.txt'],
  ])('refuses %s with 403, the secret unread', async (_what, url) => {
    const answer = await get(url);
    expect(answer.status).toBe(403);
    expect(await answer.text()).not.toContain('tokens');
    expect(answer.headers.get('content-security-policy')).toBe(WINDOW_CONTENT_SECURITY_POLICY);
  });

  it('keeps a plain `..` inside (the URL parser folds it before the handler sees it)', async () => {
    const answer = await get('app://bundle/../../secret.txt');
    expect(answer.status).toBe(404);
    expect(resolveAppPath(root, 'app://bundle/../../index.html')).toEqual({ file: join(root, 'index.html') });
    // An encoded absolute path is read relative to the root too.
    expect(resolveAppPath(root, 'app://bundle/%2Fetc%2Fpasswd')).toEqual({ file: join(root, 'etc', 'passwd') });
  });

  it('answers 404 for a missing file, a directory, or another host; 400 for a bad escape or a NUL', async () => {
    expect((await get('app://bundle/nope.js')).status).toBe(404);
    expect((await get('app://bundle/assets')).status).toBe(404);
    expect((await get('app://other/index.html')).status).toBe(404);
    expect((await get('app://bundle/%E0%A4%A')).status).toBe(400);
    expect((await get('app://bundle/index.html%00.png')).status).toBe(400);
  });

  it('serves a conflict thumbnail the app finds by conflict id, and nothing for an address that names a path', async () => {
    const asked: unknown[] = [];
    const handler = createAppProtocolHandler(root, undefined, undefined, async (request) => {
      asked.push(request);
      return request.conflictId === 3 && request.side === 'mine' ? { contentType: 'image/webp', bytes: new Uint8Array([82, 73, 70, 70]) } : undefined;
    });
    const thumb = await handler({ url: 'app://bundle/conflict-preview/3/mine?v=abc', method: 'GET' });
    expect(thumb.status).toBe(200);
    expect(thumb.headers.get('content-type')).toBe('image/webp');
    expect(new Uint8Array(await thumb.arrayBuffer())).toEqual(new Uint8Array([82, 73, 70, 70]));
    expect((await handler({ url: 'app://bundle/conflict-preview/3/theirs', method: 'GET' })).status).toBe(404);
    expect((await handler({ url: 'app://bundle/conflict-preview/3/..%2F..%2Fsecret.txt', method: 'GET' })).status).toBe(404);
    expect((await handler({ url: 'app://other/conflict-preview/3/mine', method: 'GET' })).status).toBe(404);
    expect(asked).toEqual([{ conflictId: 3, side: 'mine' }, { conflictId: 3, side: 'theirs' }]);
  });

  it('refuses anything but GET and HEAD', async () => {
    expect((await get(APP_PAGE_URL, 'POST')).status).toBe(405);
  });

  it('lets the window stay on its own page under app:// and refuses other app:// pages', () => {
    expect(navigationDecision(`${APP_PAGE_URL}#/conflicts`, APP_PAGE_URL)).toBe('stay');
    expect(navigationDecision('app://bundle/assets/app.js', APP_PAGE_URL)).toBe('refuse');
    expect(navigationDecision('file:///etc/passwd', APP_PAGE_URL)).toBe('refuse');
    expect(navigationDecision('https://example.com/', APP_PAGE_URL)).toBe('open-externally');
  });
});
