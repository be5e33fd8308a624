/**
 * `asset-sync start` (`npm start`): the desktop app. It first asks the desktop launcher
 * (desktop-launcher.ts) whether the Electron window can open on this machine; where it
 * cannot (no Electron binary, no display) it runs the same app headless: the controller and the
 * loopback control server with the browser UI, and — with no account configured — the embedded local
 * service as the built-in local library, syncing `~/Asset Sync`. Ctrl+C stops everything cleanly.
 */
import { resolve } from 'node:path';
import { CliError } from '../../platform/cli/cli-error.js';
import { parseFlags, portFlag } from '../../platform/cli/parse-flags.js';
import { defaultDataDir, stateDirOf } from '../headless/client-dirs.js';
import { openInBrowser } from '../headless/open-browser.js';
import { startHeadlessApp } from '../headless/headless-app.js';
import { PortInUseError } from '../headless/port-in-use.js';
import { DEFAULT_UI_PORT } from '../headless/ui-server.js';
import type { CommandIo } from '../../platform/cli/command-io.js';

export const startHelp = `Usage: asset-sync start [--state DIR] [--data DIR] [--folder DIR] [--port N] [--ui-port N] [--no-open]

Runs Asset Sync: the desktop app where it can start, else the same app headless with its UI in your
browser. With no account yet it uses the built-in local library and syncs ~/Asset Sync.
  --state DIR    sync state and settings (default $XDG_STATE_HOME/asset-sync)
  --data DIR     the built-in local library's data (default $XDG_DATA_HOME/asset-sync/service)
  --folder DIR   the folder a new local library syncs (default ~/Asset Sync)
  --port N       the local library's port on 127.0.0.1 (default 7480; 0 picks a free one)
  --ui-port N    the browser UI's port on 127.0.0.1, kept for later starts (default: the one it
                 had last time, first ${DEFAULT_UI_PORT}; when that is taken, a free one this time)
  --no-open      print a link to the UI instead of opening a browser (each link opens it once;
                 \`asset-sync open\` makes another)
  --headless     do not try the desktop window`;

/**
 * How long the local library and the engine wait to load for the window to open and take its first
 * state (headless-app.ts): a browser already running opens the link well within it; a link nobody
 * opens costs the sync this much at start.
 */
export const WINDOW_WAIT_MS = 1000;

/** What the desktop launcher answers; it is loaded lazily, and a build without it runs headless. */
export type DesktopProbe = { available: true; launch(args: string[]): Promise<number> } | { available: false; reason: string };

interface DesktopLauncherModule {
  probeDesktop(options: { env: Record<string, string | undefined> }): Promise<DesktopProbe>;
}

/** Asks desktop-launcher.ts, when this build has one; a missing or failing launcher means headless. */
export async function probeDesktop(env: Record<string, string | undefined>): Promise<DesktopProbe> {
  const specifier = './desktop-launcher.js';
  let module: Partial<DesktopLauncherModule>;
  try {
    module = (await import(specifier)) as Partial<DesktopLauncherModule>;
  } catch {
    return { available: false, reason: 'this build has no desktop shell yet' };
  }
  if (typeof module.probeDesktop !== 'function') return { available: false, reason: 'this build has no desktop shell yet' };
  try {
    return await module.probeDesktop({ env });
  } catch (error) {
    return { available: false, reason: `the desktop shell could not be checked (${error instanceof Error ? error.message : String(error)})` };
  }
}

/** A busy port in a person's terms: which one, and the flag that starts on another. */
export function portInUseCliError(error: PortInUseError): CliError {
  const flag = error.role === 'library' ? '--port' : '--ui-port';
  const next = error.port < 65535 ? error.port + 1 : error.port - 1;
  return new CliError('PORT_IN_USE', `${error.message} Start on another port with \`asset-sync start ${flag} ${next}\` (\`npm start -- ${flag} ${next}\`), or stop the program using it.`);
}

export async function startCommand(args: string[], io: CommandIo): Promise<number> {
  const { values } = parseFlags('start', args, {
    state: { type: 'string' },
    data: { type: 'string' },
    folder: { type: 'string' },
    port: { type: 'string' },
    'ui-port': { type: 'string' },
    'no-open': { type: 'boolean' },
    headless: { type: 'boolean' },
  });
  if (values.help === true) {
    io.out(startHelp);
    return 0;
  }
  // Checked before either path starts, so the desktop window gets no port the headless app would refuse.
  const servicePort = portFlag('port', values.port, 7480);
  const uiPort = values['ui-port'] === undefined ? undefined : portFlag('ui-port', values['ui-port'], 0);
  const desktop = values.headless === true ? ({ available: false, reason: '--headless was given' } as const) : await probeDesktop(io.env);
  if (desktop.available) return desktop.launch(args);

  const stateDir = stateDirOf(values.state, io.env);
  if (values.folder?.trim() === '') throw new CliError('USAGE', '--folder needs a directory.');
  // The window's link goes out as soon as the window can open; the app keeps starting behind it.
  let interrupted: Promise<void> | undefined;
  const announce = async (window: { url: string; origin: string }): Promise<void> => {
    interrupted = io.untilInterrupted();
    io.err(`No desktop window: ${desktop.reason}; the same app runs in your browser instead.`);
    // The link opens the window once: printed only when this run does not open it itself.
    const opened = values['no-open'] !== true && (await openInBrowser(window.url));
    if (opened) {
      io.out(`Asset Sync is running. Its window is at ${window.origin}`);
      io.err('Opened it in your browser; `asset-sync open` opens it in another. Press Ctrl+C to stop.');
    } else {
      io.out(`Asset Sync is running. Its window opens from ${window.url}`);
      io.err('Open that link in a browser on this machine (it works once; `asset-sync open` makes another). Press Ctrl+C to stop.');
    }
  };
  let announced: Promise<void> = Promise.resolve();
  const app = await startHeadlessApp({
    stateDir,
    dataDir: resolve(values.data ?? defaultDataDir(io.env)),
    servicePort,
    ...(uiPort === undefined ? {} : { uiPort }),
    ...(values.folder === undefined ? {} : { folder: resolve(values.folder) }),
    env: io.env,
    windowWaitMs: WINDOW_WAIT_MS,
    notice: (line) => io.err(line),
    onWindow: (window) => {
      announced = announce(window);
    },
  }).catch((error: unknown) => {
    throw error instanceof PortInUseError ? portInUseCliError(error) : error;
  });
  try {
    await announced;
    await (interrupted ?? io.untilInterrupted());
    io.err('Stopping: finishing what is being written…');
  } finally {
    await app.close();
  }
  return 0;
}
