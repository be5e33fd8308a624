/**
 * Applies the window's security policy (window-options.ts) to Electron's objects: the CSP header on
 * every answer the session loads, every permission request denied, navigation away from our page and
 * new windows blocked, with web links handed to the system browser instead.
 * See https://www.electronjs.org/docs/latest/tutorial/security.
 */
import type { Session, WebContents } from 'electron';
import { WINDOW_CONTENT_SECURITY_POLICY, navigationDecision } from './window-options.js';

type SessionLike = Pick<Session, 'setPermissionRequestHandler' | 'setPermissionCheckHandler'> & {
  webRequest: Pick<Session['webRequest'], 'onHeadersReceived'>;
};
type WebContentsLike = Pick<WebContents, 'on' | 'setWindowOpenHandler'>;

/** `policy` answers the window's CSP as it is now (it follows the account's service, main.ts). */
export function secureSession(session: SessionLike, policy: () => string = () => WINDOW_CONTENT_SECURITY_POLICY): void {
  session.setPermissionRequestHandler((_contents, _permission, callback) => {
    callback(false);
  });
  session.setPermissionCheckHandler(() => false);
  session.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [policy()] } });
  });
}

export function secureWebContents(contents: WebContentsLike, pageUrl: string, openExternal: (url: string) => void): void {
  const guard = (event: { preventDefault(): void }, url: string): void => {
    const decision = navigationDecision(url, pageUrl);
    if (decision === 'stay') return;
    event.preventDefault();
    if (decision === 'open-externally') openExternal(url);
  };
  contents.on('will-navigate', (event) => {
    guard(event, event.url);
  });
  contents.on('will-redirect', (event) => {
    guard(event, event.url);
  });
  contents.on('will-attach-webview', (event) => {
    event.preventDefault();
  });
  contents.setWindowOpenHandler(({ url }) => {
    if (navigationDecision(url, pageUrl) === 'open-externally') openExternal(url);
    return { action: 'deny' };
  });
}
