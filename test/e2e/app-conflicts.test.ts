/**
 * Conflicts made for real — a file edited on this computer while a colleague uploads a new version
 * through the API — and resolved from the window each of the three ways, checked on disk and in the
 * service: keep mine (our edit becomes the service's version, no copy left), keep theirs (the copy
 * goes, the service's version stays), keep both (the copy becomes an asset of its own). "Keep mine"
 * and "Keep theirs" ask first, saying where the other version goes, and nothing happens until the
 * answer; the toast after says where it went. Images show both versions as thumbnails (the service's
 * preview, and one the app makes of the local copy), and the service's version says who made it: the
 * signed-in user is "you", never "someone else". Light and dark screenshots, checked with axe.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { remoteFiles } from './support/headless-harness.js';
import { md5Hex } from '../support/checksums.js';
import { browserSuite } from './support/browser-suite.js';
import { capture } from './support/capture.js';

const names = ['mine', 'theirs', 'both'] as const;

/** What the app asked the system to open (nothing is really opened in a test). */
const opened: string[] = [];
const suite = browserSuite({ harness: { deps: { openPath: async (path) => void opened.push(path) } } });

describe('conflicts resolved from the window', { timeout: 240_000 }, () => {
  it('lists a conflict per file with both versions, and resolves each of the three ways', async () => {
    const h = suite.harness();
    const docs = join(h.folder, 'Docs');
    mkdirSync(docs, { recursive: true });
    for (const name of names) writeFileSync(join(docs, `${name}.txt`), `${name}: base`);
    // Wait for the three files themselves: an asset whose upload is still running has no file name yet.
    const docPaths = names.map((name) => `/Docs/${name}.txt`).sort();
    await expect.poll(async () => (await remoteFiles(await h.api())).filter((file) => file.path.startsWith('/Docs/')).map((file) => file.path), { timeout: 45_000 }).toEqual(docPaths);
    const ids = new Map((await remoteFiles(await h.api())).map((file) => [file.path, file.id]));

    // Both sides change every file while the folder is paused, so the next pass sees both changed.
    const folderId = (await h.app.controller.getState()).folders[0]!.id;
    await h.app.controller.pause({ folderId, span: 'until-resumed' });
    for (const name of names) {
      writeFileSync(join(docs, `${name}.txt`), `${name}: my edit`);
      await h.newVersion(ids.get(`/Docs/${name}.txt`)!, `${name}: their edit`);
    }
    await h.app.controller.resume({ folderId });

    const page = await h.open(suite.browser(), 'conflicts');
    for (const name of names) await page.getByRole('heading', { name: `${name}.txt` }).waitFor({ timeout: 45_000 });
    await capture(page, 'app-conflicts', 'conflicts');

    for (const name of names) {
      const keep = { mine: 'Keep mine', theirs: 'Keep theirs', both: 'Keep both' }[name];
      const choices = page.getByRole('group', { name: `Resolve ${name}.txt` });
      await choices.getByRole('button', { name: keep }).click();
      // Keeping one version asks first; keeping both loses nothing and goes ahead.
      if (name !== 'both') await page.getByRole('group', { name: `Confirm: ${keep.toLowerCase()} for ${name}.txt` }).getByRole('button', { name: keep }).click();
      await page.getByRole('heading', { name: `${name}.txt` }).waitFor({ state: 'detached', timeout: 30_000 });
    }
    await page.getByRole('heading', { name: 'No conflicts' }).waitFor();

    const copies = (): string[] => readdirSync(docs).filter((entry) => entry.includes('(conflict '));
    await expect.poll(() => copies().length, { timeout: 45_000 }).toBe(1);
    expect(copies()[0]).toMatch(/^both \(conflict \d{4}-\d\d-\d\d \d{6}\)\.txt$/);
    expect(readFileSync(join(docs, 'mine.txt'), 'utf8')).toBe('mine: my edit');
    expect(readFileSync(join(docs, 'theirs.txt'), 'utf8')).toBe('theirs: their edit');
    expect(readFileSync(join(docs, 'both.txt'), 'utf8')).toBe('both: their edit');
    expect(readFileSync(join(docs, copies()[0]!), 'utf8')).toBe('both: my edit');

    const expected = { '/Docs/mine.txt': md5Hex('mine: my edit'), '/Docs/theirs.txt': md5Hex('theirs: their edit'), '/Docs/both.txt': md5Hex('both: their edit'), [`/Docs/${copies()[0]!}`]: md5Hex('both: my edit') };
    await expect
      .poll(async () => Object.fromEntries((await remoteFiles(await h.api())).filter((file) => file.path.startsWith('/Docs/')).map((file) => [file.path, file.checksum])), { timeout: 45_000 })
      .toEqual(expected);
    expect(existsSync(join(docs, 'mine.txt'))).toBe(true);
    await page.close();
  });
});

/** A small PNG of one colour, so both versions of a file are images the service and the app can preview. */
function png(red: number, green: number, blue: number): Promise<Buffer> {
  return sharp({ create: { width: 64, height: 48, channels: 3, background: { r: red, g: green, b: blue } } }).png().toBuffer();
}

/** Whether the image has loaded real pixels (a broken or blocked image has naturalWidth 0). */
function loaded(image: Locator): Promise<boolean> {
  return image.evaluate((element) => element instanceof HTMLImageElement && element.complete && element.naturalWidth > 0).catch(() => false);
}

