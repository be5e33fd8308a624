import { describe, expect, it, vi } from 'vitest';
import { StandInApp, electronStandIn } from '../../../test/support/electron-stand-in.js';

const app = new StandInApp();
app.gotLock = false;
vi.mock('electron', () => electronStandIn(app));

// Importing main.ts loads the whole app (controller, engine, embedded service): slow to transform on a busy machine.
describe('the main entry', { timeout: 120_000 }, () => {
  it('a second launch quits at once, before the app is ready, without starting anything', async () => {
    await import('./main.js');
    expect(app.quits).toBe(1);
    expect(app.ready).toBe(false);
    expect(app.listenerCount('second-instance')).toBe(0);
  });
});
