/**
 * A drop says where it goes and what each copy was named, against the real headless app: with two
 * synced folders, dragging over the second folder's row names that folder (not the first), the drop
 * lands there, and a name already taken in it is told in the notice with the name the copy got.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { browserSuite } from './support/browser-suite.js';
import { capture } from './support/capture.js';
import { saveScreenshot } from './support/screenshot.js';

const suite = browserSuite({ harness: {} });

describe('drag and drop onto a folder', { timeout: 180_000 }, () => {
  it('names the folder under the pointer, copies there, and says what a clashing name became', async () => {
    const h = suite.harness();
    const { controller } = h.app;
    for (const folder of (await controller.getState()).folders) await controller.removeFolder({ folderId: folder.id });
    const brand = join(dirname(h.folder), 'Brand');
    const design = join(dirname(h.folder), 'Design');
    mkdirSync(brand);
    mkdirSync(design);
    writeFileSync(join(design, 'README.txt'), 'already here');
    await controller.addFolder({ path: brand, remotePath: '/Brand', publishLive: false });
    await controller.addFolder({ path: design, remotePath: '/Design', publishLive: false });

    const page = await h.open(suite.browser());
    const rows = page.locator('li[data-folder-id]');
    await expect.poll(() => rows.getByTestId('folder-state').allInnerTexts(), { timeout: 45_000 }).toEqual(['Up to date', 'Up to date']);
    const dataTransfer = await page.evaluateHandle(() => {
      const transfer = new DataTransfer();
      transfer.items.add(new File(['the new readme'], 'README.txt', { type: 'text/plain' }));
      return transfer;
    });
    const designRow = rows.filter({ hasText: 'Design' });
    await page.locator('.shell').dispatchEvent('dragenter', { dataTransfer });
    await designRow.dispatchEvent('dragover', { dataTransfer });
    await expect(page.getByTestId('drop-target').innerText()).resolves.toBe('Drop to copy into “Design”');
    await saveScreenshot(page, 'app-drag-over-design');
    await designRow.dispatchEvent('drop', { dataTransfer });

    await page.getByText('Copied 1 file into “Design”. “README.txt” was already there, so the copy is named “README (2).txt”.').waitFor();
    // The drop ended the drag: the overlay is gone, also after a drop a row took.
    await page.getByTestId('drop-target').waitFor({ state: 'detached' });
    await capture(page, 'app-drop-renamed', 'a drop whose name was taken');
    expect(readFileSync(join(design, 'README.txt'), 'utf8')).toBe('already here');
    expect(readFileSync(join(design, 'README (2).txt'), 'utf8')).toBe('the new readme');
    await page.close();
  });
});
