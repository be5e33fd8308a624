/**
 * The way back after a guard (issue 15 §5), through the CLI against the real service: a folder stopped
 * by a missing marker or a missing root names the commands that get out of it; `folders remove` forgets
 * it and a new sync of the same folder adopts what is there without touching a file on either side;
 * `folders relink` points it at its files again (moved, or restored without its marker) after checking
 * them, and refuses a folder that does not hold them.
 */
import { mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, signedInCliForBlock } from '../support/cli-runner.js';
import { tempDir } from '../support/temp-dir.js';

/** Every user file under `dir` (the engine's .asset-sync left out): content, mtime and inode. */
function filesOf(dir: string, prefix = ''): Record<string, { content: string; mtimeMs: number; ino: number }> {
  const files: Record<string, { content: string; mtimeMs: number; ino: number }> = {};
  for (const entry of readdirSync(join(dir, prefix), { withFileTypes: true })) {
    const rel = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
    if (entry.name === '.asset-sync') continue;
    if (entry.isDirectory()) Object.assign(files, filesOf(dir, rel));
    else {
      const stat = statSync(join(dir, rel));
      files[rel] = { content: readFileSync(join(dir, rel), 'utf8'), mtimeMs: stat.mtimeMs, ino: stat.ino };
    }
  }
  return files;
}

describe('asset-sync folders', () => {
  const block = signedInCliForBlock();

  /** What the service holds: every asset, its state and current file, every file version. */
  const serviceState = (): unknown => ({
    assets: block.service.running.ctx.db.prepare('SELECT id, state, current_file_id, date_last_modified FROM assets ORDER BY id').all(),
    files: block.service.running.ctx.db.prepare('SELECT id, asset_id FROM asset_files ORDER BY id').all(),
  });

  async function syncedFolder(prefix: string): Promise<{ folder: string; stateDir: string; sync: (...more: string[]) => ReturnType<typeof cli> }> {
    const folder = tempDir(`asset-sync-${prefix}-`);
    const stateDir = tempDir(`asset-sync-${prefix}-state-`);
    mkdirSync(join(folder, 'Sub'));
    for (let index = 0; index < 4; index++) writeFileSync(join(folder, `${prefix}-${index}.txt`), `${prefix} ${index}`);
    writeFileSync(join(folder, 'Sub', `${prefix}-deep.txt`), 'deep');
    const sync = (...more: string[]): ReturnType<typeof cli> => cli(['sync', '--server', block.service.url, '--state', stateDir, '--once', '--stable-ms', '0', ...more], block.env);
    const first = await sync('--folder', folder, '--remote', `/${prefix}`);
    expect(first.code, first.err).toBe(0);
    return { folder, stateDir, sync };
  }

  it('names the way out of MISSING_MARKER; `folders remove` then a new sync of the folder touches no file', async () => {
    const { folder, stateDir, sync } = await syncedFolder('forget');
    rmSync(join(folder, '.asset-sync', 'root.json'));
    const stopped = await sync();
    expect(stopped.code).toBe(1);
    expect(stopped.err).toContain(`stopped (MISSING_MARKER`);
    expect(stopped.err).toContain(`\`asset-sync folders relink ${folder}\``);
    expect(stopped.err).toContain(`\`asset-sync folders remove ${folder}\``);
    const listed = await cli(['folders', '--state', stateDir]);
    expect(listed.out).toContain(`${folder} → ${block.service.url} /forget · stopped: MISSING_MARKER`);

    const files = filesOf(folder);
    const before = serviceState();
    const removed = await cli(['folders', 'remove', folder, '--state', stateDir]);
    expect(removed.code, removed.err).toBe(0);
    expect(removed.out).toContain(`Forgot ${folder}: no file was changed`);
    expect((await cli(['folders', '--state', stateDir])).out).toContain('No synced folders');

    const again = await sync('--folder', folder, '--remote', '/forget');
    expect(again.code, again.err).toBe(0);
    expect(again.out).toContain('(5 files)');
    expect(filesOf(folder)).toEqual(files);
    expect(serviceState()).toEqual(before);
  });

  it('relinks a moved folder and a folder restored without its marker, checking their files first', async () => {
    const { folder, stateDir, sync } = await syncedFolder('relink');
    const before = serviceState();

    // Moved: MISSING_ROOT, then relinked to where it went.
    const moved = `${folder}-moved`;
    renameSync(folder, moved);
    const stopped = await sync();
    expect(stopped.err).toContain('stopped (MISSING_ROOT');
    expect(stopped.err).toContain(`\`asset-sync folders relink ${folder} --to NEWDIR\``);
    const empty = tempDir('asset-sync-relink-empty-');
    const refused = await cli(['folders', 'relink', folder, '--to', empty, '--state', stateDir]);
    expect(refused.code).toBe(1);
    expect(refused.err).toContain(`${empty} holds 0 of the 5 files last synced from ${folder}`);
    expect(readdirSync(empty)).toEqual([]);
    const relinked = await cli(['folders', 'relink', folder, '--to', moved, '--state', stateDir]);
    expect(relinked.code, relinked.err).toBe(0);
    expect(relinked.out).toContain(`Relinked ${folder} to ${moved}: 5 of the 5 synced files are in place`);
    const files = filesOf(moved);
    const resumed = await sync();
    expect(resumed.code, resumed.err).toBe(0);

    // Restored from a backup without .asset-sync: MISSING_MARKER, relinked in place.
    rmSync(join(moved, '.asset-sync'), { recursive: true });
    expect((await sync()).err).toContain('stopped (MISSING_MARKER');
    const inPlace = await cli(['folders', 'relink', moved, '--state', stateDir]);
    expect(inPlace.code, inPlace.err).toBe(0);
    const after = await sync();
    expect(after.code, after.err).toBe(0);
    expect(filesOf(moved)).toEqual(files);
    expect(serviceState()).toEqual(before);
    rmSync(moved, { recursive: true, force: true });
  });

  it('refuses stray arguments and suggests the option meant', async () => {
    const typo = await cli(['sync', '--onse']);
    expect(typo.code).toBe(2);
    expect(typo.err).toBe('asset-sync: unknown option --onse; did you mean --once? (see `asset-sync sync --help`) [USAGE]');
    const stray = await cli(['status', 'now']);
    expect(stray.code).toBe(2);
    expect(stray.err).toContain('unexpected argument "now"');
  });
});
