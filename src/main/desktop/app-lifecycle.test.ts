import { describe, expect, it, vi } from 'vitest';
import { StandInApp, StandInWindow } from '../../../test/support/electron-stand-in.js';
import { claimSingleInstance, quitAfterClose } from './app-lifecycle.js';
import { AppWindow } from './app-window.js';

const PAGE = 'app://bundle/index.html';

describe('one instance', () => {
  it('the first launch keeps the lock, and a second launch focuses its window', () => {
    const app = new StandInApp();
    const window = new AppWindow(() => new StandInWindow(), PAGE);
    expect(claimSingleInstance(app, () => window.open())).toBe(true);
    app.emit('second-instance');
    expect(window.webContentsId()).toBeDefined();
    expect(app.quits).toBe(0);
  });

  it('a second launch without the lock quits at once and opens nothing', () => {
    const app = new StandInApp();
    app.gotLock = false;
    const focus = vi.fn();
    expect(claimSingleInstance(app, focus)).toBe(false);
    expect(app.quits).toBe(1);
    app.emit('second-instance');
    expect(focus).not.toHaveBeenCalled();
  });
});

/** An AppWindow whose native windows are stand-ins, kept in `made` in the order it made them. */
function windowMakingStandIns(): { made: StandInWindow[]; window: AppWindow } {
  const made: StandInWindow[] = [];
  const window = new AppWindow(() => {
    const standIn = new StandInWindow();
    made.push(standIn);
    return standIn;
  }, PAGE);
  return { made, window };
}

describe('the window', () => {
  it('is created once, at its route, shown when ready, and hidden (not closed) when the user closes it', () => {
    const { made, window } = windowMakingStandIns();
    expect(window.webContentsId()).toBeUndefined();
    window.open('#/conflicts');
    const [first] = made;
    expect(first?.loaded).toEqual([`${PAGE}#/conflicts`]);
    expect(first?.visible).toBe(false);
    first?.emit('ready-to-show');
    expect(first?.visible).toBe(true);
    first?.userCloses();
    expect(first?.destroyed).toBe(false);
    expect(first?.visible).toBe(false);
    window.open('#/not-synced');
    expect(made).toHaveLength(1);
    expect(first?.visible).toBe(true);
    expect(first?.webContents.scripts).toEqual(['location.hash = "#/not-synced"']);
    expect(window.webContentsId()).toBe(first?.webContents.id);
  });

  it('closes for real once the app quits, and a later open makes a new one', () => {
    const { made, window } = windowMakingStandIns();
    window.open();
    window.allowClose();
    made[0]?.userCloses();
    expect(made[0]?.destroyed).toBe(true);
    expect(window.webContentsId()).toBeUndefined();
    window.open();
    expect(made).toHaveLength(2);
  });

  it('reloads its page when there is one (a new content policy), and makes none when there is not', () => {
    const { made, window } = windowMakingStandIns();
    window.reload();
    expect(made).toHaveLength(0);
    window.open('#/quick-download');
    window.reload();
    expect(made[0]?.webContents.reloads).toBe(1);
    expect(made[0]?.loaded).toEqual([`${PAGE}#/quick-download`]);
  });
});

describe('quit', () => {
  it('waits for the controller to close before the process exits, once', async () => {
    const app = new StandInApp();
    let finish: () => void = () => undefined;
    const close = vi.fn(() => new Promise<void>((resolve) => (finish = resolve)));
    const beforeClose = vi.fn();
    quitAfterClose(app, { beforeClose, close });
    app.quit();
    app.quit();
    expect(close).toHaveBeenCalledTimes(1);
    expect(beforeClose).toHaveBeenCalledTimes(1);
    await Promise.resolve();
    expect(app.exits).toEqual([]);
    finish();
    await vi.waitFor(() => expect(app.exits).toEqual([0]));
  });

  it('exits even when closing fails or hangs past the limit', async () => {
    const failing = new StandInApp();
    const errors: unknown[] = [];
    quitAfterClose(failing, { beforeClose: () => undefined, close: () => Promise.reject(new Error('disk gone')), onError: (e) => errors.push(e) });
    failing.quit();
    await vi.waitFor(() => expect(failing.exits).toEqual([0]));
    expect(errors).toHaveLength(1);
    const hanging = new StandInApp();
    quitAfterClose(hanging, { beforeClose: () => undefined, close: () => new Promise(() => undefined), limitMs: 10 });
    hanging.quit();
    await vi.waitFor(() => expect(hanging.exits).toEqual([0]));
  });
});
