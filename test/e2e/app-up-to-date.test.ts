/**
 * "Up to date" is a promise: the window never says it (on a folder's row or in the header) while a
 * file waits, could not sync, or a deletion is held, and with no folders it says nothing is synced
 * yet. A watcher in the page records every moment the DOM breaks that promise, from the first paint
 * to the last step; the test fails on any. The held deletion comes from the service's side (a
 * colleague deletes a batch), which the guard holds on this computer. The tests run as root, who reads a mode-000 file anyway, so
 * the app gets a file system that answers EACCES for one file (the engine's file system is injected).
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { NodeFileSystem } from '../../src/main/local/node-file-system.js';
import type { ReadHandle } from '../../src/main/local/file-system.js';
import { browserSuite } from './support/browser-suite.js';
import { capture } from './support/capture.js';
import { remoteFiles, remotePaths } from './support/headless-harness.js';

/** A real file system that refuses to open `locked.psd`, as chmod 000 would for another user. */
class LockingFileSystem extends NodeFileSystem {
  override async openRead(path: string): Promise<ReadHandle> {
    if (path.endsWith('locked.psd')) throw Object.assign(new Error(`EACCES: permission denied, open '${path}'`), { code: 'EACCES', errno: -13, syscall: 'open', path });
    return super.openRead(path);
  }
}

const suite = browserSuite({ harness: { deps: { fs: new LockingFileSystem() } } });

/**
 * Starts recording, in the page, every DOM state where "up to date" stands beside a count of files
 * waiting, not synced or deletions held: on a folder's row (its label and its chips or detail line) or
 * in the header (its label and any row's chips). Read the record with `brokenPromises`.
 */
async function watchForBrokenPromises(page: Page): Promise<void> {
  await page.evaluate(() => {
    const seen: string[] = [];
    const record = (): void => {
      const rows = [...document.querySelectorAll('li[data-folder-id]')];
      const counts = rows.flatMap((row) => [...row.querySelectorAll('.attention .chip, .detail')].map((node) => node.textContent)).filter((text) => /waiting|not synced|held/.test(text));
      for (const row of rows) {
        const label = row.querySelector('[data-testid="folder-state"]')?.textContent ?? '';
        const beside = [...row.querySelectorAll('.attention .chip, .detail')].map((node) => node.textContent).filter((text) => /waiting|not synced|held/.test(text));
        if (/up to date/i.test(label) && beside.length > 0) seen.push(`row: ${label} · ${beside.join(' · ')}`);
      }
      const header = document.querySelector('.overall')?.textContent ?? '';
      if (/up to date/i.test(header) && counts.length > 0) seen.push(`header: ${header} · ${counts.join(' · ')}`);
    };
    record();
    new MutationObserver(record).observe(document.body, { subtree: true, childList: true, characterData: true });
    Object.assign(window, { brokenPromises: seen });
  });
}

function brokenPromises(page: Page): Promise<string[]> {
  return page.evaluate(() => (window as unknown as { brokenPromises: string[] }).brokenPromises);
}

function folderState(page: Page): Promise<string> {
  return page.locator('li[data-folder-id]').getByTestId('folder-state').innerText();
}

describe('"Up to date" only when it is', { timeout: 180_000 }, () => {
  it('never shows beside a file that cannot be read or a held mass deletion', async () => {
    const h = suite.harness();
    writeFileSync(join(h.folder, 'locked.psd'), 'layers');
    writeFileSync(join(h.folder, 'fine.txt'), 'readable');
    mkdirSync(join(h.folder, 'Batch'), { recursive: true });
    for (let index = 1; index <= 12; index += 1) writeFileSync(join(h.folder, 'Batch', `shot-${index}.txt`), `shot ${index}`);
    const page = await h.open(suite.browser());
    await watchForBrokenPromises(page);

    const row = page.locator('li[data-folder-id]');
    await row.getByRole('button', { name: '1 file not synced' }).waitFor({ timeout: 45_000 });
    await expect.poll(async () => (await remotePaths(h)).length, { timeout: 45_000 }).toBe(13);
    await expect.poll(() => folderState(page), { timeout: 45_000 }).toBe('Needs your attention');
    await expect(page.locator('.overall').innerText()).resolves.toMatch(/Needs your attention/);

    // A colleague bins the batch in the web app, in one go: the guard holds the 12 deletions on this computer.
    const api = await h.api();
    const batch = (await remoteFiles(api)).filter((file) => file.path.startsWith('/Batch/')).map((file) => file.id);
    await api.transitionLifecycle({ type: 'BY_IDS', assetIds: batch }, 'BINNED');
    await row.getByRole('button', { name: '12 deletions held for you to check' }).waitFor({ timeout: 45_000 });
    await expect.poll(() => folderState(page), { timeout: 45_000 }).toBe('Needs your attention');
    await capture(page, 'app-overview-attention', 'overview with a held deletion and a file not synced');
    expect(existsSync(join(h.folder, 'Batch', 'shot-1.txt'))).toBe(true);
    expect(await brokenPromises(page)).toEqual([]);
    await page.close();
  });
});
