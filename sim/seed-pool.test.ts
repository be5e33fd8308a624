/**
 * `npm run sim -- --jobs N`: seeds run in worker processes replay exactly as in one process (the same
 * trace), every seed is reported once, and a worker that dies does not make its seeds disappear.
 */
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { closeSimService, runSeed } from './run-seed.js';
import { runPool, type SeedReport } from './seed-pool.js';
import { tempDir } from '../test/support/temp-dir.js';

const PLANTED = ['--plant', 'journal-after-job', '--network', '0', '--disk', '0', '--crash', '4', '--commit', '0'];

describe('seeds in worker processes', { timeout: 300_000 }, () => {
  afterAll(closeSimService);

  it('reports each seed once, a failing one with the trace it has in one process, and exits 1', async () => {
    const cli = promisify(execFile)(process.execPath, ['--import', 'tsx', 'sim/cli.ts', '--seeds', '4', '--from', '34', ...PLANTED, '--no-shrink', '--jobs', '2']);
    const outcome = await cli.then(
      () => ({ code: 0, stdout: '' }),
      (error: unknown) => ({ code: error instanceof Error && 'code' in error ? error.code : undefined, stdout: error instanceof Error && 'stdout' in error ? String(error.stdout) : '' }),
    );
    const alone = await runSeed(35, { plant: 'journal-after-job', rates: { network: 0, disk: 0, crash: 0.04, commit: 0 } });
    expect(alone.failures).not.toEqual([]);
    expect(outcome.code).toBe(1);
    expect(outcome.stdout.match(/FAILED/g)).toHaveLength(1);
    expect(outcome.stdout).toContain(`seed 35 FAILED (trace ${alone.traceHash.slice(0, 12)})`);
    expect(outcome.stdout).toContain('4 seeds, 1 failed');
    expect(outcome.stdout).toContain('failed: 35\n');
  });

  it('counts the seeds of a worker that died as failed, and those no worker was left to run', async () => {
    const dir = tempDir('seed-pool-');
    // A worker that asks for seeds, then dies on the first chunk it is handed.
    const script = join(dir, 'dying-worker.mjs');
    writeFileSync(script, "process.send({ kind: 'ready' }); process.on('message', () => process.exit(3));\n");
    const reports: SeedReport[] = [];
    await runPool({ script, args: [], seeds: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10], jobs: 1, onReport: (report) => reports.push(report) });
    expect(reports.map((report) => report.seed).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(reports.every((report) => report.failed)).toBe(true);
    expect(reports.filter((report) => report.lines.join('').includes('exit code 3')).map((report) => report.seed)).toEqual([1, 2, 3]);
  });
});
