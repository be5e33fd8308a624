/**
 * The app without Electron (`npm start` where no desktop window can open): the app controller,
 * the loopback control server serving the browser UI, and — when no account is configured — the
 * embedded local service as the "built-in local library", signed in as its admin with a token minted
 * from the service's own key (no browser round trip). One of the three composition roots allowed to
 * import src/service/. The browser UI keeps its address across starts (ui-server.ts). The window is
 * served as soon as the controller exists, before the service and the engine have loaded and started:
 * it shows the account's folders with their last known state, as still being checked, and the engine's
 * state once it has one (`onWindow` hears when it can open). With `windowWaitMs`, the service and the
 * engine start loading only once a window has been sent its first state (or none came in that time:
 * window-first.ts), so the window's page and state are answered by an idle process. `close()` stops
 * the control server first (an open tab then says the app is not running), then the controller
 * (waiting for journal writes) and the service, and removes app.json.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { RunningService } from '../../service/create-service.js';
import { loadOnce } from '../../shared/load-once.js';
import { readTokens } from '../auth/index.js';
import { systemClock } from '../local/index.js';
import { createAppController } from '../app/app-controller.js';
import type { AppController, AppControllerDeps, LocalLibrary, LocalLibrarySession } from '../app/app-types.js';
import { removeAppFile, writeAppFile } from '../control/app-file.js';
import type { RemoteFeedOptions } from '../remote/remote-feed.js';
import { AppError } from '../app/app-error.js';
import { canOpenHere, openInBrowser } from './open-browser.js';
import { defaultFolder, defaultStaticDir } from './client-dirs.js';
import { asPortInUse, PortInUseError, probePort } from './port-in-use.js';
import { TerminalNews } from './terminal-news.js';
import { startUiServer } from './ui-server.js';
import { windowFirst } from './window-first.js';

export interface HeadlessAppOptions {
  /** The engine's state directory (state.db, tokens, app.json). */
  stateDir: string;
  /** Where the settings file lives (default: the state directory). */
  configDir?: string;
  /** The embedded service's data directory. */
  dataDir: string;
  /** The embedded service's port (default 7480; 0 = any free one). */
  servicePort?: number;
  /** The browser UI's port as the user named it: used or refused (0 = any free one). Default: the state dir's home port (ui-server.ts). */
  uiPort?: number;
  /** The UI's port on a state dir's first start (default 7470; 0 = any free one; tests). */
  firstUiPort?: number;
  /** The folder a new user of the local library syncs (default ~/Asset Sync). */
  folder?: string;
  /** Where quick downloads land unless the settings say otherwise (default ~/Downloads). */
  downloadsDir?: string;
  /** With no account configured, start with the local library at once (default true). */
  autoLocalLibrary?: boolean;
  /** The built UI (default: dist/renderer of this package). */
  staticDir?: string;
  env?: Record<string, string | undefined>;
  /**
   * How long, after the window's link went out, the service and the engine wait to load for a window to
   * open and be sent its first state (window-first.ts). Default 0: they load as soon as the window is served.
   */
  windowWaitMs?: number;
  /** Engine tuning and edges, for tests. */
  stableMs?: number;
  remote?: RemoteFeedOptions;
  publishMs?: number;
  deps?: Omit<AppControllerDeps, 'localLibrary'>;
  /** Told once, e.g. the embedded service's generated admin password. */
  notice?: (line: string) => void;
  /**
   * Told once, as soon as the window can open: before the account's session (and the local library) has
   * started, which the returned promise waits for. A start that fails after it still rejects.
   */
  onWindow?: (window: { url: string; origin: string }) => void;
  version?: string;
}

