/**
 * A setting takes effect in the running app, or its control says when it will, seen from the window
 * against the real headless app: switching a folder's "Publish as live" on makes the next new file
 * arrive LIVE (the file before it arrived STAGED) without a restart; the local-library control says
 * it applies from the next start; launch at login and notifications, which only the desktop app can
 * apply, say so and cannot be switched here. Light and dark screenshots of Settings, checked with axe.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { browserSuite } from './support/browser-suite.js';
import { capture } from './support/capture.js';
import { remoteFiles, type HeadlessHarness } from './support/headless-harness.js';

const suite = browserSuite({ harness: {} });

/** The lifecycle state the service gave the asset at `path`, once it has arrived. */
async function arrivedState(h: HeadlessHarness, path: string): Promise<string | undefined> {
  return (await remoteFiles(await h.api())).find((file) => file.path === path)?.state;
}

/** The Settings check box labelled `name` with the hint beside it. */
function settingHint(page: Page, name: string): Promise<string> {
  return page.locator('label.check').filter({ hasText: name }).locator('.hint').innerText();
}

describe('settings take effect in the running app, against the headless app', { timeout: 180_000 }, () => {
  it('switching a folder to "Publish as live" makes the next new file arrive LIVE, without a restart', async () => {
    const h = suite.harness();
    const page = await h.open(suite.browser());
    await page.locator('li[data-folder-id]').getByTestId('folder-state').getByText('Up to date').waitFor({ timeout: 45_000 });

    writeFileSync(join(h.folder, 'before.txt'), 'drafted');
    await expect.poll(() => arrivedState(h, '/before.txt'), { timeout: 45_000 }).toBe('STAGED');

    await page.getByRole('link', { name: 'Settings' }).click();
    const folder = page.locator('li.folder').filter({ hasText: h.folder });
    await folder.getByRole('checkbox', { name: 'Publish as live' }).check();
    await page.getByText('Saved.').waitFor();
    expect((await h.app.controller.getState()).folders[0]?.publishLive).toBe(true);

    writeFileSync(join(h.folder, 'after.txt'), 'published');
    await expect.poll(() => arrivedState(h, '/after.txt'), { timeout: 45_000 }).toBeDefined();
    expect(await arrivedState(h, '/after.txt')).toBe('LIVE');
    // Publishing applies to new files only: the file before stays a draft.
    expect(await arrivedState(h, '/before.txt')).toBe('STAGED');
    await page.close();
  });

  it('says which controls apply from the next start or only in the desktop app', async () => {
    const h = suite.harness();
    for (const colorScheme of ['light', 'dark'] as const) {
      const page = await suite.browser().newPage({ colorScheme });
      await page.goto(h.app.newLink());
      await page.getByRole('link', { name: 'Settings' }).click();
      await page.getByRole('heading', { name: 'On this computer' }).waitFor();

      // While the local library is the account, every start uses it: the choice shows on, and says when it matters.
      expect(await settingHint(page, 'Start with the local library')).toBe('You use the local library now, so Asset Sync starts with it. This choice matters once you sign in to a server instead.');
      await expect(page.getByRole('checkbox', { name: 'Start with the local library' }).isChecked()).resolves.toBe(true);
      expect(await settingHint(page, 'Open Asset Sync when I log in')).toBe('Only in the desktop app: here, Asset Sync runs while the terminal that started it stays open.');
      await expect(page.getByRole('checkbox', { name: 'Open Asset Sync when I log in' }).isDisabled()).resolves.toBe(true);
      await expect(page.getByRole('checkbox', { name: 'Open Asset Sync when I log in' }).isChecked()).resolves.toBe(false);
      expect(await settingHint(page, 'Notifications')).toMatch(/^Only in the desktop app/);
      // Nothing in the headless app notifies: the box does not show them as on (the stored default).
      await expect(page.getByRole('checkbox', { name: 'Notifications' }).isDisabled()).resolves.toBe(true);
      await expect(page.getByRole('checkbox', { name: 'Notifications' }).isChecked()).resolves.toBe(false);

      await page.getByRole('heading', { name: 'On this computer' }).scrollIntoViewIfNeeded();
      await capture(page, `app-settings-${colorScheme}`, `settings (${colorScheme})`);
      await page.close();
    }
  });
});
