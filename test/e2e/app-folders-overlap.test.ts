/**
 * Two synced folders never overlap, seen from the window against the real headless app: beside the
 * default folder, which syncs the whole service (/), adding ~/Design → /Design is refused on the
 * add-folder form with the reason and a way out, and nothing is added or left on disk; light and dark
 * screenshots of the refusal, each checked with axe.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { browserSuite } from './support/browser-suite.js';
import { capture } from './support/capture.js';

const suite = browserSuite({ harness: {} });

describe('overlapping folders, against the headless app', { timeout: 180_000 }, () => {
  it('refuses ~/Design → /Design beside the default folder that syncs /, on the form, with its reason', async () => {
    const h = suite.harness();
    const design = join(dirname(h.folder), 'Design');
    for (const colorScheme of ['light', 'dark'] as const) {
      const page = await suite.browser().newPage({ colorScheme });
      await page.goto(h.app.newLink());
      await page.locator('li[data-folder-id]').getByTestId('folder-state').getByText('Up to date').waitFor({ timeout: 45_000 });
      await page.getByRole('link', { name: 'Settings' }).click();
      await page.getByText('Add a folder').click();
      await page.getByLabel('Folder on this computer').fill(design);
      await page.getByLabel('Folder in the service').last().fill('/Design');
      await page.getByRole('button', { name: 'Add folder' }).click();

      const refusal = page.getByRole('alert').filter({ hasText: 'This folder can’t be added' });
      await refusal.waitFor();
      expect(await refusal.textContent()).toContain(
        `/Design in the service is already synced by ${h.folder}, which syncs the whole service (/): its files are in ${join(h.folder, 'Design')}. ` +
          `Use that folder, or first narrow ${h.folder} to a folder in the service that does not hold /Design.`,
      );
      // The reason takes the focus, where the keyboard and a screen reader find it.
      expect(await refusal.evaluate((element) => element === document.activeElement)).toBe(true);
      await refusal.scrollIntoViewIfNeeded();
      await capture(page, `app-folders-overlap-${colorScheme}`, `overlapping folder refused (${colorScheme})`);

      const state = await h.app.controller.getState();
      expect(state.folders.map((folder) => folder.path)).toEqual([h.folder]);
      expect(existsSync(design)).toBe(false);
      // A state push (a setting changed elsewhere, here the upload limit) re-renders the view: the form the
      // person is typing in stays open, with what they typed.
      await h.app.controller.updateSettings({ uploadBytesPerSecond: 5_000_000 });
      await expect.poll(async () => page.getByLabel('Upload limit').inputValue()).not.toBe('');
      expect(await page.getByLabel('Folder on this computer').isVisible()).toBe(true);
      expect(await page.getByLabel('Folder on this computer').inputValue()).toBe(design);
      // Editing the form takes the refusal away.
      await page.getByLabel('Folder in the service').last().fill('/Design2');
      await refusal.waitFor({ state: 'detached' });
      // The next round's screenshot shows the settings as a person left them.
      await h.app.controller.updateSettings({ uploadBytesPerSecond: null });
      await page.close();
    }
  });
});
