/**
 * A warm start of the headless app serves its window before the local library's service has loaded
 * and started: `onWindow` hears first, while the service's data directory is not locked yet and the
 * app is already findable (app.json), and the start resolves once the library and the engine run. A
 * first start (no account yet) serves it once the local library is in use.
 * Against the real app and its real local service on 127.0.0.1.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { HeadlessApp } from '../../src/main/headless/headless-app.js';
import { LOCK_FILE } from '../../src/service/cli/data-dir-lock.js';
import { appDirs, startTestApp } from '../support/test-app.js';
import { until } from '../support/until.js';

describe('the headless app serves its window first', () => {
  let app: HeadlessApp | undefined;
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  it('tells onWindow before the local library has started, and starts it behind the window', { timeout: 60_000 }, async () => {
    const where = appDirs('asset-sync-window-first-');
    // The first start makes the library and the folder (what a warm start finds); its window waits
    // for them, rather than offering the first-run choice the start is making itself.
    let firstWindowLocked: boolean | undefined;
    const first = await startTestApp(where, { onWindow: () => (firstWindowLocked = existsSync(join(where.dataDir, LOCK_FILE)) && existsSync(where.folder)) });
    expect(firstWindowLocked).toBe(true);
    await until('the first start is up to date', async () => (await first.controller.getState()).overall === 'up-to-date');
    await first.close();

    const seen: { step: string; serviceLocked: boolean; appFile: boolean }[] = [];
    const look = (step: string) => seen.push({ step, serviceLocked: existsSync(join(where.dataDir, LOCK_FILE)), appFile: existsSync(join(where.stateDir, 'app.json')) });
    app = await startTestApp(where, { onWindow: () => look('window') });
    look('started');
    expect(seen).toEqual([
      { step: 'window', serviceLocked: false, appFile: true },
      { step: 'started', serviceLocked: true, appFile: true },
    ]);
    expect(app.service()).toBeDefined();
    const started = app;
    await until('the warm start is up to date', async () => (await started.controller.getState()).overall === 'up-to-date');
  });
});
