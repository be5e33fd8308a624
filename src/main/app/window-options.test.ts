import { describe, expect, it } from 'vitest';
import { WINDOW_CONTENT_SECURITY_POLICY, navigationDecision, windowOptions } from './window-options.js';
import { secureSession, secureWebContents } from './window-security.js';

const PAGE = 'file:///opt/asset-sync/dist/renderer/index.html';

describe('the window', () => {
  it.each(['linux', 'darwin', 'win32'] as const)('keeps the page isolated and sandboxed without Node on %s', (platform) => {
    const options = windowOptions({ preloadPath: '/app/preload.cjs', iconPath: '/app/icon.png', platform });
    expect(options.webPreferences).toMatchObject({
      preload: '/app/preload.cjs',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      navigateOnDragDrop: false,
    });
    expect(options.show).toBe(false);
    expect(options.icon).toBe(platform === 'darwin' ? undefined : '/app/icon.png');
  });

  it('has a CSP with no remote or inline script, no framing and no connections', () => {
    const directives = new Map(WINDOW_CONTENT_SECURITY_POLICY.split('; ').map((d) => [d.split(' ')[0], d.split(' ').slice(1)]));
    expect(directives.get('default-src')).toEqual(["'none'"]);
    expect(directives.get('script-src')).toEqual(["'self'"]);
    expect(directives.get('connect-src')).toEqual(["'none'"]);
    expect(directives.get('frame-ancestors')).toEqual(["'none'"]);
    expect(directives.get('object-src')).toEqual(["'none'"]);
    expect(WINDOW_CONTENT_SECURITY_POLICY).not.toMatch(/unsafe-(inline|eval)|https:/);
  });

  it.each([
    [`${PAGE}#/conflicts`, 'stay'],
    [PAGE, 'stay'],
    ['https://acme.example.com/folders/Brand', 'open-externally'],
    ['http://127.0.0.1:7480/assets/4', 'open-externally'],
    ['mailto:help@example.com', 'open-externally'],
    ['file:///etc/passwd', 'refuse'],
    [`${PAGE}?debug=1`, 'refuse'],
    ['javascript:alert(1)', 'refuse'],
    ['data:text/html,<script>1</script>', 'refuse'],
    ['not a url', 'refuse'],
  ] as const)('decides %s: %s', (url, decision) => {
    expect(navigationDecision(url, PAGE)).toBe(decision);
  });

  it('blocks navigation and new windows, handing web links to the system browser', () => {
    const listeners = new Map<string, (event: { url: string; preventDefault(): void }) => void>();
    let openHandler: ((details: { url: string }) => { action: string }) | undefined;
    const contents = {
      on: (name: string, listener: (event: { url: string; preventDefault(): void }) => void) => listeners.set(name, listener),
      setWindowOpenHandler: (handler: (details: { url: string }) => { action: string }) => (openHandler = handler),
    };
    const opened: string[] = [];
    secureWebContents(contents as never, PAGE, (url) => opened.push(url));
    const navigate = (name: string, url: string): boolean => {
      let prevented = false;
      listeners.get(name)?.({ url, preventDefault: () => (prevented = true) });
      return prevented;
    };
    expect(navigate('will-navigate', 'https://evil.example.com/')).toBe(true);
    expect(navigate('will-navigate', 'file:///tmp/other.html')).toBe(true);
    expect(navigate('will-redirect', 'https://elsewhere.example.com/')).toBe(true);
    expect(navigate('will-navigate', PAGE)).toBe(false);
    expect(navigate('will-attach-webview', PAGE)).toBe(true);
    expect(openHandler?.({ url: 'https://acme.example.com/help' })).toEqual({ action: 'deny' });
    expect(openHandler?.({ url: 'file:///etc/passwd' })).toEqual({ action: 'deny' });
    expect(opened).toEqual(['https://evil.example.com/', 'https://elsewhere.example.com/', 'https://acme.example.com/help']);
  });

  it('denies every permission and puts the CSP on every answer', () => {
    let request: ((contents: unknown, permission: string, callback: (granted: boolean) => void) => void) | undefined;
    let check: (() => boolean) | undefined;
    let headers: ((details: { responseHeaders?: Record<string, string[]> }, callback: (answer: { responseHeaders: Record<string, string[]> }) => void) => void) | undefined;
    const session = {
      setPermissionRequestHandler: (handler: typeof request) => (request = handler),
      setPermissionCheckHandler: (handler: typeof check) => (check = handler),
      webRequest: { onHeadersReceived: (handler: typeof headers) => (headers = handler) },
    };
    secureSession(session as never);
    const granted: boolean[] = [];
    for (const permission of ['media', 'geolocation', 'notifications', 'clipboard-read', 'openExternal']) request?.({}, permission, (g) => granted.push(g));
    expect(granted).toEqual([false, false, false, false, false]);
    expect(check?.()).toBe(false);
    let answer: Record<string, string[]> = {};
    headers?.({ responseHeaders: { 'Content-Type': ['text/html'] } }, (a) => (answer = a.responseHeaders));
    expect(answer).toEqual({ 'Content-Type': ['text/html'], 'Content-Security-Policy': [WINDOW_CONTENT_SECURITY_POLICY] });
  });
});
