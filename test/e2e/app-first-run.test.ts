/**
 * The real headless app and its real local service, driven from Chromium: the first run with the
 * local library, then files copied into the folder going from syncing (a progress bar during a large,
 * bandwidth-capped file) to up to date, checked through the service's API.
 */
import { writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, type LaunchedBrowser } from './support/launch-browser.js';
import { startHeadlessHarness, remoteFiles, type HeadlessHarness } from './support/headless-harness.js';
import { checkAccessibility } from './support/check-accessibility.js';
import { saveScreenshot } from './support/screenshot.js';

let browser: LaunchedBrowser | undefined;
let harness: HeadlessHarness | undefined;

beforeAll(async () => {
  harness = await startHeadlessHarness({ autoLocalLibrary: false });
  browser = await launchBrowser();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await harness?.dispose();
}, 60_000);

describe('first run and a first sync, against the headless app', { timeout: 180_000 }, () => {
  it('starts with the local library from the first-run screen', async () => {
    const h = harness!;
    const page = await h.open(browser!);
    await page.getByRole('heading', { name: 'Welcome to Asset Sync' }).waitFor();
    await saveScreenshot(page, 'app-first-run');
    await checkAccessibility(page, 'first run');
    await page.getByRole('button', { name: 'Use the local library' }).click();
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    const row = page.locator('li[data-folder-id]');
    await row.getByRole('heading', { name: 'Asset Sync' }).waitFor();
    await row.getByTestId('folder-state').getByText('Up to date').waitFor({ timeout: 30_000 });
    await saveScreenshot(page, 'app-overview-first');
    await checkAccessibility(page, 'overview after first run');
    await page.close();
  });

  it('shows a large file syncing with a progress bar, then up to date, and the service has it', async () => {
    const h = harness!;
    const page = await h.open(browser!);
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    // A 1 MB/s upload cap makes a 6 MB file take seconds: long enough to see the bar.
    await page.getByRole('link', { name: 'Settings' }).click();
    await page.getByLabel('Upload limit').fill('1');
    await page.getByLabel('Upload limit').press('Enter');
    await page.getByText('Saved.').first().waitFor();
    await page.getByRole('link', { name: 'Overview' }).click();

    writeFileSync(join(h.folder, 'small.txt'), 'hello from the e2e test');
    writeFileSync(join(h.folder, 'large.bin'), randomBytes(6_000_000));
    const row = page.locator('li[data-folder-id]');
    await row.getByTestId('folder-state').getByText('Syncing').waitFor({ timeout: 30_000 });
    await row.getByRole('progressbar').waitFor();
    await saveScreenshot(page, 'app-syncing');
    await row.getByTestId('folder-state').getByText('Up to date').waitFor({ timeout: 60_000 });
    await saveScreenshot(page, 'app-up-to-date');

    const files = await remoteFiles(await h.api());
    expect(files.map((file) => file.path)).toEqual(['/large.bin', '/small.txt']);
    await page.getByRole('link', { name: 'Activity' }).click();
    await page.getByText('large.bin').waitFor();
    await saveScreenshot(page, 'app-activity');
    await checkAccessibility(page, 'activity');
    await page.close();
  });
});
