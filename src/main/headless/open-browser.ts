/**
 * Opens a URL in the system browser (xdg-open, open, or start). Resolves false when no browser could be
 * started, so `login` can print the URL for the user instead of claiming it opened one: the opener is
 * missing, there is no display (Linux without DISPLAY or WAYLAND_DISPLAY), or the opener exits with a
 * failure (xdg-open exits 3 or 4 when it finds no browser). An opener still running after `waitMs` is
 * taken to have handed the URL over.
 */
import { spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

export interface OpenBrowserOptions {
  platform?: NodeJS.Platform;
  env?: Readonly<Record<string, string | undefined>>;
  /** How long to wait for the opener's exit status, ms (default 3 s). */
  waitMs?: number;
  /** The opener command, for tests (default by platform). */
  command?: readonly [string, readonly string[]];
}

function openerFor(platform: NodeJS.Platform, url: string): readonly [string, readonly string[]] {
  if (platform === 'darwin') return ['open', [url]];
  if (platform === 'win32') return ['cmd', ['/c', 'start', '""', url]];
  return ['xdg-open', [url]];
}

const set = (value: string | undefined): boolean => value !== undefined && value !== '';

const executable = (path: string): boolean => {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

/**
 * Whether an opener can run here at all: macOS's `open` and Windows' `start` always can; elsewhere
 * only with a display (DISPLAY or WAYLAND_DISPLAY) and `xdg-open` on the PATH. Asked once at start,
 * so the window never offers to open what nothing here can open.
 */
export function canOpenHere(options: Pick<OpenBrowserOptions, 'platform' | 'env'> & { isExecutable?: (path: string) => boolean } = {}): boolean {
  const platform = options.platform ?? process.platform;
  const env = options.env ?? process.env;
  if (platform === 'darwin' || platform === 'win32') return true;
  if (!set(env.DISPLAY) && !set(env.WAYLAND_DISPLAY)) return false;
  const isExecutable = options.isExecutable ?? executable;
  return (env.PATH ?? '').split(delimiter).some((dir) => dir !== '' && isExecutable(join(dir, 'xdg-open')));
}

export function openInBrowser(url: string, options: OpenBrowserOptions = {}): Promise<boolean> {
  const platform = options.platform ?? process.platform;
  const env = options.env ?? process.env;
  if (platform !== 'darwin' && platform !== 'win32' && !set(env.DISPLAY) && !set(env.WAYLAND_DISPLAY)) return Promise.resolve(false);
  const [command, args] = options.command ?? openerFor(platform, url);
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: 'ignore', detached: true });
    const timer = setTimeout(() => {
      child.unref();
      resolve(true);
    }, options.waitMs ?? 3_000);
    timer.unref();
    child.once('error', () => {
      clearTimeout(timer);
      resolve(false);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve(code === 0);
    });
  });
}
