/**
 * A stand-in for the `electron` module where the binary cannot run (vi.mock('electron', …)): the parts
 * of `app`, BrowserWindow and friends the shell uses, recording what was asked of them. Only what the
 * tests need; anything else is absent, so a new use of Electron shows up as a failing test.
 */
import { EventEmitter } from 'node:events';

export class StandInApp extends EventEmitter {
  isPackaged = false;
  gotLock = true;
  quits = 0;
  exits: (number | undefined)[] = [];
  ready = false;
  requestSingleInstanceLock(): boolean {
    return this.gotLock;
  }
  quit(): void {
    this.quits += 1;
    // Like Electron: quitting asks before-quit listeners first, any of which may hold it.
    const held = { prevented: false };
    this.emit('before-quit', { preventDefault: () => (held.prevented = true) });
    if (!held.prevented) this.exits.push(0);
  }
  exit(code?: number): void {
    this.exits.push(code);
  }
  whenReady(): Promise<void> {
    this.ready = true;
    return new Promise(() => undefined);
  }
}

export class StandInWindow extends EventEmitter {
  static nextId = 1;
  readonly webContents = {
    id: StandInWindow.nextId++,
    scripts: [] as string[],
    reloads: 0,
    executeJavaScript: (code: string) => (this.webContents.scripts.push(code), Promise.resolve()),
    reload: () => {
      this.webContents.reloads += 1;
    },
  };
  visible = false;
  minimized = false;
  destroyed = false;
  loaded: string[] = [];
  focused = 0;
  loadURL(url: string): Promise<void> {
    this.loaded.push(url);
    return Promise.resolve();
  }
  show(): void {
    this.visible = true;
  }
  hide(): void {
    this.visible = false;
  }
  focus(): void {
    this.focused += 1;
  }
  restore(): void {
    this.minimized = false;
  }
  isMinimized(): boolean {
    return this.minimized;
  }
  isDestroyed(): boolean {
    return this.destroyed;
  }
  /** What Electron does when the user clicks the close button. */
  userCloses(): void {
    const held = { prevented: false };
    this.emit('close', { preventDefault: () => (held.prevented = true) });
    if (!held.prevented) {
      this.destroyed = true;
      this.emit('closed');
    }
  }
}

/** The module object for vi.mock('electron'): only `app` is live; the rest must not be reached. */
export function electronStandIn(app: StandInApp): Record<string, unknown> {
  const unreachable = (name: string) =>
    new Proxy(
      {},
      {
        get() {
          throw new Error(`The stand-in electron module has no ${name}: this path needs the real Electron.`);
        },
      },
    );
  return {
    app,
    BrowserWindow: StandInWindow,
    Menu: unreachable('Menu'),
    Notification: unreachable('Notification'),
    Tray: unreachable('Tray'),
    ipcMain: unreachable('ipcMain'),
    nativeImage: unreachable('nativeImage'),
    nativeTheme: unreachable('nativeTheme'),
    protocol: unreachable('protocol'),
    safeStorage: unreachable('safeStorage'),
    session: unreachable('session'),
    shell: unreachable('shell'),
  };
}
