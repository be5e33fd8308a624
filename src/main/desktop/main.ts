/**
 * The Electron main process: the desktop app's composition root. One instance per user;
 * the app controller (src/main/app/) started here with Electron's trash, shell and safeStorage
 * passed in; the bridge served to the one window over IPC; the tray; batched notifications; launch at
 * login from the settings; and a quit that waits for the controller to close.
 *
 * Only wiring lives here: each part is a small tested module beside this file. Started by
 * desktop-launcher.ts as `electron dist/main/desktop/main.js [--state DIR] [--data DIR] [--folder DIR]`.
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { BrowserWindow, Menu, Notification, Tray, app, ipcMain, nativeImage, nativeTheme, protocol, safeStorage, session, shell } from 'electron';
import type { ActivityEntry } from '../../shared/bridge/app-events.js';
import type { AppState, HostInfo } from '../../shared/bridge/app-state.js';
import { copyOutcome } from '../../shared/bridge/copy-result.js';
import { downloadedWords } from '../../shared/bridge/quick-download-words.js';
import { createAppController } from '../app/app-controller.js';
import type { AppControllerDeps } from '../app/app-types.js';
import { embeddedLibrary } from '../headless/headless-app.js';
import { defaultDataDir, defaultFolder, defaultStaticDir, stateDirOf } from '../headless/client-dirs.js';
import { APP_PAGE_URL, APP_SCHEME, APP_SCHEME_PRIVILEGES, createAppProtocolHandler } from './app-protocol.js';
import { AppWindow } from './app-window.js';
import { claimSingleInstance, quitAfterClose } from './app-lifecycle.js';
import { HIDDEN_FLAG, applyLaunchAtLogin, autostartPath, launchCommand } from './login-item.js';
import { serveBridgeOverIpc } from './ipc-main-transport.js';
import { NotificationBatcher } from './notification-batcher.js';
import { createSafeTokenStore } from './safe-token-store.js';
import { isTrustedSender } from './sender-check.js';
import { buildTrayMenu, statusLine, trayIconFile, trayIconState, type TrayAction } from './tray-menu.js';
import { toElectronTemplate } from './tray-menu-adapter.js';
import { trayDrop } from './tray-drop.js';
import { WINDOW_CONTENT_SECURITY_POLICY, accountContentSecurityPolicy, windowOptions } from './window-options.js';
import { secureSession, secureWebContents } from './window-security.js';

const here = fileURLToPath(new URL('.', import.meta.url));
const resourcesDir = app.isPackaged ? process.resourcesPath : resolve(here, '..', '..', '..', 'resources');
// The page comes through our own app:// scheme (app-protocol.ts), never file://.
const pageUrl = APP_PAGE_URL;

const { values: flags } = parseArgs({
  args: process.argv.slice(app.isPackaged ? 1 : 2),
  options: { state: { type: 'string' }, data: { type: 'string' }, folder: { type: 'string' }, port: { type: 'string' } },
  strict: false,
  allowPositionals: true,
});
const flag = (value: string | boolean | undefined): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

const appWindow = new AppWindow(() => {
  // Its web contents are secured in 'web-contents-created' below, like any other.
  return new BrowserWindow(windowOptions({ preloadPath: join(here, 'preload.cjs'), iconPath: join(resourcesDir, 'icon.png'), platform: process.platform }));
}, pageUrl);

if (claimSingleInstance(app, () => appWindow.open())) {
  // Must happen before `ready`: the scheme's privileges are fixed when Chromium starts.
  protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME_PRIVILEGES.scheme, privileges: { ...APP_SCHEME_PRIVILEGES.privileges } }]);
  // Every web contents, not only our window's, from the first one on: none navigates away or opens a window.
  app.on('web-contents-created', (_event, contents) => {
    secureWebContents(contents, pageUrl, (url) => void shell.openExternal(url));
  });
  void app.whenReady().then(start, (error: unknown) => {
    console.error(`Asset Sync could not start: ${error instanceof Error ? error.message : String(error)}`);
    app.exit(1);
  });
}

/** The window's content policy now: it lets images come from the account's service (set on each state). */
let windowPolicy = WINDOW_CONTENT_SECURITY_POLICY;

