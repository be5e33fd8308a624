/**
 * The one window: created on first need, shown at a route (`#/conflicts` from a notification), hidden
 * to the tray when the user closes it (the app keeps syncing), really closed only on quit. Takes a
 * window factory, so it is tested with a stand-in of BrowserWindow.
 */
import type { WindowRoute } from './tray-menu.js';

/** What this module uses of Electron's BrowserWindow. */
export interface WindowLike {
  readonly webContents: { readonly id: number; executeJavaScript(code: string): Promise<unknown>; reload(): void };
  loadURL(url: string): Promise<void>;
  show(): void;
  hide(): void;
  focus(): void;
  restore(): void;
  isMinimized(): boolean;
  isDestroyed(): boolean;
  on(event: 'close', listener: (event: { preventDefault(): void }) => void): unknown;
  on(event: 'closed', listener: () => void): unknown;
  once(event: 'ready-to-show', listener: () => void): unknown;
}

export class AppWindow {
  private window: WindowLike | undefined;
  private quitting = false;

  constructor(
    private readonly create: () => WindowLike,
    /** The page's URL without a route (app://bundle/index.html, see app-protocol.ts). */
    private readonly pageUrl: string,
  ) {}

  /** The window's web contents id, for the IPC sender check; undefined while there is no window. */
  webContentsId(): number | undefined {
    return this.window === undefined || this.window.isDestroyed() ? undefined : this.window.webContents.id;
  }

  /** Shows the window at `route` (creating it when needed) and brings it to the front. */
  open(route: WindowRoute = '#/'): void {
    const existing = this.window;
    if (existing !== undefined && !existing.isDestroyed()) {
      if (existing.isMinimized()) existing.restore();
      existing.show();
      existing.focus();
      // Our own page, so the route is a plain hash change; no reload, nothing lost on screen.
      void existing.webContents.executeJavaScript(`location.hash = ${JSON.stringify(route)}`).catch(() => undefined);
      return;
    }
    const window = this.create();
    this.window = window;
    window.on('close', (event) => {
      if (this.quitting) return;
      event.preventDefault();
      window.hide();
    });
    window.on('closed', () => {
      if (this.window === window) this.window = undefined;
    });
    window.once('ready-to-show', () => {
      window.show();
      window.focus();
    });
    void window.loadURL(`${this.pageUrl}${route}`).catch(() => undefined);
  }

  /**
   * Loads the page again where it is (its route kept), when there is a window: the page's content policy
   * is fixed when it loads, so a changed one (another account's service) applies only from then on.
   */
  reload(): void {
    const window = this.window;
    if (window !== undefined && !window.isDestroyed()) window.webContents.reload();
  }

  /** From now on closing the window closes it (the app is quitting). */
  allowClose(): void {
    this.quitting = true;
  }
}
