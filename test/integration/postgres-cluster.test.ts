/** The test cluster support itself: a real server on loopback that answers, and leaves nothing behind. */
import { existsSync } from 'node:fs';
import { expect, it } from 'vitest';
import pg from 'pg';
import { describeWithPostgres, findPostgres, startPostgres } from '../support/postgres-cluster.js';
import { tempDir } from '../support/temp-dir.js';

it('says in one line where PostgreSQL was looked for when it is not installed', () => {
  expect(findPostgres({ path: tempDir(), root: tempDir() })).toEqual({
    missing: 'PostgreSQL is not installed (initdb not found on PATH or under /usr/lib/postgresql/*/bin; `apt-get install postgresql`)',
  });
});

describeWithPostgres('a throwaway PostgreSQL cluster', () => {
  it('starts on 127.0.0.1, makes a database that answers, and is gone after stop', async () => {
    const cluster = await startPostgres();
    let stopped = false;
    try {
      const url = await cluster.database('asset_sync_probe');
      expect(url).toMatch(/^postgres:\/\/asset_sync@127\.0\.0\.1:\d+\/asset_sync_probe$/);
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        const answer = await client.query<{ db: string; addr: string; collation: string }>("SELECT current_database() AS db, inet_server_addr()::text AS addr, datcollate AS collation FROM pg_database WHERE datname = current_database()");
        // Byte order, as SQLite's BINARY: the same text sorts the same on both stores.
        expect(answer.rows[0]).toEqual({ db: 'asset_sync_probe', addr: '127.0.0.1/32', collation: 'C' });
      } finally {
        await client.end();
      }
      const dataDir = (await readDataDirectory(cluster.url)) ?? '';
      expect(existsSync(dataDir)).toBe(true);
      await cluster.stop();
      stopped = true;
      expect(existsSync(dataDir)).toBe(false);
      await expect(new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 }).connect()).rejects.toThrow();
    } finally {
      if (!stopped) await cluster.stop();
    }
  });
});

async function readDataDirectory(url: string): Promise<string | undefined> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<{ setting: string }>("SELECT setting FROM pg_settings WHERE name = 'data_directory'")).rows[0]?.setting;
  } finally {
    await client.end();
  }
}
