/**
 * The UI alone, in real Chromium, against the demo bridge: every view and state renders, keyboard
 * works, no serious accessibility violation in light or dark, and a screenshot of each for a person
 * to look at (test-results/screenshots/demo-*.png).
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { browserSuite } from './support/browser-suite.js';
import { capture } from './support/capture.js';

const suite = browserSuite({ renderer: true });

async function open(scenario: string, view = 'overview', colorScheme: 'light' | 'dark' = 'light'): Promise<Page> {
  const page = await suite.browser().newPage({ colorScheme });
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(`${suite.renderer().url}?demo=${scenario}#/${view}`);
  expect(errors).toEqual([]);
  return page;
}

/** Screenshot (demo-<name>.png) and accessibility check of what the page shows now. */
const captureDemo = (page: Page, name: string): Promise<void> => capture(page, `demo-${name}`, name);

// axe runs take seconds each on a shared machine.
describe('the UI against the demo bridge', { timeout: 120_000 }, () => {
  it('shows the first run: local library, server sign-in and what publish as live means', async () => {
    const page = await open('first-run');
    await page.getByRole('heading', { name: 'Welcome to Asset Sync' }).waitFor();
    await expect(page.getByText('What “publish as live” means').isVisible()).resolves.toBe(true);
    await captureDemo(page, 'first-run');
    await page.getByLabel('Server address').fill('https://assets.acme.example');
    await page.getByRole('button', { name: 'Sign in with the browser' }).click();
    await page.getByRole('link', { name: 'Open the sign-in page' }).waitFor();
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('button', { name: 'Use the local library' }).click();
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    await captureDemo(page, 'first-run-done');
    await page.close();
  });

  it('shows every folder state in words, with progress while syncing', async () => {
    for (const scheme of ['light', 'dark'] as const) {
      const page = await open('busy', 'overview', scheme);
      await page.getByRole('heading', { name: 'Overview' }).waitFor();
      const states = await page.getByTestId('folder-state').allInnerTexts();
      expect(states).toEqual(['Syncing', 'Needs your attention', 'Offline — 2,431 files waiting', 'Paused', 'Stopped: the folder is missing', 'Checking for changes…']);
      await expect(page.getByRole('progressbar', { name: 'Sync progress of Brand' }).getAttribute('aria-valuenow')).resolves.toBe('44');
      await expect(page.getByText(/131 of 421 files · 1\.9 GB of 4\.3 GB · 18 MB\/s · about 2 min left/).isVisible()).resolves.toBe(true);
      await captureDemo(page, `overview-${scheme}`);
      await page.close();
    }
  });

  it('shows the calm overview, the empty state, loading and a broken connection', async () => {
    const calm = await open('calm');
    await calm.getByText('Everything is up to date').waitFor();
    await captureDemo(calm, 'overview-calm');
    await calm.close();

    const empty = await open('empty');
    await empty.getByRole('heading', { name: 'No synced folders yet' }).waitFor();
    await expect(empty.locator('.overall').innerText()).resolves.toMatch(/Nothing synced yet/);
    // Its folder is drawn, not an emoji a system without an emoji font shows as a missing-glyph box.
    await expect(empty.locator('.empty-card').innerText()).resolves.not.toMatch(/\p{Extended_Pictographic}/u);
    await empty.getByLabel('Folder on this computer').fill('/Users/ana/Shots');
    await captureDemo(empty, 'overview-empty');
    await empty.getByRole('button', { name: 'Start syncing' }).click();
    await empty.getByRole('heading', { name: 'Shots' }).waitFor();
    await empty.close();

    const loading = await open('loading');
    await loading.getByText('Opening Asset Sync…').waitFor();
    await captureDemo(loading, 'loading');
    await loading.close();

    const broken = await open('broken');
    await broken.getByRole('heading', { name: 'Can’t reach Asset Sync' }).waitFor();
    await captureDemo(broken, 'broken');
    await broken.close();
  });

  it('says the app is not running in place of its last state, in a banner and on every line that had one', async () => {
    for (const [scheme, width, height] of [['light', 1280, 800], ['dark', 1280, 800], ['light', 800, 600], ['dark', 800, 600]] as const) {
      const page = await suite.browser().newPage({ colorScheme: scheme, width, height });
      await page.goto(`${suite.renderer().url}?demo=stopped#/overview`);
      await page.getByRole('alert').getByText('Asset Sync is not running').waitFor();
      await expect(page.locator('.overall').innerText()).resolves.toMatch(/^Not running/);
      expect(await page.getByTestId('folder-state').allInnerTexts()).toEqual(Array.from({ length: 3 }, () => 'Not syncing while Asset Sync is stopped'));
      // What it shows is how things were: none of it takes a click.
      await expect(page.getByRole('button', { name: 'Sync now' }).evaluate((button) => button.closest('[inert]') !== null)).resolves.toBe(true);
      await captureDemo(page, `stopped-${scheme}-${width}`);
      await page.close();
    }
  });

  it('resolves conflicts each way, retries, confirms held deletions', async () => {
    const page = await open('busy', 'conflicts');
    await page.getByRole('heading', { name: 'wordmark.png' }).waitFor();
    await expect(page.getByRole('img', { name: /Preview of your version of wordmark\.png/ }).isVisible()).resolves.toBe(true);
    await captureDemo(page, 'conflicts');
    await page.getByRole('group', { name: 'Resolve wordmark.png' }).getByRole('button', { name: 'Keep theirs' }).click();
    await page.getByRole('group', { name: 'Confirm: keep theirs for wordmark.png' }).getByRole('button', { name: 'Keep theirs' }).click();
    await page.getByRole('heading', { name: 'wordmark.png' }).waitFor({ state: 'detached' });
    await page.getByRole('group', { name: 'Resolve brand-book.pdf' }).getByRole('button', { name: 'Keep both' }).click();
    await page.getByRole('heading', { name: 'No conflicts' }).waitFor();

    await page.getByRole('link', { name: /Not synced/ }).click();
    await page.getByText('You don’t have permission to read this file.').waitFor();
    await captureDemo(page, 'not-synced');
    await page.getByRole('button', { name: 'Retry Spring/hero-final.psd' }).click();
    await page.getByText('You don’t have permission to read this file.').waitFor({ state: 'detached' });

    await page.getByRole('link', { name: /Held deletions/ }).click();
    await page.getByText(/1,204 files were deleted on this computer\. Confirm to delete them in the service too/).waitFor();
    await captureDemo(page, 'held-deletions');
    const dark = await open('busy', 'held-deletions', 'dark');
    await dark.getByText(/1,204 files were deleted on this computer\. Confirm to delete them in the service too/).waitFor();
    await captureDemo(dark, 'held-deletions-dark');
    await dark.close();
    await page.getByRole('button', { name: 'Delete 1,204 files' }).click();
    await page.getByRole('heading', { name: 'Nothing held back' }).waitFor();
    await page.close();
  });

  it('renders only the visible rows of 100,000 activity entries, and scrolls with the keyboard', async () => {
    const page = await open('activity-100k', 'activity');
    const list = page.getByRole('region', { name: 'Recent changes' });
    await list.waitFor();
    const rows = list.getByRole('listitem');
    await expect(rows.first().getAttribute('aria-setsize')).resolves.toBe('2000');
    const rendered = await rows.count();
    expect(rendered).toBeLessThan(40);
    await captureDemo(page, 'activity');
    await list.focus();
    await page.keyboard.press('End');
    await page.waitForFunction(() => document.querySelector('.viewport [role="listitem"]')?.getAttribute('aria-setsize') === '4000');
    await page.keyboard.press('PageDown');
    await expect(rows.count()).resolves.toBeLessThan(40);
    await page.close();
  });

  it('is usable with the keyboard alone, with focus visible', async () => {
    const page = await open('busy', 'overview');
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    // The skip link, then the sidebar's views.
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await expect(page.evaluate(() => document.activeElement?.textContent.trim())).resolves.toMatch(/^Conflicts/);
    const outline = await page.evaluate(() => (document.activeElement === null ? '' : getComputedStyle(document.activeElement).outlineStyle));
    expect(outline).toBe('solid');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Conflicts', level: 1 }).waitFor();
    await page.close();
  });

  it('edits settings: bandwidth caps, publish as live, pause', async () => {
    const page = await open('busy', 'settings');
    await page.getByRole('heading', { name: 'Settings' }).waitFor();
    await expect(page.getByLabel('Upload limit').inputValue()).resolves.toBe('5');
    await page.getByLabel('Download limit').fill('2.5');
    await page.getByLabel('Download limit').press('Enter');
    await page.getByText('Saved.').first().waitFor();
    await captureDemo(page, 'settings');
    await page.getByRole('button', { name: 'Pause until I resume' }).click();
    await page.getByRole('button', { name: 'Resume syncing' }).click();
    await page.getByRole('button', { name: 'Pause for 1 hour' }).waitFor();
    await page.close();
  });

  it('copies files dropped on a folder row into that folder', async () => {
    const page = await open('calm', 'overview');
    await page.getByRole('heading', { name: 'Campaigns 2026' }).waitFor();
    const dataTransfer = await page.evaluateHandle(() => {
      const transfer = new DataTransfer();
      transfer.items.add(new File(['hello'], 'dropped.txt', { type: 'text/plain' }));
      return transfer;
    });
    const row = page.locator('[data-folder-id="campaigns"]');
    await row.dispatchEvent('dragenter', { dataTransfer });
    await row.dispatchEvent('dragover', { dataTransfer });
    await row.dispatchEvent('drop', { dataTransfer });
    await page.getByText('Copied 1 file into “Campaigns 2026”.').waitFor();
    await page.getByRole('link', { name: 'Activity' }).click();
    await page.getByText('dropped.txt').waitFor();
    await page.close();
  });
});
