import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AppEvent } from '../../shared/bridge/app-events.js';
import { ManualClock } from '../local/index.js';
import { createAppController } from './app-controller.js';
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