export interface HeadlessApp {
  /** A window link made at start (`http://127.0.0.1:PORT/?secret=…`): it opens the UI once. Never log it. */
  url: string;
  /** A new one-time window link. */
  newLink(): string;
  /** The address without a secret. */
  origin: string;
  controller: AppController;
  /** The embedded service, once the local library is in use (tests stop and restart it). */
  service(): RunningService | undefined;
  /** Stops the embedded service, the app keeps running (it goes offline). */
  stopService(): Promise<void>;
  /** Starts the embedded service again, on the same data dir and port. */
  restartService(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The service's modules: loaded on the library's first start, so the window never waits for them. Their
 * loading holds the thread for a while: the requests that came in meanwhile (the window's) are answered
 * before the service starts (setImmediate runs after the event loop has taken in what waits).
 */
const loadService = loadOnce(async () => {
  const [{ startService }, { serviceConfig }, { LOCAL_SUBDOMAIN }] = await Promise.all([
    import('../../service/create-service.js'),
    import('../../service/config.js'),
    import('../../service/bootstrap.js'),
  ]);
  await new Promise<void>((resolve) => setImmediate(resolve));
  return { startService, serviceConfig, LOCAL_SUBDOMAIN };
});

/** Where the local library listens unless told otherwise (ServiceConfig's host). */
const LIBRARY_HOST = '127.0.0.1';

/** The embedded service as the controller's LocalLibrary: started on first use, tokens minted from its key. */
export function embeddedLibrary(options: {
  dataDir: string;
  port: number;
  notice?: (line: string) => void;
  env?: Record<string, string | undefined>;
  /** The service loads once this settles (the window first); its port is checked before. */
  loadAfter?: Promise<unknown>;
}): LocalLibrary & {
  running(): RunningService | undefined;
  /** The port it could not listen on at its last start, if that is why it is not running. */
  portInUse(): PortInUseError | undefined;
  /** Settles once a start has found out whether its port is free (before the service has loaded). */
  portChecked(): Promise<void>;
} {
  let service: RunningService | undefined;
  let starting: Promise<LocalLibrarySession> | undefined;
  let portInUse: PortInUseError | undefined;
  // Once started, the same port again: the engine knows the service by its URL.
  let port = options.port;
  let checked: () => void = () => undefined;
  const portChecked = new Promise<void>((resolve) => (checked = resolve));
  const open = async (): Promise<LocalLibrarySession> => {
    mkdirSync(options.dataDir, { recursive: true, mode: 0o700 });
    // A port another program holds is told before the service's modules load, not after.
    try {
      await probePort('library', LIBRARY_HOST, port);
    } catch (error) {
      portInUse = error instanceof PortInUseError ? error : undefined;
      throw error;
    } finally {
      checked();
    }
    await options.loadAfter;
    const { startService, serviceConfig, LOCAL_SUBDOMAIN } = await loadService();
    const adminPassword = options.env?.ASSET_SYNC_ADMIN_PASSWORD;
    const config = serviceConfig({ dataDir: options.dataDir, host: LIBRARY_HOST, port, ...(adminPassword === undefined || adminPassword === '' ? {} : { adminPassword }) });
    let running: RunningService;
    try {
      running = await startService(config);
    } catch (error) {
      const failure = asPortInUse(error, 'library', { host: config.host, port });
      portInUse = failure instanceof PortInUseError ? failure : undefined;
      throw failure;
    }
    portInUse = undefined;
    service = running;
    port = Number(new URL(running.url).port);
    if (running.bootstrap.generatedAdminPassword !== undefined) {
      options.notice?.(`The local library's admin is ${running.ctx.config.adminEmail}, password ${running.bootstrap.generatedAdminPassword} (shown once).`);
    }
    const admin = running.ctx.accounts.userByEmail(running.ctx.config.adminEmail);
    if (admin === undefined) throw new AppError('NO_LOCAL_LIBRARY', `The local library in ${options.dataDir} has no admin user ${running.ctx.config.adminEmail}.`);
    let current: { token: string; expiresAt: number } | undefined;
    const mint = async (): Promise<string> => {
      const live = service;
      if (live === undefined) throw new AppError('NO_LOCAL_LIBRARY', 'The local library is not running.');
      const token = await live.ctx.tokens.issue({ sub: admin.id, scope: `subdomain:${LOCAL_SUBDOMAIN}` }, 3600);
      current = { token, expiresAt: Date.now() + 3_000_000 };
      return token;
    };
    return {
      server: running.url,
      user: { id: admin.id, email: admin.email, name: admin.name ?? admin.email },
      tokens: {
        accessToken: async () => (current !== undefined && current.expiresAt > Date.now() ? current.token : mint()),
        refreshed: async (previous) => (current !== undefined && current.token !== previous ? current.token : mint()),
      },
    };
  };
  return {
    running: () => service,
    portInUse: () => portInUse,
    portChecked: () => portChecked,
    start() {
      starting ??= open().catch((error: unknown) => {
        starting = undefined;
        throw error;
      });
      return starting;
    },
    async stop() {
      const live = service;
      service = undefined;
      starting = undefined;
      await live?.close();
    },
  };
}

export async function startHeadlessApp(options: HeadlessAppOptions): Promise<HeadlessApp> {
  const env = options.env ?? process.env;
  mkdirSync(options.stateDir, { recursive: true, mode: 0o700 });
  const configDir = options.configDir ?? options.stateDir;
  // The window is served before the service loads: loading it would hold up every step of the window's.
  const windowWait = windowFirst({ clock: systemClock, waitMs: options.windowWaitMs ?? 0 });
  const library = embeddedLibrary({ dataDir: options.dataDir, port: options.servicePort ?? 7480, env, loadAfter: windowWait.done, ...(options.notice === undefined ? {} : { notice: options.notice }) });
  const controller = createAppController(
    {
      stateDir: options.stateDir,
      configDir,
      host: { kind: 'headless', secureStorage: false, version: options.version ?? '0.1.0' },
      defaultFolder: options.folder ?? defaultFolder(),
      env,
      ...(options.stableMs === undefined ? {} : { stableMs: options.stableMs }),
      ...(options.remote === undefined ? {} : { remote: options.remote }),
      ...(options.publishMs === undefined ? {} : { publishMs: options.publishMs }),
      ...(options.downloadsDir === undefined ? {} : { downloadsDir: options.downloadsDir }),
    },
    {
      // Headless, the desktop is whatever xdg-open, open or start reach; where none can run there is
      // no opener at all, and the window shows paths to copy instead of buttons that would fail.
      ...(canOpenHere({ env })
        ? {
            openPath: async (path: string, { reveal }: { reveal: boolean }) => {
              // Without a desktop shell there is no "select this file": showing a file opens its folder.
              const target = reveal ? dirname(path) : path;
              if (!(await openInBrowser(target))) throw new AppError('OPEN_FAILED', `Could not open ${target} here; open it in your file manager.`);
            },
          }
        : {}),
      openExternal: (url) => openInBrowser(url),
      ...options.deps,
      localLibrary: library,
    },
  );
  let server;
  // The account's session opens meanwhile: the local library's service and the engine load and start.
  const starting = (async () => {
    await controller.start();
    const state = await controller.getState();
    const signedInBefore = await readTokens(options.stateDir).catch(() => undefined);
    if (state.account.kind === 'none' && signedInBefore === undefined && options.autoLocalLibrary !== false) {
      await controller.useLocalLibrary();
    }
  })();
  try {
    // A local library that cannot listen is a reason not to start (the app would run without its
    // service): when this start uses it, the window waits until its port is known to be free.
    await Promise.race([starting, library.portChecked()]);
    const libraryPortBefore = library.portInUse();
    if (libraryPortBefore !== undefined) throw libraryPortBefore;
    // With no account to restore (a first start), the window would offer the first-run choice the start
    // is making itself: it waits for the local library to be in use (the service loads at once then).
    // The account alone: a whole state (the state database read) would hold up the window's link.
    if (controller.account.kind === 'none') {
      windowWait.release();
      await starting;
    }
    const ui = await startUiServer({
      stateDir: options.stateDir,
      target: controller,
      staticDir: options.staticDir ?? defaultStaticDir(),
      onWindowOpened: () => windowWait.opened(),
      onStateSent: () => windowWait.stateSent(),
      ...(options.uiPort === undefined ? {} : { port: options.uiPort }),
      ...(options.firstUiPort === undefined ? {} : { firstPort: options.firstUiPort }),
    });
    server = ui.server;
    if (ui.homeTaken !== undefined) {
      options.notice?.(`The window's usual port ${ui.homeTaken} is in use (another Asset Sync, or another program), so this time it is at ${ui.server.origin}: tabs open at the usual address will not find it. Start with --ui-port N to choose the port.`);
    }
    await writeAppFile(options.stateDir, { origin: server.origin, cliKey: server.cliKey, pid: process.pid, startedAt: new Date().toISOString() });
    options.onWindow?.({ url: server.url, origin: server.origin });
    windowWait.linked();
    await starting;
    const libraryPort = library.portInUse();
    if (libraryPort !== undefined) throw libraryPort;
  } catch (error) {
    // Whatever failed, the start under way has settled before anything it uses is closed.
    windowWait.release();
    await starting.catch(() => undefined);
    if (server !== undefined) await removeAppFile(options.stateDir, server.cliKey).catch(() => undefined);
    await server?.close();
    await controller.close();
    await library.stop();
    throw error;
  }
  const control = server;
  // The terminal hears what the window shows first: offline and back, conflicts, held deletions.
  const news = new TerminalNews();
  const notice = options.notice;
  const unsubscribe = notice === undefined ? () => undefined : controller.subscribe((event) => {
    for (const line of news.lines(event)) notice(line);
  });
  let closing: Promise<void> | undefined;
  return {
    url: control.url,
    newLink: () => control.newLink(),
    origin: control.origin,
    controller,
    service: () => library.running(),
    stopService: () => library.stop(),
    restartService: async () => {
      await library.stop();
      await library.start();
    },
    close() {
      closing ??= (async () => {
        unsubscribe();
        await removeAppFile(options.stateDir, control.cliKey).catch(() => undefined);
        await control.close();
        await controller.close();
      })();
      return closing;
    },
  };
}
