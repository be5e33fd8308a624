/**
 * The window's options and its content policy, as pure data (Electron's security checklist, asserted in
 * window-options.test.ts): context isolation, the sandbox, no Node in the page or its workers or frames,
 * web security on, no webview, no navigation by dropping a file; a strict Content-Security-Policy with
 * no remote scripts or styles (images only from the account's own service); and which URLs the window may show (only our page) or hand to the system
 * browser (http, https, mailto).
 */
import type { BrowserWindowConstructorOptions } from 'electron';
import type { AccountState } from '../../shared/bridge/app-state.js';

export interface WindowOptionsInput {
  /** The bundled preload (dist/main/desktop/preload.cjs). */
  preloadPath: string;
  /** The window icon (Linux, Windows); macOS takes the app bundle's. */
  iconPath?: string;
  platform: NodeJS.Platform;
}

export function windowOptions(input: WindowOptionsInput): BrowserWindowConstructorOptions {
  return {
    title: 'Asset Sync',
    width: 1040,
    height: 720,
    minWidth: 640,
    minHeight: 480,
    // Shown once the page has painted (ready-to-show), so no white flash; hidden to the tray on close.
    show: false,
    autoHideMenuBar: true,
    ...(input.iconPath === undefined || input.platform === 'darwin' ? {} : { icon: input.iconPath }),
    webPreferences: {
      preload: input.preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      safeDialogs: true,
      spellcheck: false,
      devTools: true,
    },
  };
}

/**
 * The window's Content-Security-Policy: everything from our own files, images also from data/blob URLs,
 * the loopback service (conflict previews of the local library) and the account's own service when it
 * is remote (quick download's thumbnails are its signed preview URLs), nothing else; no inline script,
 * no framing, no forms, no connections (the window talks to the app over IPC only).
 */
export function windowContentSecurityPolicy(serviceOrigin?: string): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    `img-src 'self' data: blob: http://127.0.0.1:* http://localhost:*${serviceOrigin === undefined ? '' : ` ${serviceOrigin}`}`,
    "font-src 'self'",
    "connect-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-src 'none'",
    "object-src 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** The policy with no account service in it (before an account is known, or a local one). */
export const WINDOW_CONTENT_SECURITY_POLICY = windowContentSecurityPolicy();

/**
 * The origin of the account's service (`https://acme.example.com`), for img-src: only an http(s) URL,
 * reduced to scheme, host and port, so nothing else of the configured text (a path, a wildcard, a
 * quote or a `;` that would start another directive) can reach the policy. Undefined otherwise.
 */
export function serviceOriginOf(server: string): string | undefined {
  let url: URL;
  try {
    url = new URL(server);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
  // The URL parser percent-encodes what a host may not hold, but a `*` in a host is kept as it is.
  if (!/^[a-z0-9.\-[\]:]+$/i.test(url.host)) return undefined;
  return url.origin;
}

/** The window's policy for the account: its service's origin among the image sources when it has one. */
export function accountContentSecurityPolicy(account: AccountState): string {
  return windowContentSecurityPolicy(account.kind === 'none' ? undefined : serviceOriginOf(account.server));
}

/** What the window does with a URL it is asked to show (a link, a redirect, window.open). */
export type NavigationDecision = 'stay' | 'open-externally' | 'refuse';

function parse(url: string): URL | undefined {
  try {
    return new URL(url);
  } catch {
    return undefined;
  }
}

/**
 * Our own page (another hash route of it) stays; web and mail links go to the system browser; anything
 * else (another file, javascript:, data:, a custom scheme) is refused.
 */
export function navigationDecision(url: string, pageUrl: string): NavigationDecision {
  const target = parse(url);
  const page = parse(pageUrl);
  if (target === undefined || page === undefined) return 'refuse';
  if (target.protocol === page.protocol && target.host === page.host && target.pathname === page.pathname && target.search === page.search) return 'stay';
  if (target.protocol === 'https:' || target.protocol === 'http:' || target.protocol === 'mailto:') return 'open-externally';
  return 'refuse';
}
