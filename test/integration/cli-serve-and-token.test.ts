import { describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { main } from '../../src/cli.js';
import type { CommandIo } from '../../src/platform/cli/command-io.js';
import { startTestService } from '../support/test-service.js';
import { openDatabase } from '../../src/service/db/open-database.js';
import { accountsRepo } from '../../src/service/accounts/accounts-repo.js';
import { verifyPassword } from '../../src/service/accounts/passwords.js';
import { until } from '../support/until.js';
import { tempDir } from '../support/temp-dir.js';

/** A CommandIo that records output and is interrupted when the test says so. */
interface FakeIo extends CommandIo {
  outLines: string[];
  errLines: string[];
  interrupt(): void;
  /** Resolves with the first output line matching `pattern`. */
  waitFor(pattern: RegExp): Promise<RegExpMatchArray>;
}

function fakeIo(env: Record<string, string | undefined> = {}): FakeIo {
  let interrupt: () => void = () => undefined;
  const interrupted = new Promise<void>((resolve) => (interrupt = resolve));
  const outLines: string[] = [];
  const errLines: string[] = [];
  return {
    outLines,
    errLines,
    env,
    out: (line) => void outLines.push(line),
    err: (line) => void errLines.push(line),
    untilInterrupted: () => interrupted,
    interrupt: () => interrupt(),
    waitFor(pattern) {
      const matched = (): RegExpExecArray | undefined => {
        for (const line of outLines) {
          const match = pattern.exec(line);
          if (match !== null) return match;
        }
        if (errLines.length > 0) throw new Error(`command failed: ${errLines.join('\n')}`);
        return undefined;
      };
      return until(`an output line matching ${String(pattern)}`, matched, { timeoutMs: 20_000, context: () => outLines.join('\n') });
    },
  };
}

async function run(argv: string[], env: Record<string, string | undefined> = {}): Promise<{ code: number; out: string[]; err: string }> {
  const io = fakeIo(env);
  const code = await main(argv, io);
  return { code, out: io.outLines, err: io.errLines.join('\n') };
}

const LISTENING = /^listening on (http:\/\/127\.0\.0\.1:(\d+))$/;
const JWT = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

/** Runs `serve` until `work` is done, then interrupts it; returns the exit code and output. */
async function serving(argv: string[], env: Record<string, string | undefined>, work: (url: string, io: FakeIo) => Promise<void>): Promise<{ code: number; io: FakeIo }> {
  const io = fakeIo(env);
  const exit = main(['serve', ...argv], io);
  let failure: Error | undefined;
  try {
    const [, url = ''] = await io.waitFor(LISTENING);
    await work(url, io);
  } catch (error) {
    failure = error instanceof Error ? error : new Error(String(error));
  }
  // Stop the service whatever happened, and only then report.
  io.interrupt();
  const code = await exit;
  if (failure !== undefined) throw failure;
  return { code, io };
}

async function adminPasswordMatches(dataDir: string, password: string): Promise<boolean> {
  const db = openDatabase(join(dataDir, 'service.db'));
  try {
    const admin = accountsRepo(db).userByEmail('admin@localhost');
    return admin !== undefined && (await verifyPassword(password, admin.password_hash));
  } finally {
    db.close();
  }
}

describe('asset-sync serve and token', () => {
  it('serves on a free port, prints a generated admin password on the first start only, and mints working tokens', async () => {
    const dataDir = tempDir('asset-sync-cli-');
    let password = '';
    const first = await serving(['--data', dataDir, '--port', '0'], {}, async (url, io) => {
      expect(io.outLines).toHaveLength(3);
      const [, generated = ''] = /^created admin admin@localhost with password (\S+) \(shown once; store it now\)$/.exec(io.outLines[0] ?? '') ?? [];
      expect(generated).toMatch(/^\S{20}$/);
      password = generated;
      expect(io.outLines[1]).toBe(`stores: SQLite database ${join(dataDir, 'service.db')}; blobs in directory ${join(dataDir, 'blobs')}`);
      expect(io.outLines[2]).toMatch(LISTENING);
      expect(Number(LISTENING.exec(io.outLines[2] ?? '')?.[2])).toBeGreaterThan(0);
      expect(await (await fetch(`${url}/health`)).json()).toMatchObject({ status: 'ok' });

      const token = await run(['token', '--data', dataDir]);
      expect(token).toMatchObject({ code: 0, err: '' });
      expect(token.out).toHaveLength(1);
      expect(token.out[0]).toMatch(JWT);
      const me = await fetch(`${url}/current-user`, { headers: { authorization: `Bearer ${token.out[0] ?? ''}` } });
      expect(me.status).toBe(200);
      expect(((await me.json()) as any).result.email).toBe('admin@localhost');
    });
    expect(first.code).toBe(0);
    expect(first.io.errLines).toEqual([]);
    expect(await adminPasswordMatches(dataDir, password)).toBe(true);

    let stoppedUrl = '';
    const second = await serving(['--data', dataDir, '--port', '0'], { ASSET_SYNC_ADMIN_PASSWORD: 'ignored on a later start' }, async (url, io) => {
      stoppedUrl = url;
      expect(io.outLines).toEqual([expect.stringMatching(/^stores: SQLite database /), `listening on ${url}`]);
    });
    expect(second.code).toBe(0);
    expect(await adminPasswordMatches(dataDir, password)).toBe(true);
    // Interrupting stops the service.
    await expect(fetch(`${stoppedUrl}/health`)).rejects.toThrow();
  });

  it('takes the admin password from ASSET_SYNC_ADMIN_PASSWORD or --admin-password, never an empty one', async () => {
    const fromEnv = tempDir('asset-sync-cli-');
    const started = await serving(['--data', fromEnv, '--port', '0'], { ASSET_SYNC_ADMIN_PASSWORD: 'from the environment' }, async (url, io) => {
      expect(io.outLines).toEqual([expect.stringMatching(/^stores: SQLite database /), `listening on ${url}`]);
    });
    expect(started.code).toBe(0);
    expect(await adminPasswordMatches(fromEnv, 'from the environment')).toBe(true);

    const fromFlag = tempDir('asset-sync-cli-');
    await serving(['--data', fromFlag, '--port', '0', '--admin-password', 'from the flag'], { ASSET_SYNC_ADMIN_PASSWORD: 'from the environment' }, async () => undefined);
    expect(await adminPasswordMatches(fromFlag, 'from the flag')).toBe(true);

    // An empty variable (`ASSET_SYNC_ADMIN_PASSWORD= asset-sync serve …`) is no password: one is generated.
    const empty = tempDir('asset-sync-cli-');
    const generated = await serving(['--data', empty, '--port', '0'], { ASSET_SYNC_ADMIN_PASSWORD: '' }, async (_url, io) => {
      expect(io.outLines[0]).toMatch(/^created admin admin@localhost with password \S{20} /);
    });
    expect(generated.code).toBe(0);
    expect(await adminPasswordMatches(empty, '')).toBe(false);

    const emptyFlag = await run(['serve', '--data', tempDir('asset-sync-cli-'), '--port', '0', '--admin-password', '']);
    expect(emptyFlag.code).toBe(2);
    expect(emptyFlag.err).toContain('--admin-password');
  });

  it('refuses to mint a token for an unknown user or a missing data directory', async () => {
    const service = await startTestService({}, {}, tempDir('asset-sync-cli-'));
    try {
      const nobody = await run(['token', '--data', service.dataDir, '--email', 'nobody@x']);
      expect(nobody.code).toBe(1);
      expect(nobody.out).toEqual([]);
      expect(nobody.err).toContain('nobody@x');
      expect(nobody.err).toMatch(/^asset-sync: No user nobody@x/);

      const missing = join(tempDir('asset-sync-cli-'), 'not-there');
      const noData = await run(['token', '--data', missing]);
      expect(noData.code).toBe(1);
      expect(noData.out).toEqual([]);
      expect(noData.err).toContain(`No service data in ${missing}`);
      expect(existsSync(missing)).toBe(false);

      const ttl = await run(['token', '--data', service.dataDir, '--ttl', '0']);
      expect(ttl.code).toBe(2);
      expect(ttl.err).toContain('--ttl');
    } finally {
      await service.dispose();
    }
  });

  it.each([
    [['serve', '--data', 'DIR', '--port', 'abc'], '--port'],
    [['serve', '--data', 'DIR', '--port', '70000'], '--port'],
    [['serve', '--data', 'DIR', '--port', '-1'], '--port'],
    [['serve', '--data', 'DIR', '--port'], '--port'],
    [['serve', '--data', 'DIR', '--bogus'], '--bogus'],
    [['serve', '--port', '0'], '--data'],
    [['serve', '--data', 'DIR', '--public-url', 'ftp://example.com'], '--public-url'],
    [['serve', '--data', 'DIR', '--render-processes', '0'], '--render-processes'],
    [['serve', '--data', 'DIR', '--render-cpu-seconds', '1.5'], '--render-cpu-seconds'],
    [['serve', '--data', 'DIR', '--render-memory-mb', '64'], '--render-memory-mb'],
    [['token', '--data', 'DIR', '--bogus', 'x'], '--bogus'],
    [['token'], '--data'],
  ])('exits 2 for %j, naming %s', async (argv, flag) => {
    const dataDir = join(tempDir('asset-sync-cli-'), 'data');
    const result = await run(argv.map((arg) => (arg === 'DIR' ? dataDir : arg)));
    expect(result.code).toBe(2);
    expect(result.out).toEqual([]);
    expect(result.err).toContain(flag);
    expect(result.err).toContain('[USAGE]');
    // Nothing was started or created.
    expect(existsSync(dataDir)).toBe(false);
  });

  it('exits 1 with the reason when the port is taken', async () => {
    const service = await startTestService({}, {}, tempDir('asset-sync-cli-'));
    try {
      const port = new URL(service.url).port;
      const result = await run(['serve', '--data', tempDir('asset-sync-cli-'), '--port', port]);
      expect(result.code).toBe(1);
      expect(result.err).toContain(`Port ${port} on 127.0.0.1 is in use (another Asset Sync service, or another program). Start on another port with \`asset-sync serve --port ${Number(port) + 1}\`, or stop the program using it. [PORT_IN_USE]`);
    } finally {
      await service.dispose();
    }
  });
});

