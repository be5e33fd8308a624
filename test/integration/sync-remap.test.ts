/**
 * A synced folder given another place in the service (a remap, Engine.addRoot with a new remotePath)
 * takes effect at once, in the running engine, and never moves or deletes a local file, whichever the
 * choice: `move` takes what is in the old place along to the new one (nothing uploads again), `leave`
 * keeps the old place as it is and starts the new one with a first sync that uploads the local files.
 * Without a choice the remap is refused (REMAP_CHOICE_NEEDED) and nothing changes.
 *
 * | case | the rule it taught |
 * |---|---|
 * | /ReproA → /ReproB, then a new file, then a restart | the running root and the one after a restart sync with the new place; no local file goes to the trash |
 * | the move's answer lost after the service moved the folder | the remap is written ahead and finished before the root's next pass: the place and the state agree before anything uploads |
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ApiError, type AssetApi } from '../../src/main/api/index.js';
import { SyncError } from '../../src/main/model/sync-error.js';
import { serviceForBlock, type SyncHarness } from '../support/sync-harness.js';
import { startSyncHarness } from '../support/sync-harness.js';
import { client, colleague, total, type Client } from '../support/two-way.js';

const FILES = { 'a.txt': 'a', 'b.txt': 'b', 'Sub/c.txt': 'c' };

/** What the harness's trash holds (the engine's local deletions go there). */
const trashed = (h: SyncHarness): string[] => (existsSync(join(h.trashDir, 'files')) ? readdirSync(join(h.trashDir, 'files')) : []);

const pathsUnder = async (h: SyncHarness, place: string): Promise<string[]> => (await h.assets()).filter((asset) => asset.path.startsWith(`${place}/`)).map((asset) => asset.path.slice(place.length + 1));

/** The API, but the answer to moving a folder is lost once after the service moved it (the connection dropped). */
function losingMoveAnswer(api: AssetApi): AssetApi {
  const wrapped: AssetApi = Object.create(api) as AssetApi;
  let lost = false;
  wrapped.changeFieldOption = async (id, change) => {
    const answer = await api.changeFieldOption(id, change);
    if (lost) return answer;
    lost = true;
    throw new ApiError({ code: 'NETWORK', method: 'PATCH', path: `/field-options/${id}`, message: 'socket hang up', maybeApplied: true });
  };
  return wrapped;
}

