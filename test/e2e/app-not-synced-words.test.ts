/**
 * "Not synced" speaks to a designer: each item's main line says what is wrong and what to do in plain
 * words (never an errno code like EACCES or Unicode jargon like NFC/NFD, and never the same thing
 * twice), the technical message waits behind "Details", a name that starts or ends with a space shows
 * where the space is, a folder is called a folder, and each item offers "Show in folder", which opens
 * the item's folder in the file manager. The tests run as root, who reads a mode-000 file anyway, so
 * the app gets a file system that answers EACCES for one file (the engine's file system is injected);
 * the file manager is the harness's, which records what it was asked to open.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NodeFileSystem } from '../../src/main/local/node-file-system.js';
import type { ReadHandle } from '../../src/main/local/file-system.js';
import { browserSuite } from './support/browser-suite.js';
import { capture } from './support/capture.js';

/** A real file system that refuses to open `locked.psd`, as chmod 000 would for another user. */
class LockingFileSystem extends NodeFileSystem {
  override async openRead(path: string): Promise<ReadHandle> {
    if (path.endsWith('locked.psd')) throw Object.assign(new Error(`EACCES: permission denied, open '${path}'`), { code: 'EACCES', errno: -13, syscall: 'open', path });
    return super.openRead(path);
  }
}

const suite = browserSuite({ harness: { deps: { fs: new LockingFileSystem() } } });

/** Words a designer should never meet on an item's main line. */
const JARGON = /EACCES|EPERM|errno|NFC|NFD|Unicode|normalis/i;

describe('not synced, in a designer’s words', { timeout: 180_000 }, () => {
  it('says what is wrong and what to do, marks edge spaces, calls a folder a folder and shows each in its folder', async () => {
    const h = suite.harness();
    writeFileSync(join(h.folder, 'locked.psd'), 'layers');
    writeFileSync(join(h.folder, 'logo.png '), 'a name that ends with a space');
    mkdirSync(join(h.folder, 'Old drafts '));
    writeFileSync(join(h.folder, 'Old drafts ', 'draft.txt'), 'inside a folder whose name ends with a space');
    writeFileSync(join(h.folder, 'fine.txt'), 'readable');

    for (const colorScheme of ['light', 'dark'] as const) {
      const page = await suite.browser().newPage({ colorScheme });
      await page.goto(h.app.newLink());
      await page.evaluate(() => (location.hash = '#/not-synced'));
      const items = page.getByRole('listitem');
      const locked = items.filter({ hasText: 'locked.psd' });
      const logo = items.filter({ hasText: 'logo.png' });
      const drafts = items.filter({ hasText: 'Old drafts' });
      await Promise.all([locked, logo, drafts].map((item) => item.waitFor({ timeout: 45_000 })));

      // The main lines: plain words and the fix, no codes, no sentence said twice.
      for (const item of [locked, logo, drafts]) {
        const text = await item.innerText();
        expect(text).not.toMatch(JARGON);
        const sentences = text.split(/(?<=[.!?])\s+/).map((sentence) => sentence.trim()).filter((sentence) => sentence.length > 0);
        expect(new Set(sentences).size).toBe(sentences.length);
      }
      await expect(locked.innerText()).resolves.toContain('You don’t have permission to read this file. Check its sharing or permissions, then Retry.');

      // A trailing space is shown where it is, and said in words.
      await expect(logo.innerText()).resolves.toMatch(/logo\.png␣/);
      await expect(logo.innerText()).resolves.toMatch(/ends with a space/);
      await expect(drafts.innerText()).resolves.toMatch(/Old drafts␣/);

      // A folder is called a folder; a file is not.
      await expect(drafts.innerText()).resolves.toMatch(/\bfolder\b.*ends with a space/i);
      await expect(drafts.getByText('Folder', { exact: true }).count()).resolves.toBe(1);
      await expect(logo.getByText('Folder', { exact: true }).count()).resolves.toBe(0);

      // The technical message is one click away, under "Details".
      await locked.getByText('Details').click();
      await expect(locked.innerText()).resolves.toMatch(/EACCES/);
      await expect(locked.innerText()).resolves.toMatch(/UNREADABLE/);

      await capture(page, `app-not-synced-words-${colorScheme}`, `not synced in plain words (${colorScheme})`);

      // Each item is shown in its folder by the file manager.
      for (const item of [locked, logo, drafts]) await expect(item.getByRole('button', { name: /^Show in folder/ }).count()).resolves.toBe(1);
      await page.close();
    }
    // In a narrow window too, each item keeps its words and its buttons.
    await suite.browser().newPage({ width: 800, height: 600 }).then(async (page) => {
      await page.goto(h.app.newLink());
      await page.evaluate(() => (location.hash = '#/not-synced'));
      await page.getByRole('button', { name: /^Show in folder logo\.png/ }).waitFor({ timeout: 15_000 });
      await capture(page, 'app-not-synced-words-narrow', 'not synced in plain words (800 × 600)');
      await page.getByRole('button', { name: /^Show in folder logo\.png/ }).click();
      await expect.poll(() => h.opened, { timeout: 15_000 }).toContainEqual({ path: join(h.folder, 'logo.png '), reveal: true });
      await page.close();
    });
  });
});
