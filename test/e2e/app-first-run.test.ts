/**
 * The real headless app and its real local service, driven from Chromium: the first run with the
 * local library, then files copied into the folder going from syncing (a progress bar during a large,
 * bandwidth-capped file) to up to date, checked through the service's API.
 */
import { writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { remoteFiles } from './support/headless-harness.js';
import { saveScreenshot } from './support/screenshot.js';
import { browserSuite } from './support/browser-suite.js';
import { capture } from './support/capture.js';

const suite = browserSuite({ harness: { autoLocalLibrary: false } });

describe('first run and a first sync, against the headless app', { timeout: 180_000 }, () => {
  it('starts with the local library from the first-run screen', async () => {
    const h = suite.harness();
    const page = await h.open(suite.browser());
    await page.getByRole('heading', { name: 'Welcome to Asset Sync' }).waitFor();
    await capture(page, 'app-first-run', 'first run');
    await page.getByRole('button', { name: 'Use the local library' }).click();
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    const row = page.locator('li[data-folder-id]');
    await row.getByRole('heading', { name: 'Asset Sync' }).waitFor();
    await row.getByTestId('folder-state').getByText('Up to date').waitFor({ timeout: 30_000 });
    await capture(page, 'app-overview-first', 'overview after first run');
    await page.close();
  });

  it('shows a large file syncing with a progress bar, then up to date, and the service has it', async () => {
    const h = suite.harness();
    const page = await h.open(suite.browser());
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
    await capture(page, 'app-activity', 'activity');
    await page.close();
  });
});
