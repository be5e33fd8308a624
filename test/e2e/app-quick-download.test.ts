/**
 * Quick download from the window (issue 18), against the real headless app and its real local service
 * on 127.0.0.1: a JPEG made with sharp is synced up, found by typing in the search box, and downloaded
 * through a preset (checked on disk with sharp's metadata, next to a file of the same name it must not
 * replace) and as the original (the same bytes). The tray's menu, built from the app's real state, then
 * offers it again. The results' thumbnails are the service's small variants of the previews (`?size=`).
 * The view passes axe and leaves docs/screenshot-quick-download.png.
 */
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { checkAccessibility } from './support/check-accessibility.js';
import { buildTrayMenu, type TrayMenuItem } from '../../src/main/desktop/tray-menu.js';
import { searchCriterion } from '../../src/main/app/fetch-verified-file.js';
import { tempDir } from '../support/temp-dir.js';
import { makePdf } from '../support/media-fixtures.js';
import { capture } from './support/capture.js';
import { browserSuite } from './support/browser-suite.js';
import { remotePaths } from './support/headless-harness.js';

const docsScreenshot = fileURLToPath(new URL('../../docs/screenshot-quick-download.png', import.meta.url));

/** A real image made with sharp: a sky over a sea, with a lighthouse (so the thumbnails show something). */
function makeImage(width: number, height: number, format: 'jpeg' | 'png'): Promise<Buffer> {
  const sea = { create: { width, height: Math.round(height / 3), channels: 3 as const, background: { r: 30, g: 80, b: 140 } } };
  const tower = { create: { width: Math.round(width / 10), height: Math.round(height / 2), channels: 3 as const, background: { r: 235, g: 235, b: 230 } } };
  const image = sharp({ create: { width, height, channels: 3, background: { r: 240, g: 160, b: 90 } } }).composite([
    { input: sea, left: 0, top: height - Math.round(height / 3) },
    { input: tower, left: Math.round(width * 0.6), top: Math.round(height / 4) },
  ]);
  return format === 'png' ? image.png().toBuffer() : image.jpeg({ quality: 90 }).toBuffer();
}

const downloads = tempDir('asset-sync-downloads-');

const suite = browserSuite({ harness: { downloadsDir: downloads } });

function flatLabels(items: readonly TrayMenuItem[]): string[] {
  return items.flatMap((item) => (item.kind === 'separator' ? [] : item.kind === 'submenu' ? [item.label, ...flatLabels(item.items)] : [item.label]));
}