describe('a remap', () => {
  const block = serviceForBlock();

  async function synced(place: string): Promise<Client> {
    const me = client(await startSyncHarness(block.service, { remotePath: place }));
    block.harnesses.push(me.h);
    for (const [relPath, content] of Object.entries(FILES)) me.write(relPath, content);
    expect((await me.once()).converged).toBe(true);
    expect(await pathsUnder(me.h, place)).toEqual(['Sub/c.txt', 'a.txt', 'b.txt']);
    return me;
  }

  it('leave: the old place keeps its files, the new place gets them by a first sync, and the next file lands there', async () => {
    const me = await synced('/LeaveA');
    await me.h.engine.addRoot({ path: me.h.folder, remotePath: '/LeaveB', publishLive: false, remap: 'leave' });
    me.write('new.txt', 'new');
    const result = await me.once();
    expect(result.converged).toBe(true);
    expect(total(result, 'trashed')).toBe(0);
    expect(me.tree()).toEqual({ ...FILES, 'new.txt': 'new' });
    expect(await pathsUnder(me.h, '/LeaveA')).toEqual(['Sub/c.txt', 'a.txt', 'b.txt']);
    expect(await pathsUnder(me.h, '/LeaveB')).toEqual(['Sub/c.txt', 'a.txt', 'b.txt', 'new.txt']);

    // After a restart the root syncs with the new place, and still nothing goes to the trash.
    const again = client(await me.h.restart());
    block.harnesses.push(again.h);
    again.write('later.txt', 'later');
    expect((await again.once()).converged).toBe(true);
    expect(again.tree()).toEqual({ ...FILES, 'new.txt': 'new', 'later.txt': 'later' });
    expect(await pathsUnder(again.h, '/LeaveB')).toEqual(['Sub/c.txt', 'a.txt', 'b.txt', 'later.txt', 'new.txt']);
    expect(trashed(again.h)).toEqual([]);
  });

  it('move: what is in the old place moves along, nothing uploads again, and the next file lands in the new place', async () => {
    const me = await synced('/MoveA');
    const ids = Object.fromEntries((await me.h.assets()).map((asset) => [asset.path, asset.id]));
    await me.h.engine.addRoot({ path: me.h.folder, remotePath: '/Moved/MoveB', publishLive: false, remap: 'move' });
    me.write('new.txt', 'new');
    const result = await me.once();
    expect(result.converged).toBe(true);
    expect([total(result, 'uploaded'), total(result, 'trashed'), total(result, 'downloaded')]).toEqual([1, 0, 0]);
    expect(me.tree()).toEqual({ ...FILES, 'new.txt': 'new' });
    expect(await pathsUnder(me.h, '/MoveA')).toEqual([]);
    const after = await me.h.assets();
    expect(after.filter((asset) => asset.path.startsWith('/Moved/MoveB/')).map((asset) => asset.path)).toEqual(['/Moved/MoveB/Sub/c.txt', '/Moved/MoveB/a.txt', '/Moved/MoveB/b.txt', '/Moved/MoveB/new.txt']);
    // The same assets, moved: not copies.
    expect(after.find((asset) => asset.path === '/Moved/MoveB/a.txt')?.id).toBe(ids['/MoveA/a.txt']);

    const again = client(await me.h.restart());
    block.harnesses.push(again.h);
    expect((await again.once()).converged).toBe(true);
    expect(again.tree()).toEqual({ ...FILES, 'new.txt': 'new' });
    expect(trashed(again.h)).toEqual([]);
  });

  it('without a choice is refused with REMAP_CHOICE_NEEDED, and the folder keeps its place', async () => {
    const me = await synced('/AskA');
    const refused = await me.h.engine.addRoot({ path: me.h.folder, remotePath: '/AskB', publishLive: false }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(SyncError);
    expect(refused).toMatchObject({ code: 'REMAP_CHOICE_NEEDED' });
    expect((refused as SyncError).message).toContain('move it along to /AskB, or leave it in /AskA');
    expect(me.h.engine.roots().map((row) => row.remote_path)).toEqual(['/AskA']);
  });

  it('move into a place that already holds files is refused with REMAP_TARGET_IN_USE before anything changes', async () => {
    const me = await synced('/BusyA');
    await colleague(block.service, me.h.api).upload('/BusyB/theirs.txt', 'theirs');
    const refused = await me.h.engine.addRoot({ path: me.h.folder, remotePath: '/BusyB', publishLive: false, remap: 'move' }).catch((error: unknown) => error);
    expect(refused).toMatchObject({ code: 'REMAP_TARGET_IN_USE' });
    expect(me.h.engine.roots().map((row) => row.remote_path)).toEqual(['/BusyA']);
    expect(await pathsUnder(me.h, '/BusyA')).toEqual(['Sub/c.txt', 'a.txt', 'b.txt']);
    expect((await me.once()).converged).toBe(true);
    expect(me.tree()).toEqual(FILES);
  });

  it('move whose answer was lost: the remap finishes before the next pass, and the next file lands in the new place', async () => {
    const me = client(await startSyncHarness(block.service, { remotePath: '/LostA', wrapApi: losingMoveAnswer }));
    block.harnesses.push(me.h);
    for (const [relPath, content] of Object.entries(FILES)) me.write(relPath, content);
    expect((await me.once()).converged).toBe(true);
    const refused = await me.h.engine.addRoot({ path: me.h.folder, remotePath: '/LostB', publishLive: false, remap: 'move' }).catch((error: unknown) => error);
    expect(refused).toMatchObject({ code: 'NETWORK' });

    me.write('new.txt', 'new');
    const result = await me.once();
    expect(result.converged).toBe(true);
    expect(total(result, 'trashed')).toBe(0);
    expect(me.h.engine.roots().map((row) => row.remote_path)).toEqual(['/LostB']);
    expect(await pathsUnder(me.h, '/LostB')).toEqual(['Sub/c.txt', 'a.txt', 'b.txt', 'new.txt']);
    expect(await pathsUnder(me.h, '/LostA')).toEqual([]);
    expect(me.tree()).toEqual({ ...FILES, 'new.txt': 'new' });
    expect(trashed(me.h)).toEqual([]);
  });
});
