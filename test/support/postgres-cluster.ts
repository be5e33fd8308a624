/**
 * A throwaway PostgreSQL cluster for tests: `initdb` in a temp directory, the server on a free
 * 127.0.0.1 port (and a socket in that directory, nowhere else), trust authentication for loopback
 * only, and everything removed by `stop`. The binaries are Debian's (`apt-get install postgresql`,
 * which .ci/run does): found on PATH or under /usr/lib/postgresql/<version>/bin, the newest first.
 *
 * PostgreSQL refuses to run as root: as root, the cluster belongs to the `postgres` user the Debian
 * package creates, and its commands run through `runuser`.
 *
 * Durability is off (fsync, full-page writes): a test cluster never outlives a crash of its machine,
 * and the tests that kill processes kill the service's, not the database's.
 */
import { execFile, spawn } from 'node:child_process';
import { chownSync, existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { describe } from 'vitest';
import { closedPort } from './closed-port.js';
import { tempDir } from './temp-dir.js';

const run = promisify(execFile);

export interface PostgresCluster {
  /** `postgres://asset_sync@127.0.0.1:PORT/postgres`, the superuser's; `database(name)` makes another. */
  readonly url: string;
  readonly port: number;
  /** Creates an empty database and answers its URL. */
  database(name: string): Promise<string>;
  /** Stops the server (fast shutdown) and removes the cluster's directory. */
  stop(): Promise<void>;
}

/** Where `initdb` and `pg_ctl` are, or undefined with why not. */
export function findPostgres(where: { path?: string; root?: string } = {}): { bin: string } | { missing: string } {
  const { path = process.env.PATH ?? '', root = '/usr/lib/postgresql' } = where;
  const onPath = path.split(':').find((dir) => dir !== '' && existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'pg_ctl')));
  if (onPath !== undefined) return { bin: onPath };
  const versions = existsSync(root) ? readdirSync(root).filter((name) => /^\d+$/.test(name)).sort((a, b) => Number(b) - Number(a)) : [];
  const found = versions.map((version) => join(root, version, 'bin')).find((bin) => existsSync(join(bin, 'initdb')));
  return found === undefined ? { missing: 'PostgreSQL is not installed (initdb not found on PATH or under /usr/lib/postgresql/*/bin; `apt-get install postgresql`)' } : { bin: found };
}

/** Runs a PostgreSQL program as the cluster's owner: `postgres` when we are root, else ourselves. */
function asOwner(program: string, args: string[]): { file: string; args: string[] } {
  if (process.getuid?.() !== 0) return { file: program, args };
  // util-linux's, in sbin: not on every root's PATH.
  const runuser = ['/usr/sbin/runuser', '/sbin/runuser'].find((file) => existsSync(file)) ?? 'runuser';
  return { file: runuser, args: ['-u', 'postgres', '--', program, ...args] };
}

export async function startPostgres(): Promise<PostgresCluster> {
  const found = findPostgres();
  if ('missing' in found) throw new Error(found.missing);
  const dir = tempDir('asset-sync-pg-');
  const data = join(dir, 'data');
  if (process.getuid?.() === 0) {
    const owner = await run('id', ['-u', 'postgres']).catch(() => undefined);
    if (owner === undefined) throw new Error('running as root, and there is no `postgres` user to own the test cluster (Debian\'s postgresql package creates it)');
    const uid = Number(owner.stdout.trim());
    const gid = Number((await run('id', ['-g', 'postgres'])).stdout.trim());
    chownSync(dir, uid, gid);
  }
  const initdb = asOwner(join(found.bin, 'initdb'), ['-D', data, '-U', 'asset_sync', '--auth=trust', '--encoding=UTF8', '--locale=C', '--no-sync']);
  await run(initdb.file, initdb.args);
  // A few tries: the free port may be taken between the look and the start.
  for (let attempt = 1; ; attempt++) {
    const port = await closedPort();
    const options = `-c listen_addresses=127.0.0.1 -c port=${port} -c unix_socket_directories=${dir} -c fsync=off -c full_page_writes=off -c synchronous_commit=off`;
    const start = asOwner(join(found.bin, 'pg_ctl'), ['-D', data, '-o', options, '-l', join(dir, 'server.log'), '-w', '-t', '60', 'start']);
    try {
      await run(start.file, start.args);
    } catch (error) {
      if (attempt < 3) continue;
      throw error;
    }
    const url = `postgres://asset_sync@127.0.0.1:${port}/postgres`;
    return {
      url,
      port,
      async database(name) {
        if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`not a plain database name: ${name}`);
        const client = new pg.Client({ connectionString: url });
        await client.connect();
        try {
          await client.query(`CREATE DATABASE ${name}`);
        } finally {
          await client.end();
        }
        return `postgres://asset_sync@127.0.0.1:${port}/${name}`;
      },
      async stop() {
        const stop = asOwner(join(found.bin, 'pg_ctl'), ['-D', data, '-m', 'fast', '-w', 'stop']);
        await new Promise<void>((resolve) => {
          // Its exit status does not matter: whatever state the server is in, the directory goes.
          spawn(stop.file, stop.args, { stdio: 'ignore' }).on('close', () => resolve());
        });
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
}

/**
 * `describe` for tests that need PostgreSQL. Where it is not installed they are skipped, and the skip
 * says why in its one line; under CI (`CI` set) a missing PostgreSQL fails instead, since .ci/run
 * installs it and a silent skip there would hide the tests.
 */
export function describeWithPostgres(name: string, body: () => void): void {
  const found = findPostgres();
  if (!('missing' in found)) {
    describe(name, body);
    return;
  }
  if (process.env.CI !== undefined && process.env.CI !== '') throw new Error(`${name}: ${found.missing}`);
  describe.skip(`${name} (skipped: ${found.missing})`, body);
}