describe('quick download from the window', { timeout: 180_000 }, () => {
  it('finds a JPEG as you type, downloads it through a preset and as the original, and offers it again in the tray', async () => {
    const h = suite.harness();
    const photo = await makeImage(2400, 1600, 'jpeg');
    writeFileSync(join(h.folder, 'lighthouse-quick.jpg'), photo);
    writeFileSync(join(h.folder, 'lighthouse-sketch.png'), await makeImage(640, 480, 'png'));
    await expect.poll(async () => (await remotePaths(h)), { timeout: 45_000 }).toEqual(expect.arrayContaining(['/lighthouse-quick.jpg', '/lighthouse-sketch.png']));
    // A JPEG's and a PNG's previews are their own bytes, there at once; wait for the search to find both.
    const api = await h.api();
    await expect
      .poll(async () => (await api.searchAssets({ criterion: searchCriterion('lighthouse'), sorts: [{ field: { type: 'FIXED', fieldName: 'FILENAME' }, order: 'ASC' }], pageSize: 10 })).results.filter((envelope) => typeof envelope.result.currentAssetFile?.previewUrl === 'string').length, { timeout: 30_000 })
      .toBe(2);
    // A different file already has the name the preset's output gets: it must be kept.
    writeFileSync(join(downloads, 'lighthouse-quick (Thumbnail 300 px WEBP).webp'), 'not the download');

    const page = await h.open(suite.browser(), 'quick-download');
    await page.getByRole('heading', { name: 'Quick download' }).waitFor();
    const search = page.getByRole('combobox', { name: 'Search assets' });
    await search.pressSequentially('lightho');
    const options = page.getByRole('listbox', { name: 'Search results' }).getByRole('option');
    await options.filter({ hasText: 'lighthouse-sketch.png' }).waitFor();
    expect(await options.allTextContents()).toEqual([expect.stringContaining('lighthouse-quick.jpg'), expect.stringContaining('lighthouse-sketch.png')]);
    // Both thumbnails load: small images the service made for the size asked (not the 2400 px original).
    const thumbnails = page.locator('#qd-results img');
    await expect.poll(() => thumbnails.count()).toBe(2);
    await expect
      .poll(() => thumbnails.evaluateAll((images: HTMLImageElement[]) => images.map((image) => ({ loaded: image.complete && image.naturalWidth > 0, width: image.naturalWidth, sized: new URL(image.src).searchParams.get('size') }))), { timeout: 30_000 })
      .toEqual([
        { loaded: true, width: 128, sized: '128' },
        { loaded: true, width: 128, sized: '128' },
      ]);
    await capture(page, 'app-quick-download-thumbnails', 'quick download results with thumbnails');

    // The first result is highlighted; Down and Up move the highlight while focus stays in the box.
    await search.press('ArrowDown');
    await expect(options.nth(1).getAttribute('aria-selected')).resolves.toBe('true');
    await search.press('ArrowUp');
    await expect(options.nth(0).getAttribute('aria-selected')).resolves.toBe('true');
    await expect(search.getAttribute('aria-activedescendant')).resolves.toBe('qd-option-0');

    await page.getByRole('radio', { name: 'Thumbnail (300 px WEBP)' }).check();
    await checkAccessibility(page, 'quick download');
    await search.focus();
    await search.press('Enter');
    // A rendition is named for its preset, so it never takes the name the original would have.
    await page.getByText('Downloaded lighthouse-quick (Thumbnail 300 px WEBP) (2).webp.').waitFor({ timeout: 30_000 });
    await page.getByRole('button', { name: 'Show in folder lighthouse-quick (Thumbnail 300 px WEBP) (2).webp' }).waitFor();
    await page.screenshot({ path: docsScreenshot, animations: 'disabled', caret: 'hide' });

    expect(readFileSync(join(downloads, 'lighthouse-quick (Thumbnail 300 px WEBP).webp'), 'utf8')).toBe('not the download');
    expect(await sharp(join(downloads, 'lighthouse-quick (Thumbnail 300 px WEBP) (2).webp')).metadata()).toMatchObject({ format: 'webp', width: 300, height: 200 });

    await page.getByRole('radio', { name: /^Original/ }).check();
    await page.getByRole('button', { name: 'Download lighthouse-quick.jpg (Original)' }).click();
    await page.getByText('Downloaded lighthouse-quick.jpg (original).').waitFor({ timeout: 30_000 });
    expect(readFileSync(join(downloads, 'lighthouse-quick.jpg')).equals(photo)).toBe(true);
    expect(readdirSync(downloads).sort()).toEqual(['lighthouse-quick (Thumbnail 300 px WEBP) (2).webp', 'lighthouse-quick (Thumbnail 300 px WEBP).webp', 'lighthouse-quick.jpg']);
    await checkAccessibility(page, 'quick download, after two downloads');

    // The tray, from the app's real state: the asset once, with the preset used last.
    const state = await h.app.controller.getState();
    expect(state.quickDownload.recent.map((entry) => [entry.filename, entry.presetName])).toEqual([['lighthouse-quick.jpg', 'Original']]);
    const labels = flatLabels(buildTrayMenu(state, []));
    expect(labels).toEqual(expect.arrayContaining(['Quick download', 'lighthouse-quick.jpg — Original', 'Thumbnail (300 px WEBP)…', 'Search…']));
    await page.close();
  });

  it('lands files in the folder chosen in the settings, and refuses one that is not a full path', async () => {
    const h = suite.harness();
    const elsewhere = join(downloads, 'Elsewhere');
    const page = await h.open(suite.browser(), 'settings');
    const field = page.getByLabel('Download folder');
    await field.fill('relative/folder');
    await field.press('Enter');
    await page.getByText(/The download folder must be a full path/).waitFor();
    await field.fill(elsewhere);
    await field.press('Enter');
    await page.getByText('Saved.').first().waitFor();
    await expect.poll(async () => (await h.app.controller.getState()).quickDownload.folder).toBe(elsewhere);

    await page.getByRole('link', { name: 'Quick download' }).click();
    // The view renders the published state: wait for it, then there is exactly one such line.
    await page.getByText(`Files go to ${elsewhere}.`).waitFor();
    await expect(page.getByText(`Files go to ${elsewhere}.`).count()).resolves.toBe(1);
    const search = page.getByRole('combobox', { name: 'Search assets' });
    await search.fill('sketch');
    await page.getByRole('option', { name: /lighthouse-sketch\.png/ }).waitFor();
    await page.getByRole('radio', { name: 'Web (1000 px JPG)' }).check();
    await page.getByRole('button', { name: 'Download lighthouse-sketch.png (Web (1000 px JPG))' }).click();
    await page.getByRole('button', { name: /^Show in folder lighthouse-sketch/ }).waitFor({ timeout: 30_000 });
    const [landed] = readdirSync(elsewhere);
    expect(landed).toBe('lighthouse-sketch (Web 1000 px JPG).jpg');
    // A 640 px wide PNG is not enlarged to 1000 px, only converted.
    expect(await sharp(join(elsewhere, landed ?? '')).metadata()).toMatchObject({ format: 'jpeg', width: 640, height: 480 });
    await page.close();
  });

  it('offers a PDF only as it is, and says so, while an image keeps its presets', async () => {
    const h = suite.harness();
    writeFileSync(join(h.folder, 'harbour-brief.pdf'), await makePdf(1));
    await expect.poll(async () => (await remotePaths(h)), { timeout: 45_000 }).toContain('/harbour-brief.pdf');
    const page = await h.open(suite.browser(), 'quick-download');
    const search = page.getByRole('combobox', { name: 'Search assets' });
    await search.fill('harbour-brief');
    await page.getByRole('option', { name: /harbour-brief\.pdf/ }).waitFor();
    await page.getByRole('option', { name: /harbour-brief\.pdf/ }).click();
    await page.getByTestId('only-original').waitFor();
    await expect(page.getByTestId('only-original').innerText()).resolves.toBe('No preset applies to “harbour-brief.pdf”: it downloads as it is.');
    await expect(page.getByRole('radio').count()).resolves.toBe(1);
    await expect(page.getByRole('radio', { name: /^Original/ }).isChecked()).resolves.toBe(true);
    await capture(page, 'app-quick-download-pdf', 'quick download of a PDF');
    await page.getByRole('button', { name: 'Download harbour-brief.pdf (Original)' }).click();
    await page.getByText('Downloaded harbour-brief.pdf (original).').waitFor({ timeout: 30_000 });

    // An image, next: the presets are back.
    await search.fill('lighthouse-quick');
    await page.getByRole('option', { name: /lighthouse-quick\.jpg/ }).click();
    await page.getByRole('radio', { name: 'Web (1000 px JPG)' }).waitFor();
    await expect(page.getByTestId('only-original').count()).resolves.toBe(0);
    await page.close();
  });
});
