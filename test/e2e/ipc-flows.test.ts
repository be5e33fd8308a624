/**
 * The part 1 flows again, through the Electron IPC path instead of HTTP (issue 17): the real preload
 * (bundled with a renderer-side stand-in of `electron`) and the real renderer run in Chromium; the
 * page's ipcRenderer reaches the real main-side transport through page bindings, which checks each
 * sender and argument and calls the real app controller of the headless harness (real local service).
 * The renderer is served as plain static files with no control server, so nothing can go over HTTP.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { type LaunchedBrowser } from './support/launch-browser.js';
import { remoteFiles } from './support/headless-harness.js';
import { saveScreenshot } from './support/screenshot.js';
import { buildTestPreload, linkPage, type LinkedPage } from '../ipc/ipc-browser-link.js';
import { tempDir } from '../support/temp-dir.js';
import { browserSuite } from './support/browser-suite.js';

let preload = '';
const downloads = tempDir('asset-sync-ipc-downloads-');

beforeAll(() => {
  preload = buildTestPreload();
}, 120_000);

const suite = browserSuite({ harness: { autoLocalLibrary: false, downloadsDir: downloads }, renderer: true, setupTimeoutMs: 120_000 });

async function openOverIpc(view = ''): Promise<{ page: Awaited<ReturnType<LaunchedBrowser['newPage']>>; link: LinkedPage }> {
  const page = await suite.browser().newPage();
  const link = await linkPage(page, { bridge: suite.harness().app.controller, preload, pageUrl: suite.renderer().url });
  await page.goto(`${suite.renderer().url}${view === '' ? '' : `#/${view}`}`);
  return { page, link };
}

describe('the UI over the Electron IPC transport', { timeout: 240_000 }, () => {
  it('first run: starts with the local library', async () => {
    const { page, link } = await openOverIpc();
    expect(await page.evaluate(() => typeof (window as unknown as { assetSyncBridge?: unknown }).assetSyncBridge)).toBe('object');
    await page.getByRole('heading', { name: 'Welcome to Asset Sync' }).waitFor();
    await page.getByRole('button', { name: 'Use the local library' }).click();
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    const row = page.locator('li[data-folder-id]');
    await row.getByTestId('folder-state').getByText('Up to date').waitFor({ timeout: 45_000 });
    await saveScreenshot(page, 'ipc-overview-first');
    expect((await suite.harness().app.controller.getState()).account).toMatchObject({ kind: 'signed-in', local: true });
    expect(link.refused).toEqual([]);
    await page.close();
  });

  it('a sync: a file copied into the folder reaches the service, and the window says so', async () => {
    const { page, link } = await openOverIpc();
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    writeFileSync(join(suite.harness().folder, 'over-ipc.txt'), 'sent while the window talks over IPC');
    await expect.poll(async () => (await remoteFiles(await suite.harness().api())).map((file) => file.path), { timeout: 45_000 }).toContain('/over-ipc.txt');
    await page.locator('li[data-folder-id]').getByTestId('folder-state').getByText('Up to date').waitFor({ timeout: 45_000 });
    await page.getByRole('link', { name: 'Activity' }).click();
    await page.getByText('over-ipc.txt').first().waitFor({ timeout: 30_000 });
    expect(link.refused).toEqual([]);
    await page.close();
  });

  it('a conflict made through the API is resolved from the window (keep both)', async () => {
    const h = suite.harness();
    const docs = join(h.folder, 'Ipc');
    mkdirSync(docs, { recursive: true });
    writeFileSync(join(docs, 'both.txt'), 'base');
    await expect.poll(async () => (await remoteFiles(await h.api())).some((file) => file.path === '/Ipc/both.txt'), { timeout: 45_000 }).toBe(true);
    const id = (await remoteFiles(await h.api())).find((file) => file.path === '/Ipc/both.txt')!.id;
    const folderId = (await h.app.controller.getState()).folders[0]!.id;
    await h.app.controller.pause({ folderId, span: 'until-resumed' });
    writeFileSync(join(docs, 'both.txt'), 'my edit');
    await h.newVersion(id, 'their edit');
    await h.app.controller.resume({ folderId });

    const { page, link } = await openOverIpc('conflicts');
    await page.getByRole('heading', { name: 'both.txt' }).waitFor({ timeout: 45_000 });
    await saveScreenshot(page, 'ipc-conflicts');
    await page.getByRole('group', { name: 'Resolve both.txt' }).getByRole('button', { name: 'Keep both' }).click();
    await page.getByRole('heading', { name: 'both.txt' }).waitFor({ state: 'detached', timeout: 30_000 });
    const copies = (): string[] => readdirSync(docs).filter((entry) => entry.includes('(conflict '));
    await expect.poll(() => copies().length, { timeout: 45_000 }).toBe(1);
    expect(readFileSync(join(docs, 'both.txt'), 'utf8')).toBe('their edit');
    expect(readFileSync(join(docs, copies()[0]!), 'utf8')).toBe('my edit');
    expect(link.refused).toEqual([]);
    await page.close();
  });

  it('quick download: a search and a download of the original over IPC', async () => {
    const { page, link } = await openOverIpc('quick-download');
    const search = page.getByRole('combobox', { name: 'Search assets' });
    await search.fill('over-ipc');
    await page.getByRole('option', { name: /over-ipc\.txt/ }).waitFor({ timeout: 30_000 });
    await search.press('Enter');
    await page.getByRole('button', { name: 'Show in folder over-ipc.txt' }).waitFor({ timeout: 30_000 });
    expect(readFileSync(join(downloads, 'over-ipc.txt'), 'utf8')).toBe('sent while the window talks over IPC');
    expect(link.refused).toEqual([]);
    await page.close();
  });

  it('refuses the same preload in a frame inside the page, before the app sees the call', async () => {
    const { page, link } = await openOverIpc();
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    await page.evaluate(() => {
      const frame = document.createElement('iframe');
      frame.srcdoc = '<p>embedded</p>';
      document.body.append(frame);
    });
    await expect.poll(() => page.frames().length).toBe(2);
    const child = page.frames().find((frame) => frame !== page.mainFrame())!;
    await child.waitForLoadState();
    const reply = await child.evaluate(() => (window as unknown as { assetSyncBridge: { signOut(): Promise<unknown> } }).assetSyncBridge.signOut());
    expect(reply).toMatchObject({ ok: false, error: { name: 'BridgeError', code: 'UNTRUSTED_SENDER' } });
    expect(link.refused).toEqual(['signOut from an untrusted sender']);
    expect((await suite.harness().app.controller.getState()).account.kind).toBe('signed-in');
    await page.close();
  });
});
