/** Where a client command keeps its state: `--state DIR`, else `$XDG_STATE_HOME/asset-sync` (`~/.local/state/asset-sync`). */
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

export function stateDirOf(flag: string | undefined, env: Record<string, string | undefined>): string {
  if (flag !== undefined && flag.trim() !== '') return resolve(flag);
  const base = env.XDG_STATE_HOME !== undefined && env.XDG_STATE_HOME !== '' ? env.XDG_STATE_HOME : join(homedir(), '.local', 'state');
  return join(base, 'asset-sync');
}
