/**
 * Two synced folders never overlap, through `asset-sync sync --folder` against the real service: a
 * folder whose service folder lies inside another's (the default folder syncs `/`, everything), whose
 * local folder lies inside another's, or which is another synced folder under a second name (a
 * symlink), is refused with FOLDERS_OVERLAP, the reason and a way out, and nothing is written for it;
 * folders apart (`/Design` beside `/Designs`) are added, and a synced folder moved in the service into
 * another's, or relinked into another, is refused too. A state that already holds overlapping folders
 * keeps syncing them.
 */
import { existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NodeFileSystem, systemClock, writeRootMarker } from '../../src/main/local/index.js';
import { openStateFile } from '../../src/main/store/state-dir.js';
import { openStateStore } from '../../src/main/store/state-store.js';
import { cli, signedInCliForBlock } from '../support/cli-runner.js';
import { tempDir } from '../support/temp-dir.js';

describe('asset-sync sync --folder refuses overlapping folders', () => {
  const block = signedInCliForBlock();

  const syncIn = (stateDir: string) => (...more: string[]) => cli(['sync', '--server', block.service.url, '--state', stateDir, '--once', '--stable-ms', '0', ...more], block.env);
  const listed = async (stateDir: string): Promise<string> => (await cli(['folders', '--state', stateDir])).out;

  it('refuses ~/Design → /Design beside the default folder that syncs /, and says why and what to do', async () => {
    const home = tempDir('asset-sync-overlap-');
    const stateDir = join(home, 'state');
    const sync = syncIn(stateDir);
    const defaultFolder = join(home, 'Asset Sync');
    const design = join(home, 'Design');
    mkdirSync(defaultFolder);
    mkdirSync(design);
    writeFileSync(join(design, 'logo.txt'), 'logo');
    const first = await sync('--folder', defaultFolder, '--remote', '/');
    expect(first.code, first.err).toBe(0);

    const refused = await sync('--folder', design, '--remote', '/Design');
    expect(refused.code).toBe(2);
    expect(refused.err).toContain('[FOLDERS_OVERLAP]');
    expect(refused.err).toContain(`/Design in the service is already synced by ${defaultFolder}, which syncs the whole service (/): its files are in ${join(defaultFolder, 'Design')}.`);
    expect(refused.err).toContain(`first narrow ${defaultFolder} to a folder in the service that does not hold /Design`);
    expect(existsSync(join(design, '.asset-sync'))).toBe(false);
    expect(await listed(stateDir)).not.toContain(design);
    expect(existsSync(join(defaultFolder, 'logo.txt'))).toBe(false);
  });

  it('refuses a folder inside a synced one, or the same one by another name; adds one beside it with a like name', async () => {
    const home = tempDir('asset-sync-overlap-');
    const stateDir = join(home, 'state');
    const sync = syncIn(stateDir);
    const design = join(home, 'Design');
    mkdirSync(join(design, 'Logos'), { recursive: true });
    expect((await sync('--folder', design, '--remote', '/Design')).code).toBe(0);

    const inside = await sync('--folder', join(design, 'Logos'), '--remote', '/Logos');
    expect(inside.code).toBe(2);
    expect(inside.err).toContain(`${join(design, 'Logos')} is inside ${design}, which is already synced with /Design, so its files already sync. Choose a folder outside ${design}, or first stop syncing ${design}. [FOLDERS_OVERLAP]`);

    const link = join(home, 'Design link');
    symlinkSync(design, link);
    const linked = await sync('--folder', link, '--remote', '/Elsewhere');
    expect(linked.code).toBe(2);
    expect(linked.err).toContain(`${link} is already synced (as ${design}) with /Design.`);

    const around = await sync('--folder', home, '--remote', '/Home');
    expect(around.code).toBe(2);
    expect(around.err).toContain(`${home} holds ${design}, which is already synced with /Design.`);

    const designs = join(home, 'Designs');
    mkdirSync(designs);
    const beside = await sync('--folder', designs, '--remote', '/Designs');
    expect(beside.code, beside.err).toBe(0);
    expect(await listed(stateDir)).toContain(`${designs} → ${block.service.url} /Designs`);

    // A synced folder moved to another place in the service is held to the same rule.
    const moved = await sync('--folder', designs, '--remote', '/Design/Old');
    expect(moved.code).toBe(2);
    expect(moved.err).toContain(`/Design/Old in the service is already synced by ${design}, which syncs /Design: its files are in ${join(design, 'Old')}.`);
    expect(await listed(stateDir)).toContain(`${designs} → ${block.service.url} /Designs`);
  });

  it('refuses to relink a folder into another synced folder', async () => {
    const home = tempDir('asset-sync-overlap-');
    const stateDir = join(home, 'state');
    const sync = syncIn(stateDir);
    const photos = join(home, 'Photos');
    const brand = join(home, 'Brand');
    mkdirSync(photos);
    mkdirSync(join(brand, 'Photos'), { recursive: true });
    expect((await sync('--folder', photos, '--remote', '/Photos')).code).toBe(0);
    expect((await sync('--folder', brand, '--remote', '/Brand')).code).toBe(0);

    const relinked = await cli(['folders', 'relink', photos, '--to', join(brand, 'Photos'), '--state', stateDir]);
    expect(relinked.code).toBe(2);
    expect(relinked.err).toContain(`${join(brand, 'Photos')} is inside ${brand}, which is already synced with /Brand`);
    expect(await listed(stateDir)).toContain(`${photos} → ${block.service.url} /Photos`);
  });

  it('keeps syncing folders a state already holds overlapping, and lets their settings change', async () => {
    const home = tempDir('asset-sync-overlap-');
    const stateDir = join(home, 'state');
    const outer = join(home, 'Outer');
    const inner = join(outer, 'Inner');
    mkdirSync(inner, { recursive: true });
    writeFileSync(join(inner, 'kept.txt'), 'kept');
    const store = openStateStore(openStateFile(stateDir));
    for (const [path, remotePath] of [[outer, '/Outer'], [inner, '/Inner']] as const) {
      const row = store.repos.roots.upsert({ path, server: block.service.url, remotePath, publishLive: false }, new Date().toISOString());
      await writeRootMarker(new NodeFileSystem(), path, { rootId: row.id, server: block.service.url, remotePath }, systemClock);
    }
    store.close();

    const again = await syncIn(stateDir)('--folder', inner, '--remote', '/Inner', '--publish', 'live');
    expect(again.code, again.err).toBe(0);
    expect(await listed(stateDir)).toContain(`${inner} → ${block.service.url} /Inner`);
  });
});
