/**
 * A watching engine does not plan again while nothing can have changed (root-sync.ts, `rested`): no
 * scan, no write to its state database, no retry come due. It must still wake for what another process
 * writes to that database: here a `confirm-deletes` from the CLI, on its own connection, lets deletions
 * the guard held go through without the watching engine being told anything else.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issuesRepo } from '../../src/main/db/issues-repo.js';
import { openStateDb } from '../../src/main/db/open-state-db.js';
import type { PassReport } from '../../src/main/sync/root-sync.js';
import { startSyncHarness } from '../support/sync-harness.js';
import { startTestService, type TestService } from '../support/test-service.js';
import { client } from '../support/two-way.js';
import { until } from '../support/until.js';

describe('a resting watch', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService();
  });
  afterAll(async () => {
    await service.dispose();
  });

  it('wakes for a confirmation another process wrote to the state database', async () => {
    const me = client(await startSyncHarness(service, { remotePath: '/Resting', remote: { pollIntervalMs: 100, overlapMs: 500 } }));
    const controller = new AbortController();
    let watching: Promise<void> | undefined;
    try {
      for (let index = 0; index < 8; index++) me.write(`f${index}.txt`, `file ${index}`);
      expect((await me.once()).converged).toBe(true);
      for (let index = 0; index < 6; index++) rmSync(join(me.h.folder, `f${index}.txt`));
      const held = await me.once();
      expect(held.reports.at(-1)?.heldDeletes).toBe(6);

      const reports: PassReport[] = [];
      watching = me.h.engine.watch(controller.signal, (report) => reports.push(report));
      await until('three resting passes', () => reports.filter((report) => report.rested === true).length >= 3, { timeoutMs: 10_000, intervalMs: 50 });
      expect(await me.h.assets()).toHaveLength(8);
      // At rest, the held deletions are still reported as held.
      expect(reports.filter((report) => report.rested === true).every((report) => report.heldDeletes === 6)).toBe(true);

      // `asset-sync confirm-deletes` is another process with its own connection to the database.
      const other = openStateDb(join(me.h.stateDir, 'state.db'));
      try {
        expect(issuesRepo(other).confirmDeletes(me.h.engine.roots()[0]?.id ?? '')).toBe(6);
      } finally {
        other.close();
      }
      await until('both assets on the service', async () => (await me.h.assets()).length === 2, { timeoutMs: 10_000, intervalMs: 50 });
      expect((await me.h.assets()).map((asset) => asset.path)).toEqual(['/Resting/f6.txt', '/Resting/f7.txt']);
    } finally {
      controller.abort();
      await watching;
      await me.h.dispose();
    }
  });
});
