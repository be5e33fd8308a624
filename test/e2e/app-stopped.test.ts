/**
 * A stopped app looks stopped: an open tab of the browser UI says the app is not running once the app
 * stops (Ctrl+C closes its UI server and its local service), instead of keeping the last state it
 * showed, and comes back by itself when the app starts again on the same state dir: at the same
 * address, in the same page (no reload), with the session the tab already had, so commands work again.
 * A tab whose session the app no longer knows (its cookie key replaced: every browser signed out) says so, and
 * comes back once the printed address is opened again.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { browserSuite } from './support/browser-suite.js';
import { capture } from './support/capture.js';
import { remotePaths } from './support/headless-harness.js';
import { until } from '../support/until.js';

const suite = browserSuite({ harness: {} });

/** The sidebar's one line about the whole app. */
function overall(page: Page): Promise<string> {
  return page.locator('.overall').innerText();
}

describe('a stopped app looks stopped', { timeout: 180_000 }, () => {
  it('says the app is not running once it stops, and reconnects by itself when it starts again', async () => {
    const h = suite.harness();
    writeFileSync(join(h.folder, 'brief.txt'), 'the first brief');
    const page = await h.open(suite.browser());
    await until('the brief to reach the service', async () => (await remotePaths(h)).includes('/brief.txt'));
    await until('the window to say everything is up to date', async () => /up to date/i.test(await overall(page)), { context: () => 'the sidebar never said up to date' });
    const address = new URL(page.url()).origin;
    expect(address).toBe(h.app.origin);
    // Marks this document: the same mark after the restart shows the page was not reloaded.
    await page.evaluate(() => Object.assign(window, { samePage: true }));

    await h.stop();
    const notRunning = page.getByRole('alert').filter({ hasText: 'Asset Sync is not running' });
    await until('the page to say the app is not running', () => notRunning.isVisible(), { timeoutMs: 20_000 });
    expect(await overall(page)).not.toMatch(/up to date/i);
    expect(await overall(page)).toMatch(/not running/i);
    expect(await page.getByTestId('folder-state').innerText()).not.toMatch(/up to date/i);
    await capture(page, 'app-not-running', 'the app stopped');
    await page.emulateMedia({ colorScheme: 'dark' });
    await capture(page, 'app-not-running-dark', 'the app stopped, dark');
    await page.emulateMedia({ colorScheme: 'light' });

    // Made while the app is stopped: it uploads once the app is back.
    writeFileSync(join(h.folder, 'while-stopped.txt'), 'made while the app was stopped');
    await h.start();
    expect(h.app.origin).toBe(address);
    await until('the page to reconnect by itself', async () => !(await notRunning.isVisible()) && /up to date/i.test(await overall(page)), {
      context: () => 'the banner stayed, or the sidebar never said up to date again',
    });
    expect(await page.evaluate(() => (window as unknown as { samePage?: boolean }).samePage)).toBe(true);
    await until('the file made while stopped to reach the service', async () => (await remotePaths(h)).includes('/while-stopped.txt'));

    // The tab's session still lets it in: a command goes through and the window shows its effect.
    await page.getByRole('button', { name: 'Pause for 1 hour' }).click();
    await until('the window to say paused', async () => /paused/i.test(await overall(page)));
    await page.close();
  });

  it('says a tab is no longer signed in when the app forgot its sessions, and lets it back in through the printed address', async () => {
    const h = suite.harness();
    const page = await h.open(suite.browser());
    await until('the window to show the overview', () => page.getByRole('heading', { name: 'Overview' }).isVisible());
    await h.stop();
    // The address stays, the key that signed every session is gone.
    const kept = join(h.stateDir, 'ui.json');
    const { port } = JSON.parse(readFileSync(kept, 'utf8')) as { port: number };
    writeFileSync(kept, JSON.stringify({ port }), { mode: 0o600 });
    await h.start();

    const signedOut = page.getByRole('alert').filter({ hasText: 'This page is no longer signed in to Asset Sync' });
    await until('the page to say it is no longer signed in', () => signedOut.isVisible(), { timeoutMs: 20_000 });
    await capture(page, 'app-signed-out-tab', 'a tab the app no longer knows');
    // The printed address, opened in another tab, signs this browser in again: the first tab follows.
    const again = await h.open(suite.browser());
    await until('the first tab to reconnect', async () => !(await signedOut.isVisible()) && !/can.t reach/i.test(await overall(page)));
    await again.close();
    await page.close();
  });
});
