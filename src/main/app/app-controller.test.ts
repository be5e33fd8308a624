import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AppEvent } from '../../shared/bridge/app-events.js';
import { rootsRepo } from '../db/roots-repo.js';
import { ManualClock } from '../local/index.js';
import { openStateFile } from '../store/state-dir.js';
import { LOCAL_SERVICE } from '../store/state-owner.js';
import { createAppController } from './app-controller.js';
import type { LocalLibrarySession } from './app-types.js';
import { openSettingsStore } from './settings-store.js';
import { tempDir } from '../../../test/support/temp-dir.js';

function controllerWithClock() {
  const base = tempDir('app-controller-');
  const clock = new ManualClock();
  const controller = createAppController({ stateDir: join(base, 'state'), configDir: join(base, 'config'), host: { kind: 'headless', secureStorage: false, version: 'test' } }, { clock });
  return { controller, clock };
}

describe('the app controller without an account', () => {
  it('sends the state at once on subscribe, then at most one every 250 ms with the latest', async () => {
    const { controller, clock } = controllerWithClock();
    await controller.start();
    const states: Extract<AppEvent, { type: 'state' }>['state'][] = [];
    const unsubscribe = controller.subscribe((event) => {
      if (event.type === 'state') states.push(event.state);
    });
    expect(states).toHaveLength(1);
    expect(states[0]).toMatchObject({ overall: 'no-account', account: { kind: 'none' }, folders: [], problems: [] });
    clock.advance(1000);
    for (let cap = 1; cap <= 10; cap++) await controller.updateSettings({ uploadBytesPerSecond: cap * 1000 });
    // The first change goes out at once (the last state is old); the other nine wait for one more.
    expect(states).toHaveLength(2);
    clock.advance(249);
    expect(states).toHaveLength(2);
    clock.advance(1);
    expect(states).toHaveLength(3);
    expect(states[2]?.settings.uploadBytesPerSecond).toBe(10_000);
    expect(states[2]?.revision).toBeGreaterThan(states[1]?.revision ?? Infinity);
    clock.advance(10_000);
    expect(states).toHaveLength(3);
    unsubscribe();
    await controller.close();
  });

  it('refuses folder commands until signed in, with a code the window can act on', async () => {
    const { controller } = controllerWithClock();
    await controller.start();
    await expect(controller.addFolder({ path: '/tmp/x', remotePath: '/', publishLive: false })).rejects.toMatchObject({ code: 'NOT_SIGNED_IN' });
    await expect(controller.useLocalLibrary()).rejects.toMatchObject({ code: 'NO_LOCAL_LIBRARY' });
    const bogus: Record<string, unknown> = { bogus: true };
    await expect(controller.updateSettings(bogus)).rejects.toMatchObject({ code: 'INVALID_REQUEST' });
    await expect(controller.pause({ span: 'forever' as never })).rejects.toMatchObject({ code: 'INVALID_REQUEST' });
    await controller.pause({ span: 'one-hour' });
    expect((await controller.getState()).paused).toEqual({ until: expect.any(String) });
    await controller.resume({});
    expect((await controller.getState()).paused).toBeNull();
    await controller.close();
  });
});

describe('the app controller while the account of the last run signs in again', () => {
  /** A state directory whose state.db is `service`'s and holds one folder, and settings naming the local library. */
  function lastRun(service: string) {
    const base = tempDir('app-controller-restore-');
    const stateDir = join(base, 'state');
    const configDir = join(base, 'config');
    const folder = join(base, 'Asset Sync');
    const db = openStateFile(stateDir, { service, userId: 'user-1', server: 'http://127.0.0.1:7480' });
    rootsRepo(db).insertAs({ id: 'root-1', path: folder, server: 'http://127.0.0.1:7480', remote_path: '/', publish_live: 0, stopped: null, date_created: '2026-12-07T00:00:00.000Z' });
    db.close();
    openSettingsStore({ configDir }).update({ account: { kind: 'local' } });
    let fail: (error: Error) => void = () => undefined;
    // The local library still starting (its service loading): the session is not open yet.
    const starting = new Promise<LocalLibrarySession>((_resolve, reject) => (fail = reject));
    const controller = createAppController(
      { stateDir, configDir, host: { kind: 'headless', secureStorage: false, version: 'test' } },
      { clock: new ManualClock(), localLibrary: { start: () => starting, stop: async () => undefined } },
    );
    return { controller, folder, fail };
  }

  it("shows the account's folders at once with their last known state, as being checked, never up to date", async () => {
    const { controller, folder, fail } = lastRun(LOCAL_SERVICE);
    const started = controller.start();
    const state = await controller.getState();
    expect(state.overall).toBe('starting');
    expect(state.account).toMatchObject({ kind: 'signed-in', local: true });
    expect(controller.account).toEqual(state.account);
    expect(state.folders).toEqual([expect.objectContaining({ id: 'root-1', path: folder, activity: { kind: 'scanning' } })]);
    // The library did not start: no account after all, and the reason is in the state.
    fail(Object.assign(new Error('the local library could not start'), { code: 'NO_LOCAL_LIBRARY' }));
    await started;
    const after = await controller.getState();
    expect(after.account).toEqual({ kind: 'none' });
    expect(controller.account).toEqual(after.account);
    expect(after.problems).toEqual([expect.objectContaining({ message: 'the local library could not start' })]);
    await controller.close();
  });

  it("shows no folders of a state that is another service's", async () => {
    const { controller, fail } = lastRun('https://assets.example.com');
    const started = controller.start();
    expect((await controller.getState()).folders).toEqual([]);
    fail(new Error('stopped'));
    await started;
    await controller.close();
  });
});
