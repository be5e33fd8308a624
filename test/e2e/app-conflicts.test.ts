/**
 * Conflicts made for real — a file edited on this computer while a colleague uploads a new version
 * through the API — and resolved from the window each of the three ways, checked on disk and in the
 * service: keep mine (our edit becomes the service's version, no copy left), keep theirs (the copy
 * goes, the service's version stays), keep both (the copy becomes an asset of its own).
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { remoteFiles } from './support/headless-harness.js';
import { md5Hex } from '../support/checksums.js';
import { browserSuite } from './support/browser-suite.js';
import { capture } from './support/capture.js';

const names = ['mine', 'theirs', 'both'] as const;

const suite = browserSuite({ harness: {} });

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
      await page.getByRole('group', { name: `Resolve ${name}.txt` }).getByRole('button', { name: keep }).click();
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
