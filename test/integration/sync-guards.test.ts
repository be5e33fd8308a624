/**
 * DESIGN.md §3 "Safety" and §4.6, through the CLI a user runs (`sync --once`, `status`,
 * `confirm-deletes`, in-process) against the real service: the mass-delete guard (50 files or 25 %)
 * holds deletions until confirmed, and a missing root or marker stops the root with nothing binned.
 */
import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, signedInCliForBlock } from '../support/cli-runner.js';
import { tempDir } from '../support/temp-dir.js';

describe('guards, through the CLI', () => {
  const block = signedInCliForBlock();

  /** A synced folder of `count` files named `${prefix}-N.txt`, with its own state dir and remote folder. */
  async function syncedFolder(prefix: string, count: number): Promise<{ folder: string; sync: () => ReturnType<typeof cli>; state: string[] }> {
    const folder = tempDir(`asset-sync-${prefix}-`);
    const stateDir = tempDir(`asset-sync-${prefix}-state-`);
    for (let index = 0; index < count; index++) writeFileSync(join(folder, `${prefix}-${index}.txt`), `${prefix} ${index}`);
    // Each root its own remote folder: the roots of one service must not see each other's files.
    const first = await cli(['sync', '--server', block.service.url, '--folder', folder, '--remote', `/${prefix}`, '--state', stateDir, '--once', '--stable-ms', '50'], block.env);
    expect(first.code, first.err).toBe(0);
    expect(first.out).toContain(`(${count} files)`);
    return { folder, state: ['--state', stateDir], sync: () => cli(['sync', '--server', block.service.url, '--state', stateDir, '--once', '--stable-ms', '50'], block.env) };
  }

  /** Lifecycle state → how many of this prefix's assets are in it. */
  const states = (prefix: string): Record<string, number> => {
    const rows = block.service.running.ctx.db
      .prepare<[string], { state: string; n: number }>(
        `SELECT a.state, count(*) AS n FROM assets a JOIN asset_files f ON f.id = a.current_file_id WHERE f.filename LIKE ? GROUP BY a.state`,
      )
      .all(`${prefix}-%`);
    return Object.fromEntries(rows.map((row) => [row.state, row.n]));
  };
  const remove = (folder: string, prefix: string, indexes: number[]): void => {
    for (const index of indexes) rmSync(join(folder, `${prefix}-${index}.txt`));
  };
  const range = (from: number, to: number): number[] => Array.from({ length: to - from }, (_, index) => from + index);

  it('holds 55 of 60 deletions until confirm-deletes, then bins them', async () => {
    const { folder, sync, state } = await syncedFolder('mass', 60);
    remove(folder, 'mass', range(0, 55));

    const held = await sync();
    expect(held.code).toBe(1);
    expect(held.err).toContain('55 deletions wait for confirmation (deleted on this computer; confirming deletes them in the service too, into its bin;');
    expect(states('mass')).toEqual({ STAGED: 60 });
    const status = await cli(['status', ...state]);
    expect(status.out).toContain('needs attention · 5 synced of 5 local files');
    expect(status.out).toContain('55 deletions wait for `asset-sync confirm-deletes` (deleted on this computer; confirming deletes them in the service too, into its bin):');
    const json = JSON.parse((await cli(['status', ...state, '--json'])).out);
    expect(json.roots[0].heldDeletes).toMatchObject({ count: 55, confirmed: false });

    const confirmed = await cli(['confirm-deletes', ...state]);
    expect(confirmed.out).toContain('55 deletions confirmed');
    const applied = await sync();
    expect(applied.code, applied.err).toBe(0);
    expect(states('mass')).toEqual({ STAGED: 5, BINNED: 55 });
    expect((await cli(['status', ...state])).out).toContain('up to date · 5 synced of 5 local files');
  });

  it('lets 5 of 20 deletions through (under the floor) but holds 6 of the remaining 15 (over 25 %)', async () => {
    const { folder, sync, state } = await syncedFolder('frac', 20);
    remove(folder, 'frac', range(0, 5));
    const small = await sync();
    expect(small.code, small.err).toBe(0);
    expect(states('frac')).toEqual({ STAGED: 15, BINNED: 5 });

    remove(folder, 'frac', range(5, 11));
    const held = await sync();
    expect(held.code).toBe(1);
    expect(held.err).toContain('6 deletions wait for confirmation');
    expect(states('frac')).toEqual({ STAGED: 15, BINNED: 5 });
    expect(JSON.parse((await cli(['status', ...state, '--json'])).out).roots[0].heldDeletes.count).toBe(6);
  });

  it('stops a root whose folder is gone (MISSING_ROOT) and bins nothing, then carries on when it is back', async () => {
    const { folder, sync, state } = await syncedFolder('gone', 8);
    renameSync(folder, `${folder}-elsewhere`);
    let stopped;
    try {
      stopped = await sync();
      expect(stopped.code).toBe(1);
      expect(stopped.err).toContain('stopped (MISSING_ROOT');
      expect(stopped.err).toContain('Nothing was deleted.');
      expect(states('gone')).toEqual({ STAGED: 8 });
      expect((await cli(['status', ...state])).out).toContain('stopped: MISSING_ROOT');
    } finally {
      renameSync(`${folder}-elsewhere`, folder);
    }
    const back = await sync();
    expect(back.code, back.err).toBe(0);
    expect(states('gone')).toEqual({ STAGED: 8 });
    expect((await cli(['status', ...state])).out).toContain('up to date · 8 synced of 8 local files');
  });

  it('stops a root whose marker is gone (MISSING_MARKER) and propagates none of its deletions', async () => {
    const { folder, sync, state } = await syncedFolder('marker', 8);
    const marker = join(folder, '.asset-sync', 'root.json');
    renameSync(marker, join(folder, 'root.json.saved'));
    remove(folder, 'marker', [0, 1]);
    const stopped = await sync();
    expect(stopped.code).toBe(1);
    expect(stopped.err).toContain('stopped (MISSING_MARKER');
    expect(states('marker')).toEqual({ STAGED: 8 });
    expect((await cli(['status', ...state])).out).toContain('stopped: MISSING_MARKER');

    // The marker back: the same deletions now go through (2 of 8 is under the guard).
    renameSync(join(folder, 'root.json.saved'), marker);
    const resumed = await sync();
    expect(resumed.code, resumed.err).toBe(0);
    expect(states('marker')).toEqual({ STAGED: 6, BINNED: 2 });
  });
});
