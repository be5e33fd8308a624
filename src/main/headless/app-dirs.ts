/**
 * Where the app's files are by default, for both app entry points (headless and Electron) and the
 * `start` command: the built UI, the folder a new user of the local library syncs, and the embedded
 * service's data. Plain path arithmetic: it creates nothing and reads only whether package.json is there.
 */
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** dist/renderer/ of this package, from src/ (tsx) or dist/ (built) alike. */
export function defaultStaticDir(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return join(dir, 'dist', 'renderer');
}

/** The folder a new user of the local library syncs: ~/Asset Sync. */
export function defaultFolder(): string {
  return join(homedir(), 'Asset Sync');
}

/** The embedded service's data: `$XDG_DATA_HOME/asset-sync/service` (`~/.local/share/asset-sync/service`). */
export function defaultDataDir(env: Record<string, string | undefined>): string {
  const base = env.XDG_DATA_HOME !== undefined && env.XDG_DATA_HOME !== '' ? env.XDG_DATA_HOME : join(homedir(), '.local', 'share');
  return join(base, 'asset-sync', 'service');
}
