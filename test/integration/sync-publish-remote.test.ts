/**
 * `sync --publish live` and `sync --remote /Path` through the CLI against the real service: new assets
 * go LIVE instead of STAGED, and a root files everything under its remote folder — the existing option
 * when there is one (never a second "Brand"), created (with its parents) when missing.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/test-service.js';
import { uploadNewAsset } from '../support/upload-helpers.js';
import { cli } from '../support/cli-runner.js';
import { tempDir } from '../support/temp-dir.js';

describe('--publish live and --remote', () => {
  let service: TestService;
  let env: Record<string, string>;
  const dirs: string[] = [];
  const folderWith = (files: Record<string, string>): string => {
    const folder = tempDir('asset-sync-remote-');
    dirs.push(folder);
    for (const [relPath, content] of Object.entries(files)) {
      mkdirSync(join(folder, relPath, '..'), { recursive: true });
      writeFileSync(join(folder, relPath), content);
    }
    return folder;
  };
  const sync = (folder: string, ...flags: string[]): ReturnType<typeof cli> => {
    const stateDir = tempDir('asset-sync-remote-state-');
    dirs.push(stateDir);
    return cli(['sync', '--server', service.url, '--folder', folder, '--state', stateDir, '--once', '--stable-ms', '50', ...flags], env);
  };

  /** `/Folder/Path/name → lifecycle state` of every asset with a file, and the option paths that exist. */
  const remote = (): { assets: Record<string, string>; options: string[] } => {
    const db = service.running.ctx.db;
    const optionPath = new Map<string, string>();
    const options = db.prepare<[], { id: string; parent_id: string | null; value: string }>('SELECT id, parent_id, value FROM field_options ORDER BY position, rowid').all();
    const pathOf = (id: string): string => {
      const known = optionPath.get(id);
      if (known !== undefined) return known;
      const option = options.find((row) => row.id === id);
      const path = `${option?.parent_id == null ? '' : pathOf(option.parent_id)}/${option?.value ?? '?'}`;
      optionPath.set(id, path);
      return path;
    };
    const rows = db
      .prepare<[], { state: string; filename: string; option: string }>(
        `SELECT a.state, f.filename, v.value AS option FROM assets a JOIN asset_files f ON f.id = a.current_file_id JOIN asset_values v ON v.asset_id = a.id`,
      )
      .all();
    const assets = Object.fromEntries(rows.map((row) => [`${pathOf(row.option)}/${row.filename}`, row.state]));
    return { assets, options: options.map((row) => pathOf(row.id)).sort() };
  };

  beforeAll(async () => {
    service = await startTestService();
    env = { ASSET_SYNC_TOKEN: await service.token() };
    // The service already has a Brand folder with an asset in it.
    await uploadNewAsset(service, '/Brand/existing.txt', Buffer.from('already there'));
  });
  afterAll(async () => {
    await service.dispose();
  });

  it('files a root under an existing /Brand, publishing new assets LIVE', async () => {
    expect(remote().options).toEqual(['/Brand']);
    const folder = folderWith({ 'a.txt': 'a', 'Logos/b.txt': 'b' });
    const run = await sync(folder, '--remote', '/Brand', '--publish', 'live');
    expect(run.code, run.err).toBe(0);
    expect(remote()).toEqual({
      assets: { '/Brand/existing.txt': 'STAGED', '/Brand/a.txt': 'LIVE', '/Brand/Logos/b.txt': 'LIVE' },
      options: ['/Brand', '/Brand/Logos'],
    });

    // A second root on the same remote folder, without --publish: STAGED, and still one Brand.
    const other = folderWith({ 'c.txt': 'c', 'Logos/d.txt': 'd' });
    const again = await sync(other, '--remote', '/Brand');
    expect(again.code, again.err).toBe(0);
    expect(remote()).toEqual({
      assets: { '/Brand/existing.txt': 'STAGED', '/Brand/a.txt': 'LIVE', '/Brand/Logos/b.txt': 'LIVE', '/Brand/c.txt': 'STAGED', '/Brand/Logos/d.txt': 'STAGED' },
      options: ['/Brand', '/Brand/Logos'],
    });
  });

  it('creates a missing remote folder with its parents, once', async () => {
    const before = remote();
    const folder = folderWith({ 'x.txt': 'x' });
    const run = await sync(folder, '--remote', '/Campaigns/2026/Spring/', '--publish', 'live');
    expect(run.code, run.err).toBe(0);
    const after = remote();
    expect(after.options).toEqual([...before.options, '/Campaigns', '/Campaigns/2026', '/Campaigns/2026/Spring'].sort());
    expect(after.assets['/Campaigns/2026/Spring/x.txt']).toBe('LIVE');
    const status = await cli(['status', '--state', dirs.at(-1) ?? '']);
    expect(status.out).toContain('/Campaigns/2026/Spring');
    expect(status.out).toContain('publishing LIVE');

    const second = folderWith({ 'y.txt': 'y' });
    expect((await sync(second, '--remote', '/Campaigns/2026/Spring')).code).toBe(0);
    expect(remote().options).toEqual(after.options);
    expect(remote().assets['/Campaigns/2026/Spring/y.txt']).toBe('STAGED');
  });
});
