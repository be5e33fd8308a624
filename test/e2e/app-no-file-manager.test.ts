/**
 * Where no file manager can open (the headless app on a machine without a display or xdg-open), the
 * window offers no "Show in folder" or "Open folder" that would only fail: it shows the path to copy
 * instead. The app decides once at start whether it can open paths and says so in the host info the
 * state carries. The harness's environment has no display, and it gives the app no file manager here.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { browserSuite } from './support/browser-suite.js';
import { capture } from './support/capture.js';

const suite = browserSuite({ harness: { fileManager: false } });

describe('a host that cannot open paths', { timeout: 180_000 }, () => {
  it('offers no "Show in folder" or "Open folder", and shows the path to copy', async () => {
    const h = suite.harness();
    writeFileSync(join(h.folder, 'logo.png '), 'a name that ends with a space');
    expect((await h.app.controller.getState()).host.canOpenPaths).toBe(false);

    const page = await h.open(suite.browser(), 'not-synced');
    const item = page.getByRole('listitem').filter({ hasText: 'logo.png' });
    await item.waitFor({ timeout: 45_000 });
    await expect(item.getByRole('button', { name: /^Show in folder/ }).count()).resolves.toBe(0);
    await expect(item.innerText()).resolves.toContain(h.folder);
    await capture(page, 'app-no-file-manager-not-synced', 'not synced without a file manager');

    await page.evaluate(() => (location.hash = '#/'));
    const row = page.locator('li[data-folder-id]').first();
    await row.waitFor({ timeout: 15_000 });
    await expect(page.getByRole('button', { name: /^Open folder/ }).count()).resolves.toBe(0);
    await expect(row.innerText()).resolves.toContain(h.folder);
    await page.close();
  });
});
