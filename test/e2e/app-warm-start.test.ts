/**
 * A warm start as `asset-sync start` makes it (`windowWaitMs`): the window's page arrives with the app's
 * state, so the overview lists the folder with its last known state ("Checking for changes…") before
 * the page has asked the app anything, and while the local library's service has not even loaded (it
 * waits for the window's first state). Once the page's requests go through, the engine starts and the
 * folder turns up to date. The page's requests to the app are held by the test to show that.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Route } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { LOCK_FILE } from '../../src/service/cli/data-dir-lock.js';
import { browserSuite } from './support/browser-suite.js';
import { saveScreenshot } from './support/screenshot.js';

const suite = browserSuite({ harness: {} });

describe('a warm start', () => {
  it('shows the folder with its last known state from the page itself, before the service has loaded', { timeout: 120_000 }, async () => {
    const h = suite.harness();
    const first = await suite.browser().newPage();
    await first.goto(h.app.newLink());
    await first.locator('li[data-folder-id]').getByText('Up to date').waitFor({ timeout: 60_000 });
    await first.close();
    await h.stop();

    const page = await suite.browser().newPage();
    const held: Route[] = [];
    await page.route('**/api/**', (route) => {
      held.push(route);
    });
    const seen: { label: string; serviceLoaded: boolean }[] = [];
    let window: Promise<void> | undefined;
    await h.start({
      windowWaitMs: 60_000,
      onWindow: ({ url }) => {
        window = (async () => {
          await page.goto(url);
          const row = page.locator('li[data-folder-id]').filter({ hasText: 'Asset Sync' });
          const label = await row.getByTestId('folder-state').innerText({ timeout: 30_000 });
          seen.push({ label, serviceLoaded: existsSync(join(h.dataDir, LOCK_FILE)) });
          await saveScreenshot(page, 'warm-start-overview-checking');
          const waiting = held.splice(0);
          await page.unroute('**/api/**');
          for (const route of waiting) await route.continue().catch(() => undefined);
        })();
      },
    });
    await window;
    // The page had the folder and its state before any of its requests was answered.
    expect(seen).toEqual([{ label: 'Checking for changes…', serviceLoaded: false }]);
    expect(h.app.service()).toBeDefined();
    await page.locator('li[data-folder-id]').getByText('Up to date').waitFor({ timeout: 60_000 });
    await saveScreenshot(page, 'warm-start-overview-up-to-date');
    await page.close();
  });
});
