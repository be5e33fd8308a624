/**
 * The app's life: one instance per user (a second launch focuses the window instead and exits), and a
 * quit that waits for the controller to close (in-flight journal writes finish) before the process
 * ends. Takes the parts of Electron's `app` it uses, so both are tested with a stand-in.
 */

/** What this module uses of Electron's `app`. */
export interface AppLike {
  requestSingleInstanceLock(): boolean;
  quit(): void;
  exit(code?: number): void;
  on(event: 'second-instance', listener: () => void): unknown;
  on(event: 'before-quit', listener: (event: { preventDefault(): void }) => void): unknown;
}

/** True when this process is the one instance; otherwise it has asked the app to quit. */
export function claimSingleInstance(app: AppLike, focus: () => void): boolean {
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return false;
  }
  app.on('second-instance', focus);
  return true;
}

/**
 * Holds the quit until `close()` settled (at most `limitMs`, so a stuck close cannot keep a dead app
 * alive), then exits. `beforeClose` runs first (the window may close, the tray goes).
 */
export function quitAfterClose(app: AppLike, options: { beforeClose(): void; close(): Promise<void>; limitMs?: number; onError?(error: unknown): void }): void {
  let state: 'running' | 'closing' | 'closed' = 'running';
  app.on('before-quit', (event) => {
    if (state === 'closed') return;
    event.preventDefault();
    if (state === 'closing') return;
    state = 'closing';
    options.beforeClose();
    let timer: NodeJS.Timeout | undefined;
    const limit = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, options.limitMs ?? 30_000);
    });
    void Promise.race([options.close(), limit])
      .catch((error: unknown) => options.onError?.(error))
      .finally(() => {
        clearTimeout(timer);
        state = 'closed';
        app.exit(0);
      });
  });
}
