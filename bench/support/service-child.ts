/** The asset service in a child process on its own data directory, with a bearer token for it. */
import { join } from 'node:path';
import { mintToken } from '../../src/service/auth/mint-token.js';
import { startChild, type Child } from './processes.js';

export interface ServiceChild {
  child: Child;
  dataDir: string;
  token: string;
}

/** Starts `asset-sync serve` on `parent/<name>` (a new, empty data directory) and mints a token. */
export async function startServiceChild(parent: string, name: string): Promise<ServiceChild> {
  const dataDir = join(parent, name);
  const child = await startChild('bench/support/cli-entry.ts', ['serve', '--data', dataDir, '--port', '0', '--admin-password', 'bench-password']);
  try {
    return { child, dataDir, token: await mintToken({ dataDir, ttlSeconds: 3600 }) };
  } catch (error) {
    await child.stop();
    throw error;
  }
}
