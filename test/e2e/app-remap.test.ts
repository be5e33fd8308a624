/**
 * A folder's place in the service changes at once, and only after the user chose what happens to what
 * is already in the old place, seen from the window against the real headless app. Typing a new place
 * asks first, in words that say what each choice does (Cancel changes nothing); "Move it" takes the old
 * place's files along, and the next new file lands in the new place without a restart; "Leave it" keeps
 * the old place's files and uploads the folder's files to the new place; after a restart the next file
 * still lands there. No file on this computer is moved or goes to the Trash at any step. Light and dark
 * screenshots of the question, wide and at 800×600, each checked with axe.
 */
import { readdirSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { createFreedesktopTrash } from '../../src/main/local/index.js';
import { tempDir } from '../support/temp-dir.js';
import { browserSuite } from './support/browser-suite.js';
import { capture } from './support/capture.js';
import { remoteFiles, type HeadlessHarness } from './support/headless-harness.js';

const trashHome = tempDir('asset-sync-e2e-trash-');
const suite = browserSuite({ harness: { deps: { trash: createFreedesktopTrash({ dataHome: trashHome }) } } });

/** The files in the service under `place`, relative to it, sorted. */
async function filesIn(h: HeadlessHarness, place: string): Promise<string[]> {
  return (await remoteFiles(await h.api())).flatMap((file) => (file.path.startsWith(`${place}/`) ? [file.path.slice(place.length + 1)] : [])).sort();
}

/** What the app's trash holds: nothing, at every step of this test. */
const trashed = (): string[] => (existsSync(join(trashHome, 'Trash', 'files')) ? readdirSync(join(trashHome, 'Trash', 'files')) : []);

/** Types a new place for the folder and leaves the field, which asks the question. */
async function typePlace(page: Page, folder: string, place: string): Promise<void> {
  const field = page.locator('li.folder').filter({ hasText: folder }).getByLabel('Folder in the service');
  await field.fill(place);
  await field.press('Enter');
  await field.blur();
}

describe('changing a folder’s place in the service, against the headless app', { timeout: 240_000 }, () => {
  it('asks what happens to the old place first, takes effect at once, and never moves a local file to the Trash', async () => {
    const h = suite.harness();
    const state = await h.app.controller.getState();
    const folderId = state.folders[0]?.id ?? '';
    await h.app.controller.updateFolder({ folderId, remotePath: '/ReproA', remap: 'leave' });
    writeFileSync(join(h.folder, 'a.txt'), 'a');
    writeFileSync(join(h.folder, 'b.txt'), 'b');
    await expect.poll(() => filesIn(h, '/ReproA'), { timeout: 45_000 }).toEqual(['a.txt', 'b.txt']);

    for (const colorScheme of ['light', 'dark'] as const) {
      const page = await suite.browser().newPage({ colorScheme });
      await page.goto(h.app.newLink());
      await page.locator('li[data-folder-id]').getByTestId('folder-state').getByText('Up to date').waitFor({ timeout: 45_000 });
      await page.getByRole('link', { name: 'Settings' }).click();
      await typePlace(page, h.folder, '/ReproB');
      const question = page.getByRole('group', { name: /^Sync this folder with \/ReproB instead of \/ReproA\?/ });
      await question.waitFor();
      expect(await question.locator('p').first().textContent()).toBe('Sync this folder with /ReproB instead of /ReproA? Files on this computer stay where they are. What happens to what is already in /ReproA?');
      const move = question.getByRole('button', { name: 'Move it to /ReproB' });
      const leave = question.getByRole('button', { name: 'Leave it in /ReproA' });
      expect(await move.getAttribute('aria-describedby').then((id) => page.locator(`#${id ?? ''}`).textContent())).toBe('/ReproA and its 2 files move to /ReproB in the service. Nothing uploads again, and /ReproA is no longer there.');
      expect(await leave.getAttribute('aria-describedby').then((id) => page.locator(`#${id ?? ''}`).textContent())).toBe('/ReproA keeps its 2 files. This folder’s files upload to /ReproB, next to anything already there.');
      // Asked, not done: the folder keeps its place until a choice is made.
      expect((await h.app.controller.getState()).folders[0]?.remotePath).toBe('/ReproA');
      expect(await question.evaluate((element) => element === document.activeElement)).toBe(true);
      await capture(page, `app-remap-question-${colorScheme}`, `remap question (${colorScheme})`);
      await page.setViewportSize({ width: 800, height: 600 });
      await question.scrollIntoViewIfNeeded();
      await capture(page, `app-remap-question-800-${colorScheme}`, `remap question, 800×600 (${colorScheme})`);
      await page.setViewportSize({ width: 1280, height: 800 });

      if (colorScheme === 'light') {
        await question.getByRole('button', { name: 'Cancel' }).click();
        await question.waitFor({ state: 'detached' });
        expect(await page.getByLabel('Folder in the service').first().inputValue()).toBe('/ReproA');
        expect((await h.app.controller.getState()).folders[0]?.remotePath).toBe('/ReproA');
        await page.close();
        continue;
      }

      await move.click();
      await page.getByText('Moved to /ReproB, with its files. New files go there now.').waitFor();
      await question.waitFor({ state: 'detached' });
      // In effect at once: the next new file lands in the new place, without a restart.
      writeFileSync(join(h.folder, 'new.txt'), 'new');
      await expect.poll(() => filesIn(h, '/ReproB'), { timeout: 45_000 }).toEqual(['a.txt', 'b.txt', 'new.txt']);
      expect(await filesIn(h, '/ReproA')).toEqual([]);
      await page.getByRole('link', { name: 'Overview' }).click();
      await page.locator('li[data-folder-id]').getByText('→ /ReproB').waitFor();
      await page.locator('li[data-folder-id]').getByTestId('folder-state').getByText('Up to date').waitFor({ timeout: 45_000 });
      expect(readdirSync(h.folder).sort()).toEqual(['.asset-sync', 'a.txt', 'b.txt', 'new.txt']);
      expect(trashed()).toEqual([]);

      // Leave: the old place keeps its files; the folder's files upload to the new place.
      await page.getByRole('link', { name: 'Settings' }).click();
      await typePlace(page, h.folder, '/ReproC');
      await page.getByRole('group', { name: /^Sync this folder with \/ReproC/ }).getByRole('button', { name: 'Leave it in /ReproB' }).click();
      await page.getByText('Now syncing with /ReproC; /ReproB keeps its files. New files go to /ReproC now.').waitFor();
      writeFileSync(join(h.folder, 'next.txt'), 'next');
      await expect.poll(() => filesIn(h, '/ReproC'), { timeout: 45_000 }).toEqual(['a.txt', 'b.txt', 'new.txt', 'next.txt']);
      expect(await filesIn(h, '/ReproB')).toEqual(['a.txt', 'b.txt', 'new.txt']);
      expect(trashed()).toEqual([]);
      await page.close();
    }

    // After a restart the folder syncs with its new place, and still nothing goes to the Trash.
    await h.restart();
    writeFileSync(join(h.folder, 'later.txt'), 'later');
    await expect.poll(() => filesIn(h, '/ReproC'), { timeout: 45_000 }).toEqual(['a.txt', 'b.txt', 'later.txt', 'new.txt', 'next.txt']);
    const page = await h.open(suite.browser());
    await page.locator('li[data-folder-id]').getByTestId('folder-state').getByText('Up to date').waitFor({ timeout: 45_000 });
    expect(readdirSync(h.folder).sort()).toEqual(['.asset-sync', 'a.txt', 'b.txt', 'later.txt', 'new.txt', 'next.txt']);
    expect(trashed()).toEqual([]);
    await page.close();
  });
});