/** The "By" line of one version of a conflict card. */
async function byLine(page: Page, file: string, version: string): Promise<string> {
  return (await page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: file }) }).getByRole('group', { name: version }).innerText()).replace(/\s+/g, ' ');
}

describe('both versions of a conflict, and a choice asked before it is made', { timeout: 240_000 }, () => {
  it('shows both thumbnails and who changed each, asks before keeping theirs, and says where the other version went', async () => {
    const h = suite.harness();
    const shots = join(h.folder, 'Shots');
    mkdirSync(shots, { recursive: true });
    writeFileSync(join(shots, 'own.png'), await png(200, 40, 40));
    writeFileSync(join(shots, 'mia.png'), await png(40, 40, 200));
    const shotPaths = ['/Shots/mia.png', '/Shots/own.png'];
    await expect.poll(async () => (await remoteFiles(await h.api())).filter((file) => file.path.startsWith('/Shots/')).map((file) => file.path), { timeout: 45_000 }).toEqual(shotPaths);
    const ids = new Map((await remoteFiles(await h.api())).map((file) => [file.path, file.id]));

    // own.png changes in the service as the app's own user (the local library's admin); mia.png as Mia Chen.
    const folderId = (await h.app.controller.getState()).folders[0]!.id;
    await h.app.controller.pause({ folderId, span: 'until-resumed' });
    writeFileSync(join(shots, 'own.png'), await png(240, 200, 40));
    writeFileSync(join(shots, 'mia.png'), await png(40, 200, 240));
    await h.newVersion(ids.get('/Shots/own.png')!, await png(40, 160, 60));
    await h.newVersion(ids.get('/Shots/mia.png')!, await png(160, 40, 160), { email: 'mia@example.com', name: 'Mia Chen' });
    await h.app.controller.resume({ folderId });

    const page = await h.open(suite.browser(), 'conflicts');
    for (const name of ['own.png', 'mia.png']) await page.getByRole('heading', { name }).waitFor({ timeout: 45_000 });

    // Both versions of each image show as thumbnails that really loaded.
    for (const name of ['own.png', 'mia.png']) {
      for (const version of ['your version', 'version in the service']) {
        const image = page.getByRole('img', { name: `Preview of ${version} of ${name}` });
        await expect.poll(() => loaded(image), { timeout: 45_000 }).toBe(true);
      }
    }
    // Who changed the service's version: the signed-in user is "you", a colleague by name.
    await expect.poll(() => byLine(page, 'own.png', 'Version in the service'), { timeout: 30_000 }).toContain('By You, in the service');
    expect(await byLine(page, 'own.png', 'Version in the service')).not.toContain('Someone else');
    await expect.poll(() => byLine(page, 'mia.png', 'Version in the service'), { timeout: 30_000 }).toContain('By Mia Chen');
    expect(await byLine(page, 'own.png', 'Your version')).toContain('By You, on this computer');

    for (const [colorScheme, width, height] of [['light', 1280, 800], ['dark', 1280, 800], ['light', 800, 600], ['dark', 800, 600]] as const) {
      await page.emulateMedia({ colorScheme });
      await page.setViewportSize({ width, height });
      await capture(page, `app-conflicts-versions-${colorScheme}-${width}`, `conflicts with thumbnails, ${colorScheme}, ${width}×${height}`);
    }
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize({ width: 1280, height: 800 });

    // "Keep theirs" asks first, saying where our version goes; Cancel changes nothing.
    const copies = (): string[] => readdirSync(shots).filter((entry) => entry.startsWith('own (conflict '));
    expect(copies()).toHaveLength(1);

    // Either version opens with the system: ours is the copy beside the file, the service's has the file's name.
    await page.getByRole('button', { name: 'Open your version of own.png' }).click();
    await expect.poll(() => opened).toEqual([join(shots, copies()[0]!)]);
    await page.getByRole('button', { name: 'Open version in the service of own.png' }).click();
    await expect.poll(() => opened).toEqual([join(shots, copies()[0]!), join(shots, 'own.png')]);
    const choices = page.getByRole('group', { name: 'Resolve own.png' });
    await choices.getByRole('button', { name: 'Keep theirs' }).click();
    const question = page.getByRole('group', { name: 'Confirm: keep theirs for own.png' });
    await question.waitFor();
    expect(await question.innerText()).toContain(`Your version, “${copies()[0]!}”, goes to the Trash`);
    await capture(page, 'app-conflicts-confirm', 'conflicts, keep theirs asked');
    await question.getByRole('button', { name: 'Cancel' }).click();
    await question.waitFor({ state: 'detached' });
    expect(copies()).toHaveLength(1);
    expect((await h.app.controller.getState()).conflicts.map((conflict) => conflict.relPath).sort()).toEqual(['Shots/mia.png', 'Shots/own.png']);
    await page.getByRole('heading', { name: 'own.png' }).waitFor();

    // Confirmed, it is resolved: our copy went to the Trash, and the toast says so.
    await choices.getByRole('button', { name: 'Keep theirs' }).click();
    await question.getByRole('button', { name: 'Keep theirs' }).click();
    await page.getByRole('status').getByText(/Your version, “own \(conflict [^”]*\)\.png”, went to the Trash\./).waitFor();
    await page.getByRole('heading', { name: 'own.png' }).waitFor({ state: 'detached', timeout: 30_000 });
    expect(copies()).toHaveLength(0);
    await page.close();
  });
});
