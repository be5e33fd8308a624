/**
 * The everyday flows from the window, against the real headless app and its real local service:
 * pause and resume, files dropped on the window, the service going away and coming back (offline with
 * a waiting count, then caught up), held deletions confirmed, and settings surviving a restart. Each
 * step leaves a screenshot and passes axe; what arrived is checked through the service's API.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { saveScreenshot } from './support/screenshot.js';
import { browserSuite } from './support/browser-suite.js';
import { capture } from './support/capture.js';
import { remoteFiles, remotePaths } from './support/headless-harness.js';

const suite = browserSuite({ harness: {} });

function folderState(page: Page, text: string | RegExp): Promise<void> {
  return page.locator('li[data-folder-id]').getByTestId('folder-state').getByText(text).waitFor({ timeout: 45_000 });
}

describe('everyday flows against the headless app', { timeout: 180_000 }, () => {
  it('pauses and resumes a folder from its row', async () => {
    const h = suite.harness();
    const page = await h.open(suite.browser());
    await folderState(page, 'Up to date');
    await page.getByRole('button', { name: 'Pause Asset Sync' }).click();
    await folderState(page, /^Paused/);
    writeFileSync(join(h.folder, 'while-paused.txt'), 'written while paused');
    // A paused folder is still looked at on disk: what waits for the resume is counted, not "Nothing waiting".
    const row = page.locator('li[data-folder-id]');
    await row.getByText('1 change waiting').waitFor({ timeout: 45_000 });
    await capture(page, 'app-paused', 'paused');
    expect(await remotePaths(h)).not.toContain('/while-paused.txt');
    await page.getByRole('button', { name: 'Resume Asset Sync' }).click();
    await folderState(page, 'Up to date');
    await expect.poll(() => remotePaths(h), { timeout: 30_000 }).toContain('/while-paused.txt');
    await page.close();
  });

  it('counts what waits while everything is paused, and sends it on resume', async () => {
    const h = suite.harness();
    const page = await h.open(suite.browser());
    await folderState(page, 'Up to date');
    await page.getByRole('button', { name: 'Pause for 1 hour' }).click();
    await page.getByRole('button', { name: 'Resume syncing' }).waitFor();
    writeFileSync(join(h.folder, 'paused-everywhere.txt'), 'written while all is paused');
    await page.locator('.overall').getByText('1 change waiting; nothing moves until you resume.').waitFor({ timeout: 45_000 });
    expect(await remotePaths(h)).not.toContain('/paused-everywhere.txt');
    await page.getByRole('button', { name: 'Resume syncing' }).click();
    await expect.poll(() => remotePaths(h), { timeout: 30_000 }).toContain('/paused-everywhere.txt');
    await folderState(page, 'Up to date');
    await page.close();
  });

  it('copies files dropped on the window into the folder, and syncs them', async () => {
    const h = suite.harness();
    const page = await h.open(suite.browser());
    await folderState(page, 'Up to date');
    writeFileSync(join(h.folder, 'taken.txt'), 'already here');
    await expect.poll(() => remotePaths(h), { timeout: 30_000 }).toContain('/taken.txt');
    // A real drop event with a DataTransfer built in the page: what the browser hands over on a drop.
    const dataTransfer = await page.evaluateHandle(() => {
      const transfer = new DataTransfer();
      transfer.items.add(new File(['a dropped file'], 'dropped.txt', { type: 'text/plain', lastModified: Date.UTC(2026, 0, 2) }));
      transfer.items.add(new File(['a second one, same name as a file in the folder'], 'taken.txt', { type: 'text/plain' }));
      return transfer;
    });
    const shell = page.locator('.shell');
    await shell.dispatchEvent('dragenter', { dataTransfer });
    await shell.dispatchEvent('dragover', { dataTransfer });
    await saveScreenshot(page, 'app-drag-over');
    await shell.dispatchEvent('drop', { dataTransfer });
    await page.getByText('Copied 2 files into “Asset Sync”. “taken.txt” was already there, so the copy is named “taken (2).txt”.').waitFor();
    expect(readFileSync(join(h.folder, 'dropped.txt'), 'utf8')).toBe('a dropped file');
    expect(readFileSync(join(h.folder, 'taken.txt'), 'utf8')).toBe('already here');
    expect(readFileSync(join(h.folder, 'taken (2).txt'), 'utf8')).toBe('a second one, same name as a file in the folder');
    await expect.poll(() => remotePaths(h), { timeout: 30_000 }).toEqual(expect.arrayContaining(['/dropped.txt', '/taken (2).txt']));
    await folderState(page, 'Up to date');
    await page.close();
  });

  it('goes offline with a waiting count when the service stops, and catches up when it is back', async () => {
    const h = suite.harness();
    const page = await h.open(suite.browser());
    await folderState(page, 'Up to date');
    await h.app.stopService();
    mkdirSync(join(h.folder, 'Offline'), { recursive: true });
    for (let index = 1; index <= 3; index += 1) writeFileSync(join(h.folder, 'Offline', `file-${index}.txt`), `offline ${index}`);
    await folderState(page, /^Offline — 3 files waiting/);
    await page.getByText(/Offline — 3 files waiting/).first().waitFor();
    await capture(page, 'app-offline', 'offline');
    await h.app.restartService();
    await page.getByRole('button', { name: 'Try now' }).click().catch(() => undefined);
    await folderState(page, 'Up to date');
    await expect.poll(() => remotePaths(h), { timeout: 30_000 }).toEqual(expect.arrayContaining(['/Offline/file-1.txt', '/Offline/file-2.txt', '/Offline/file-3.txt']));
    await page.close();
  });

  it('holds a mass deletion until it is confirmed from the window', async () => {
    const h = suite.harness();
    const page = await h.open(suite.browser());
    mkdirSync(join(h.folder, 'Batch'), { recursive: true });
    for (let index = 1; index <= 12; index += 1) writeFileSync(join(h.folder, 'Batch', `shot-${index}.txt`), `shot ${index}`);
    await expect.poll(async () => (await remotePaths(h)).filter((path) => path.startsWith('/Batch/')).length, { timeout: 45_000 }).toBe(12);
    await folderState(page, 'Up to date');
    rmSync(join(h.folder, 'Batch'), { recursive: true });
    await page.getByRole('link', { name: /Held deletions/ }).click();
    await page.getByRole('button', { name: /^Delete \d+ files$/ }).waitFor({ timeout: 45_000 });
    await capture(page, 'app-held-deletions', 'held deletions');
    expect((await remotePaths(h)).filter((path) => path.startsWith('/Batch/'))).toHaveLength(12);
    await page.getByRole('button', { name: /^Delete \d+ files$/ }).click();
    await page.getByRole('heading', { name: 'Nothing held back' }).waitFor({ timeout: 30_000 });
    // A folder's deletions can be observed over two passes (11, then 1 more); the second batch is held
    // again, and the user confirms it as well. Deletions must never happen without a confirmation.
    await expect
      .poll(
        async () => {
          const more = page.getByRole('button', { name: /^Delete \d+ files?$/ });
          if (await more.isVisible()) await more.click();
          return (await remotePaths(h)).filter((path) => path.startsWith('/Batch/')).length;
        },
        { timeout: 45_000 },
      )
      .toBe(0);
    expect(existsSync(join(h.folder, 'Batch'))).toBe(false);
    await page.close();
  });

  it('says which side held deletions happened on, and what confirming does, in each direction', async () => {
    const h = suite.harness();
    const page = await h.open(suite.browser());
    mkdirSync(join(h.folder, 'Here'), { recursive: true });
    mkdirSync(join(h.folder, 'There'), { recursive: true });
    for (let index = 1; index <= 12; index += 1) {
      writeFileSync(join(h.folder, 'Here', `shot-${index}.txt`), `here ${index}`);
      writeFileSync(join(h.folder, 'There', `shot-${index}.txt`), `there ${index}`);
    }
    await expect.poll(async () => (await remotePaths(h)).filter((path) => /^\/(Here|There)\//.test(path)).length, { timeout: 45_000 }).toBe(24);
    await folderState(page, 'Up to date');
    const card = page.locator('li.held');
    // Each side's deletions happen while paused, so the next pass sees all twelve at once.
    const whilePaused = async (deleteThem: () => Promise<void>): Promise<void> => {
      await page.getByRole('button', { name: 'Pause Asset Sync' }).click();
      await folderState(page, /^Paused/);
      await deleteThem();
      await page.getByRole('button', { name: 'Resume Asset Sync' }).click();
      await page.getByRole('link', { name: /Held deletions/ }).click();
    };

    await whilePaused(async () => rmSync(join(h.folder, 'Here'), { recursive: true }));
    await card.getByText('12 files were deleted on this computer. Confirm to delete them in the service too (they go to its bin), or restore them here.').waitFor({ timeout: 45_000 });
    await expect(card.textContent()).resolves.not.toMatch(/in the service\. Confirm to delete them on this computer/);
    await capture(page, 'app-held-deletions-computer', 'held deletions from this computer');
    expect((await remotePaths(h)).filter((path) => path.startsWith('/Here/'))).toHaveLength(12);
    await page.getByRole('button', { name: 'Delete 12 files' }).click();
    await page.getByRole('heading', { name: 'Nothing held back' }).waitFor({ timeout: 30_000 });
    await expect.poll(async () => (await remotePaths(h)).filter((path) => path.startsWith('/Here/')).length, { timeout: 45_000 }).toBe(0);
    await page.getByRole('link', { name: /Overview/ }).click();
    await folderState(page, 'Up to date');

    const api = await h.api();
    const there = (await remoteFiles(api)).filter((file) => file.path.startsWith('/There/'));
    await whilePaused(async () => {
      for (const file of there) await api.deleteAsset(file.id);
    });
    await card.getByText('12 files were deleted in the service. Confirm to delete them on this computer too (they go to the Trash), or restore them in the service.').waitFor({ timeout: 45_000 });
    await expect(card.textContent()).resolves.not.toMatch(/on this computer\. Confirm to delete them in the service/);
    await capture(page, 'app-held-deletions-service', 'held deletions from the service');
    expect(readdirSync(join(h.folder, 'There'))).toHaveLength(12);
    await page.close();
  });

  it('keeps settings across a restart of the app', async () => {
    const h = suite.harness();
    let page = await h.open(suite.browser(), 'settings');
    await page.getByRole('heading', { name: 'Settings' }).waitFor();
    await page.getByLabel('Download limit').fill('2.5');
    // A state the app sends while the user types (the upload limit changed elsewhere, as from the tray
    // or another window; any sync pass reports in the same way) leaves what is being typed alone.
    await h.app.controller.updateSettings({ uploadBytesPerSecond: 7_000_000 });
    await expect.poll(() => page.getByLabel('Upload limit').inputValue()).toBe('7');
    await expect(page.getByLabel('Download limit').inputValue()).resolves.toBe('2.5');
    await page.getByLabel('Download limit').press('Enter');
    await page.getByText('Saved.').first().waitFor();
    await page.getByRole('checkbox', { name: /Publish new folders as live/ }).check();
    await page.getByText('Saved.').first().waitFor();
    await capture(page, 'app-settings', 'settings');
    await page.close();

    await h.restart();
    page = await h.open(suite.browser(), 'settings');
    await page.getByRole('heading', { name: 'Settings' }).waitFor();
    await expect(page.getByLabel('Download limit').inputValue()).resolves.toBe('2.5');
    await expect(page.getByLabel('Upload limit').inputValue()).resolves.toBe('7');
    await expect(page.getByRole('checkbox', { name: /Publish new folders as live/ }).isChecked()).resolves.toBe(true);
    await page.close();
  });
});