async function start(): Promise<void> {
  secureSession(session.defaultSession, () => windowPolicy);
  protocol.handle(APP_SCHEME, createAppProtocolHandler(defaultStaticDir(), undefined, () => windowPolicy));
  const env = process.env;
  const stateDir = stateDirOf(flag(flags.state), env);
  const tokens = createSafeTokenStore({ file: join(app.getPath('userData'), 'tokens.bin'), platform: process.platform, safeStorage });
  const host: Omit<HostInfo, 'platform'> = { kind: 'electron', secureStorage: tokens.secureStorage, version: app.getVersion() };
  const library = embeddedLibrary({ dataDir: resolve(flag(flags.data) ?? defaultDataDir(env)), port: Number(flag(flags.port) ?? 7480), env });
  const deps: AppControllerDeps = {
    trash: (path) => shell.trashItem(path),
    openPath: async (path, options) => {
      if (options.reveal) {
        shell.showItemInFolder(path);
        return;
      }
      const failure = await shell.openPath(path);
      if (failure !== '') throw Object.assign(new Error(failure), { code: 'OPEN_FAILED' });
    },
    openExternal: (url) => shell.openExternal(url).then(() => true, () => false),
    localLibrary: library,
    tokenStore: tokens.store,
  };
  const homeFolder = resolve(flag(flags.folder) ?? defaultFolder());
  const controller = createAppController({ stateDir, configDir: stateDir, host, defaultFolder: homeFolder, env, downloadsDir: app.getPath('downloads') }, deps);

  const transport = serveBridgeOverIpc({
    ipcMain,
    bridge: controller,
    isTrusted: (event) => isTrustedSender(event, { webContentsId: () => appWindow.webContentsId(), pageUrl }),
    onRefused: (what) => console.warn(`Asset Sync refused ${what}.`),
  });
  app.on('web-contents-created', (_event, contents) => {
    contents.on('did-start-navigation', (details) => {
      if (details.isMainFrame && !details.isSameDocument) transport.forgetSender(contents.id);
    });
    contents.once('destroyed', () => {
      transport.forgetSender(contents.id);
    });
  });

  let state: AppState | undefined;
  let recent: ActivityEntry[] = [];
  const tray = new Tray(trayImage('syncing'));
  tray.setToolTip('Asset Sync');
  tray.on('click', () => {
    appWindow.open();
  });
  tray.on('drop-files', (_event, files) => {
    const drop = trayDrop(state?.folders ?? [], homeFolder, files);
    if (drop.kind === 'nothing') return;
    if (drop.kind === 'no-folder') {
      notify({ title: 'Could not copy the dropped files', body: drop.message, route: '#/' });
      return;
    }
    const folder = state?.folders.find((view) => view.id === drop.folderId);
    void controller
      .copyIn({ folderId: drop.folderId, relDir: '', items: drop.paths.map((path) => ({ kind: 'path', path })) })
      // The tray shows no target before the drop, so the notification says where the files went and what they are called.
      .then((result) => notify({ title: 'Asset Sync', body: copyOutcome(result, basename(folder?.path ?? homeFolder)), route: '#/activity' }))
      .catch((error: unknown) => {
        notify({ title: 'Could not copy the dropped files', body: error instanceof Error ? error.message : String(error), route: '#/' });
      });
  });
  const run = (action: TrayAction): void => {
    const done = (promise: Promise<unknown>): void => void promise.catch((error: unknown) => notify({ title: 'Asset Sync', body: error instanceof Error ? error.message : String(error), route: '#/' }));
    switch (action.type) {
      case 'pause':
        done(controller.pause({ span: action.span }));
        return;
      case 'resume':
        done(controller.resume({}));
        return;
      case 'sync-now':
        done(controller.syncNow({}));
        return;
      case 'open-folder':
        done(controller.openPath({ folderId: action.folderId }));
        return;
      case 'open-file':
        done(controller.openPath({ folderId: action.folderId, relPath: action.relPath }));
        return;
      case 'reveal-file':
        done(controller.openPath({ folderId: action.folderId, relPath: action.relPath, reveal: true }));
        return;
      case 'open-window':
        appWindow.open(action.route);
        return;
      case 'quick-download':
        // The done notification (with "Show in folder") comes from the quick-download event below.
        done(controller.quickDownload({ assetId: action.assetId, presetId: action.presetId }));
        return;
      case 'quit':
        app.quit();
        return;
    }
  };
  const refreshTray = (): void => {
    if (state === undefined) return;
    tray.setImage(trayImage(trayIconState(state.overall)));
    tray.setToolTip(`Asset Sync — ${statusLine(state)}`);
    tray.setContextMenu(Menu.buildFromTemplate(toElectronTemplate(buildTrayMenu(state, recent), run)));
  };
  nativeTheme.on('updated', refreshTray);

  const notify = (notice: { title: string; body: string; route: Parameters<AppWindow['open']>[0] }): void => {
    if (!Notification.isSupported()) return;
    const notification = new Notification({ title: notice.title, body: notice.body, icon: join(resourcesDir, 'icon.png') });
    notification.on('click', () => {
      appWindow.open(notice.route);
    });
    notification.show();
  };
  const batcher = new NotificationBatcher({
    show: notify,
    enabled: () => state?.settings.notifications ?? true,
    schedule: (fn, ms) => {
      const timer = setTimeout(fn, ms);
      return () => {
        clearTimeout(timer);
      };
    },
  });

  let launchAtLogin: boolean | undefined;
  const loginItem = {
    platform: process.platform,
    command: launchCommand({ execPath: process.execPath, packaged: app.isPackaged, mainScript: join(here, 'main.js'), appImage: env.APPIMAGE }),
    setLoginItemSettings: (settings: Electron.Settings) => {
      app.setLoginItemSettings(settings);
    },
    autostartFile: autostartPath(env, app.getPath('home')),
    writeFile: async (path: string, text: string) => {
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, text);
    },
    removeFile: (path: string) => rm(path, { force: true }),
  };
  const unsubscribe = controller.subscribe((event) => {
    batcher.push(event);
    if (event.type === 'quick-download') {
      const download = event.download;
      if (download.status === 'done' && download.path !== null && (state?.settings.notifications ?? true) && Notification.isSupported()) {
        // A finished quick download is announced, and clicking the notice shows the file in its folder.
        const notification = new Notification({ title: 'Downloaded', body: downloadedWords(download), icon: join(resourcesDir, 'icon.png') });
        notification.on('click', () => {
          void controller.revealDownload({ downloadId: download.id }).catch(() => undefined);
        });
        notification.show();
      }
      return;
    }
    if (event.type === 'activity') {
      recent = [event.entry, ...recent.filter((entry) => entry.id !== event.entry.id)].slice(0, 50);
      if (event.entry.status !== 'running') refreshTray();
      return;
    }
    if (event.type !== 'state') return;
    const previous = state;
    state = event.state;
    const policy = accountContentSecurityPolicy(state.account);
    if (policy !== windowPolicy) {
      // Another service (signed in elsewhere): a page keeps the policy it loaded with, so load it again.
      windowPolicy = policy;
      appWindow.reload();
    }
    if (state.settings.launchAtLogin !== launchAtLogin) {
      launchAtLogin = state.settings.launchAtLogin;
      // Started at login: to the tray only (`--hidden` on Linux and Windows; macOS says wasOpenedAtLogin).
      void applyLaunchAtLogin(launchAtLogin, loginItem).catch((error: unknown) => {
        console.warn(`Asset Sync could not change launch at login: ${error instanceof Error ? error.message : String(error)}`);
      });
    }
    if (previous?.overall !== state.overall || previous.revision !== state.revision) refreshTray();
  });

  quitAfterClose(app, {
    beforeClose: () => {
      batcher.close();
      unsubscribe();
      transport.close();
      appWindow.allowClose();
      tray.destroy();
    },
    close: () => controller.close(),
    onError: (error) => console.error(`Asset Sync did not close cleanly: ${error instanceof Error ? error.message : String(error)}`),
  });
  // Hidden to the tray, not quit, when the window closes.
  app.on('window-all-closed', () => undefined);

  await controller.start();
  if (!tokens.secureStorage && tokens.keeping.kind === 'memory-only') console.warn(`Asset Sync: ${tokens.keeping.reason}`);
  const atLogin = process.argv.includes(HIDDEN_FLAG) || (process.platform === 'darwin' && app.getLoginItemSettings().wasOpenedAtLogin);
  if (!atLogin) appWindow.open();
}

function trayImage(iconState: Parameters<typeof trayIconFile>[0]): Electron.NativeImage {
  const theme = nativeTheme.shouldUseDarkColors ? 'dark' : 'light';
  return nativeImage.createFromPath(join(resourcesDir, 'tray', trayIconFile(iconState, { platform: process.platform, theme })));
}
