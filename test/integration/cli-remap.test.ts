/**
 * `asset-sync sync --folder DIR --remote /New` on a folder that syncs elsewhere is a remap: refused with
 * REMAP_CHOICE_NEEDED (exit 2) and the flag to give until `--remap move|leave` says what happens to what
 * is in the old place; then it goes through the engine's one remap rule, and no local file is moved or
 * trashed either way. `--folder DIR` without `--remote` keeps the folder's place.
 */
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, signedInCliForBlock } from '../support/cli-runner.js';
import { remoteApi } from '../support/remote-tree.js';
import { tempDir } from '../support/temp-dir.js';

describe('asset-sync sync --remote on a synced folder', () => {
  const block = signedInCliForBlock();

  it('asks for --remap, then moves along or leaves as told, and never trashes a local file', async () => {
    const home = tempDir('asset-sync-remap-');
    const stateDir = join(home, 'state');
    const folder = join(home, 'Repro');
    const env = { ...block.env, XDG_DATA_HOME: join(home, 'data') };
    const sync = (...more: string[]) => cli(['sync', '--server', block.service.url, '--state', stateDir, '--once', '--stable-ms', '0', '--folder', folder, ...more], env);
    const paths = async (): Promise<string[]> => [...(await remoteApi({ url: block.service.url, token: block.env.ASSET_SYNC_TOKEN ?? '' }).tree()).keys()].sort();
    const place = async (): Promise<string> => (await cli(['folders', '--state', stateDir])).out;
    mkdirSync(folder);
    writeFileSync(join(folder, 'a.txt'), 'a');
    expect((await sync('--remote', '/CliA')).code).toBe(0);
    expect(await paths()).toEqual(['CliA/a.txt']);

    const asked = await sync('--remote', '/CliB');
    expect(asked.code).toBe(2);
    expect(asked.err).toContain('move it along to /CliB, or leave it in /CliA');
    expect(asked.err).toContain('Run it again with --remap move or --remap leave. [REMAP_CHOICE_NEEDED]');
    expect(await place()).toContain('/CliA');

    const wrong = await sync('--remote', '/CliB', '--remap', 'copy');
    expect([wrong.code, wrong.err]).toEqual([2, expect.stringContaining('--remap takes "move" or "leave", got "copy". [USAGE]')]);

    writeFileSync(join(folder, 'b.txt'), 'b');
    const left = await sync('--remote', '/CliB', '--remap', 'leave');
    expect(left.code, left.err).toBe(0);
    expect(await paths()).toEqual(['CliA/a.txt', 'CliB/a.txt', 'CliB/b.txt']);

    // Without --remote the folder keeps its place: nothing to choose.
    const again = await sync();
    expect(again.code, again.err).toBe(0);
    expect(await place()).toContain('/CliB');

    const moved = await sync('--remote', '/CliC', '--remap', 'move');
    expect(moved.code, moved.err).toBe(0);
    expect(await paths()).toEqual(['CliA/a.txt', 'CliC/a.txt', 'CliC/b.txt']);
    expect(readdirSync(folder).sort()).toEqual(['.asset-sync', 'a.txt', 'b.txt']);
    expect(existsSync(join(home, 'data', 'Trash'))).toBe(false);
  });
});
