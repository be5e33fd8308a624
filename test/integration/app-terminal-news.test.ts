/**
 * The terminal that runs the headless app says when the service goes away and comes back, against the
 * real app and its real local service on 127.0.0.1: the lines arrive through the app's `notice`, the
 * one place `npm start` prints.
 */
import { join } from 'node:path';
import { afterEach, describe, it } from 'vitest';
import { startHeadlessApp, type HeadlessApp } from '../../src/main/headless/headless-app.js';
import { until } from '../support/until.js';
import { tempDir } from '../support/temp-dir.js';

describe('what the terminal says while the headless app runs', () => {
  let app: HeadlessApp | undefined;
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  it('says when the service goes away and when it is back', async () => {
    const base = tempDir('asset-sync-terminal-');
    const lines: string[] = [];
    app = await startHeadlessApp({
      stateDir: join(base, 'state'),
      dataDir: join(base, 'data'),
      folder: join(base, 'Asset Sync'),
      servicePort: 0,
      firstUiPort: 0,
      stableMs: 50,
      publishMs: 20,
      remote: { pollIntervalMs: 200, overlapMs: 1000 },
      staticDir: join(base, 'no-ui'),
      env: { ASSET_SYNC_ADMIN_PASSWORD: 'a long enough password' },
      notice: (line) => lines.push(line),
    });
    const running = app;
    await until('the app is online', async () => (await running.controller.getState()).connection.kind === 'online');
    await running.stopService();
    await until('the terminal says the app is offline', () => lines.some((line) => line.startsWith('Offline: ') && line.includes('Changes wait here and go once it is back.')));
    await running.restartService();
    await until('the terminal says it is back', () => lines.includes('Back online: catching up with what waited.'));
  });
});
