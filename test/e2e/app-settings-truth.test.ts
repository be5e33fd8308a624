/**
 * Settings say what is true, against the real headless app on its local library: adding a folder is
 * one click from the overview once folders exist, with an example path this computer would write; a
 * refused folder marks the fields it is about; the local-library choice shows on while the library is
 * the account; a pause says when it ends in words that read.
 */
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { browserSuite } from './support/browser-suite.js';
import { capture } from './support/capture.js';

const suite = browserSuite({ harness: {} });

describe('settings that say what is true', { timeout: 180_000 }, () => {
  it('adds a folder from the overview, marks a refused field, shows the local library on, and reads a pause right', async () => {
    const h = suite.harness();
    const page = await h.open(suite.browser());
    await page.locator('li[data-folder-id]').getByTestId('folder-state').getByText('Up to date').waitFor({ timeout: 45_000 });

    await page.getByRole('link', { name: 'Add folder' }).click();
    const path = page.getByLabel('Folder on this computer');
    await expect.poll(() => path.evaluate((input) => input === document.activeElement)).toBe(true);
    await expect(path.getAttribute('placeholder')).resolves.toBe(join(dirname(h.folder), 'Design'));

    // Beside the default folder that syncs "/", any other service folder overlaps: both fields are marked.
    await path.fill(join(dirname(h.folder), 'Design'));
    await page.getByLabel('Folder in the service').last().fill('/Design');
    await page.getByRole('button', { name: 'Add folder' }).click();
    await page.getByRole('alert').filter({ hasText: 'This folder can’t be added' }).waitFor();
    await expect(path.getAttribute('aria-invalid')).resolves.toBe('true');
    await expect(page.getByLabel('Folder in the service').last().getAttribute('aria-invalid')).resolves.toBe('true');
    const describedBy = (await path.getAttribute('aria-describedby')) ?? '';
    await expect(page.locator(`[id="${describedBy.split(' ').at(-1) ?? ''}"]`).innerText()).resolves.toContain('This folder can’t be added');
    await capture(page, 'app-settings-refused-field', 'a refused folder, its fields marked');

    const library = page.getByRole('checkbox', { name: /Start with the local library/ });
    await expect(library.isChecked()).resolves.toBe(true);
    await expect(library.isDisabled()).resolves.toBe(true);

    await page.getByRole('link', { name: 'Overview' }).click();
    await page.getByRole('button', { name: 'Pause for 1 hour' }).click();
    await expect.poll(() => page.locator('.overall').innerText()).toMatch(/Paused — resumes in 60 min/);
    await page.getByRole('button', { name: 'Resume syncing' }).click();
    await page.close();
  });
});
