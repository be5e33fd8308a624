/**
 * Where the client keeps its files by default: its sync state and settings, and the built-in local
 * library's data. Shared by the composition roots (`asset-sync start`, the desktop shell) and the
 * client's CLI commands. Must never: create a directory (callers decide when one is made).
 */
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

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
