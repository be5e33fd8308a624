/**
 * Where the client keeps its files by default: its sync state and settings, the built-in local
 * library's data, the built UI and the folder a new user of the local library syncs. Shared by the
 * composition roots (`asset-sync start`, the desktop shell) and the client's CLI commands. Plain path
 * arithmetic: it creates no directory (callers decide when one is made) and reads only whether
 * package.json is there.
 */
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where a client command keeps its state: `--state DIR`, else `$XDG_STATE_HOME/asset-sync` (`~/.local/state/asset-sync`). */
export function stateDirOf(flag: string | undefined, env: Record<string, string | undefined>): string {
  if (flag !== undefined && flag.trim() !== '') return resolve(flag);
  const base = env.XDG_STATE_HOME !== undefined && env.XDG_STATE_HOME !== '' ? env.XDG_STATE_HOME : join(homedir(), '.local', 'state');
  return join(base, 'asset-sync');
}

/** The built-in local library's data: `$XDG_DATA_HOME/asset-sync/service` (`~/.local/share/asset-sync/service`). */
export function defaultDataDir(env: Record<string, string | undefined>): string {
  const base = env.XDG_DATA_HOME !== undefined && env.XDG_DATA_HOME !== '' ? env.XDG_DATA_HOME : join(homedir(), '.local', 'share');
  return join(base, 'asset-sync', 'service');
}

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
