/**
 * The asset service as a real child process (`asset-sync serve`, from source like cli-runner.ts runs
 * the CLI) on a data dir that outlives it, so a test can SIGKILL it and start it again on the same
 * data. It listens on a free port of 127.0.0.1 picked before each start; `publicUrl` (a proxy in front
 * of it, say) is what it signs part and download URLs with.
 */
import { mintToken } from '../../src/service/auth/mint-token.js';
import { closedPort } from './closed-port.js';
import { spawnCli, type CliChild } from './cli-runner.js';
import { until } from './until.js';

export interface ServiceProcess {
  /** Where the running service listens (not its public URL). */
  readonly url: string;
  /** SIGKILLs it (no shutdown of any kind) and waits for the exit. */
  kill(): Promise<void>;
  /** Starts it again on the same data dir (a new port); the old one must be gone. */
  restart(): Promise<void>;
  /** An access token for the admin, minted from the data dir. */
  token(): Promise<string>;
}

export async function startServiceProcess(dataDir: string, publicUrl: string): Promise<ServiceProcess> {
  let child: CliChild | undefined;
  let url = '';
  const start = async (): Promise<void> => {
    const port = await closedPort();
    const started = spawnCli(['serve', '--data', dataDir, '--port', String(port), '--public-url', publicUrl, '--admin-password', 'kill-test-password']);
    child = started;
    await until('the service to listen (or exit)', () => started.out.includes('listening on') || started.process.exitCode !== null, { context: () => started.err, timeoutMs: 60_000 });
    if (!started.out.includes('listening on')) throw new Error(`the service did not start: ${started.err}`);
    url = `http://127.0.0.1:${port}`;
  };
  await start();
  return {
    get url() {
      return url;
    },
    kill: async () => {
      await child?.kill();
    },
    restart: start,
    token: () => mintToken({ dataDir, ttlSeconds: 3600 }),
  };
}
