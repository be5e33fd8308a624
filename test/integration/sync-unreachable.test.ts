/**
 * One calm line per condition: a watching `sync` whose service goes away says so once ("Can't reach
 * the service at URL — retrying (next try in N s)"), not an ECONNREFUSED per file and per poll, says
 * once that it is back, and then syncs what waited. `--once` against a service that is not there sums
 * the files it could not send up in one line.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli.js';
import { recordingIo, type RecordingIo } from '../support/fake-io.js';
import { startTestService, type TestService } from '../support/test-service.js';
import { cli } from '../support/cli-runner.js';
import { closedPort } from '../support/closed-port.js';
import { until, type UntilOptions } from '../support/until.js';
import { tempDir } from '../support/temp-dir.js';

/** Waits on what the CLI printed; on a timeout, says what it printed to stderr. */
const printed = (io: RecordingIo): UntilOptions => ({ context: () => `\n${io.errLines.join('\n')}`, timeoutMs: 90_000, intervalMs: 50 });

describe('sync while the service is unreachable', () => {
  const services: TestService[] = [];
  afterAll(async () => {
    for (const service of services) await service.dispose().catch(() => undefined);
  });

  it('says it once per change of state, not per file, and syncs what waited once the service is back', async () => {
    const first = await startTestService();
    services.push(first);
    const port = Number(new URL(first.url).port);
    const folder = tempDir('asset-sync-unreachable-root-');
    const stateDir = tempDir('asset-sync-unreachable-state-');
    writeFileSync(join(folder, 'before.txt'), 'before');
    const io = recordingIo({ ASSET_SYNC_TOKEN: await first.token(undefined, 3600) });
    const exit = main(['sync', '--server', first.url, '--folder', folder, '--state', stateDir, '--stable-ms', '0'], io);
    const lines = (pattern: RegExp): string[] => io.errLines.filter((line) => pattern.test(line));
    try {
      await until('the first upload', () => lines(/1 new/).length > 0, printed(io));
      await first.stop();
      for (let file = 0; file < 8; file++) writeFileSync(join(folder, `during-${file}.txt`), `written while the service is away ${file}`);
      await until('the unreachable line', () => lines(/^Can't reach the service/).length > 0, printed(io));
      // Long enough for the engine to poll and try the eight files more than once.
      await sleep(8_000);
      const second = await first.restart({ port });
      services.push(second);
      await until('the eight files', () => second.running.ctx.db.prepare<[], { n: number }>("SELECT count(*) AS n FROM asset_files WHERE filename LIKE 'during-%'").get()?.n === 8, printed(io));
    } finally {
      io.interrupt();
    }
    expect(await exit).toBe(0);
    expect(lines(/^Can't reach the service/)).toEqual([`Can't reach the service at ${first.url} — retrying (next try in 2 s)`]);
    expect(lines(/reachable again/)).toEqual([`The service at ${first.url} is reachable again.`]);
    expect(io.errLines.filter((line) => /ECONNREFUSED|NETWORK|could not read/.test(line))).toEqual([]);
  }, 180_000);

  it('sums up, with --once, the files the service was not there for', async () => {
    const folder = tempDir('asset-sync-unreachable-once-');
    const stateDir = tempDir('asset-sync-unreachable-once-state-');
    for (let file = 0; file < 3; file++) writeFileSync(join(folder, `f${file}.txt`), `${file}`);
    const server = `http://127.0.0.1:${await closedPort()}`;
    const run = await cli(['sync', '--server', server, '--folder', folder, '--state', stateDir, '--once', '--stable-ms', '0'], { ASSET_SYNC_TOKEN: 'any' });
    expect(run.code).toBe(1);
    expect(run.err.split('\n').filter((line) => line.startsWith("Can't reach the service"))).toHaveLength(1);
    expect(run.err).not.toMatch(/ECONNREFUSED/);
    expect(run.err).toContain(`${folder}: 3 files not synced: the service at ${server} could not be reached; they go on the next sync. [NETWORK]`);
  }, 60_000);
});
