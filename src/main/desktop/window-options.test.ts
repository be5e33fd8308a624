import { describe, expect, it } from 'vitest';
import { WINDOW_CONTENT_SECURITY_POLICY, accountContentSecurityPolicy, navigationDecision, serviceOriginOf, windowContentSecurityPolicy, windowOptions } from './window-options.js';
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

  it("lets images come from the account's remote service, by its origin only, and nothing else changes", () => {
    const imageSources = (policy: string): string[] => policy.split('; ').find((d) => d.startsWith('img-src '))?.split(' ').slice(1) ?? [];
    const account = { kind: 'signed-in', server: 'https://acme.example.com/api/v4/', email: 'ada@example.com', name: 'Ada', local: false } as const;
    const policy = accountContentSecurityPolicy(account);
    expect(imageSources(policy)).toEqual([...imageSources(WINDOW_CONTENT_SECURITY_POLICY), 'https://acme.example.com']);
    expect(policy.replace(' https://acme.example.com', '')).toBe(WINDOW_CONTENT_SECURITY_POLICY);
    expect(accountContentSecurityPolicy({ kind: 'signing-in', server: 'https://dam.example.org:8443', authorizeUrl: 'https://dam.example.org:8443/oauth' })).toBe(
      windowContentSecurityPolicy('https://dam.example.org:8443'),
    );
    expect(accountContentSecurityPolicy({ kind: 'none' })).toBe(WINDOW_CONTENT_SECURITY_POLICY);
    expect(policy).not.toContain('*.');
  });

  it.each([
    ['https://acme.example.com', 'https://acme.example.com'],
    ['https://acme.example.com/some/path?q=1#x', 'https://acme.example.com'],
    ['http://10.0.0.5:7480', 'http://10.0.0.5:7480'],
    ['HTTPS://ACME.Example.com:443/', 'https://acme.example.com'],
    ['https://*.example.com', undefined],
    ["https://x.com; script-src 'unsafe-inline'", undefined],
    ['https://a"b.example.com', undefined],
    ['ftp://files.example.com', undefined],
    ['javascript:alert(1)', undefined],
    ['acme.example.com', undefined],
    ['', undefined],
  ])('takes the service origin of %s as %s', (server, origin) => {
    expect(serviceOriginOf(server)).toBe(origin);
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
    let policy = WINDOW_CONTENT_SECURITY_POLICY;
    secureSession(session as never, () => policy);
    const granted: boolean[] = [];
    for (const permission of ['media', 'geolocation', 'notifications', 'clipboard-read', 'openExternal']) request?.({}, permission, (g) => granted.push(g));
    expect(granted).toEqual([false, false, false, false, false]);
    expect(check?.()).toBe(false);
    let answer: Record<string, string[]> = {};
    headers?.({ responseHeaders: { 'Content-Type': ['text/html'] } }, (a) => (answer = a.responseHeaders));
    expect(answer).toEqual({ 'Content-Type': ['text/html'], 'Content-Security-Policy': [WINDOW_CONTENT_SECURITY_POLICY] });
    // The policy as it is at each answer: another account's service from then on.
    policy = windowContentSecurityPolicy('https://acme.example.com');
    headers?.({ responseHeaders: {} }, (a) => (answer = a.responseHeaders));
    expect(answer).toEqual({ 'Content-Security-Policy': [policy] });
  });
});
