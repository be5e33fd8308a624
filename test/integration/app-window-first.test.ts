/**
 * A warm start of the headless app serves its window before the local library's service has loaded
 * and started: `onWindow` hears first, while the service's data directory is not locked yet and the
 * app is already findable (app.json), and the start resolves once the library and the engine run. A
 * first start (no account yet) serves it once the local library is in use. With `windowWaitMs` (the
 * CLI's start), the service loads only once a window has been sent its first state: the folder's last
 * known state, as still being checked.
 * Against the real app and its real local service on 127.0.0.1.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { HeadlessApp } from '../../src/main/headless/headless-app.js';
import { LOCK_FILE } from '../../src/service/cli/data-dir-lock.js';
import { appDirs, startTestApp } from '../support/test-app.js';
import { requestFrom } from '../support/request-from.js';
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

  it('with windowWaitMs, loads the service only once a window has been sent its first state', { timeout: 60_000 }, async () => {
    const where = appDirs('asset-sync-window-wait-');
    const first = await startTestApp(where);
    await until('the first start is up to date', async () => (await first.controller.getState()).overall === 'up-to-date');
    await first.close();

    const seen: string[] = [];
    const serviceLocked = (): boolean => existsSync(join(where.dataDir, LOCK_FILE));
    // The window, as a browser would open it: the link for a cookie, then the state.
    const openWindow = async (link: string): Promise<void> => {
      await new Promise((resolve) => setTimeout(resolve, 300));
      seen.push(`before the window: service locked ${serviceLocked()}`);
      const opened = await requestFrom('127.0.0.1', link);
      const cookie = String(opened.headers['set-cookie']).split(';')[0] ?? '';
      await new Promise((resolve) => setTimeout(resolve, 300));
      seen.push(`window opened: service locked ${serviceLocked()}`);
      const answer = await requestFrom('127.0.0.1', new URL('/api/getState', link).href, { method: 'POST', headers: { cookie, 'content-type': 'application/json' }, body: '{}' });
      const { result } = JSON.parse(answer.text) as { result: { folders: { path: string; activity: { kind: string } }[] } };
      seen.push(`state sent: ${result.folders.map((folder) => `${folder.path} ${folder.activity.kind}`).join(', ')}`);
    };
    let windowDone: Promise<void> | undefined;
    app = await startTestApp(where, { windowWaitMs: 30_000, onWindow: ({ url }) => {
        windowDone = openWindow(url);
      },
    });
    await windowDone;
    expect(seen).toEqual(['before the window: service locked false', 'window opened: service locked false', `state sent: ${where.folder} scanning`]);
    expect(serviceLocked()).toBe(true);
    const started = app;
    await until('the warm start is up to date', async () => (await started.controller.getState()).overall === 'up-to-date');
  });
});
