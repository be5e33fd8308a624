/**
 * Activity, seen from the window against the real headless app and its real local service: every
 * change the app makes on disk is an entry — a file the service binned moved to the Trash, our
 * version of a file both sides changed set aside as a conflict copy, a colleague's new version landing
 * — and the list is kept in the state database, so it is all still there after a restart of the app.
 * A change a command makes (a conflict resolved: our copy to the Trash) is listed as well. Activity
 * belongs to the state of one server and account: a window left open lists the one signed in to.
 * Light and dark screenshots of Activity, checked with axe.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { createFreedesktopTrash } from '../../src/main/local/index.js';
import { tempDir } from '../support/temp-dir.js';
import { fakeBrowser, type FakeBrowser } from '../support/fake-browser.js';
import { ADMIN_PASSWORD, startTestService } from '../support/test-service.js';
import { browserSuite } from './support/browser-suite.js';
import { capture } from './support/capture.js';
import { remoteFiles, type HeadlessHarness } from './support/headless-harness.js';

// The app's Trash in a temp dir: what it moves there is checked, and the user's own Trash is left alone.
const trashHome = tempDir('asset-sync-e2e-trash-');
/** The system browser the app opens to sign in: it signs in to whichever server the test points it at. */
const systemBrowser: { current: FakeBrowser | undefined } = { current: undefined };
const suite = browserSuite({
  harness: {
    deps: {
      trash: createFreedesktopTrash({ dataHome: trashHome }),
      openExternal: async (url) => {
        void systemBrowser.current?.openUrl(url);
        return true;
      },
    },
  },
});

/** The row of the activity list that names `name`, and what it says. */
function row(page: Page, name: string, says: string): Locator {
  return page.getByRole('region', { name: 'Recent changes' }).getByRole('listitem').filter({ hasText: name }).filter({ hasText: says });
}

async function openActivity(h: HeadlessHarness, page: Page): Promise<void> {
  await page.goto(h.app.newLink());
  // By its address: in a narrow window the sidebar's links are behind the menu.
  await page.evaluate(() => (location.hash = '#/activity'));
  await page.getByRole('heading', { name: 'Activity' }).waitFor();
}

/** What each change the app made on disk reads as in Activity. */
const changes = [
  ['old brief.txt', 'Moved to the Trash'],
  ['notes (conflict ', 'Conflict copy of notes.txt'],
  ['logo.txt', 'Downloaded'],
] as const;

describe('activity against the headless app', { timeout: 240_000 }, () => {
  it('lists the Trash, a conflict copy and a download, and still lists them after a restart', async () => {
    const h = suite.harness();
    writeFileSync(join(h.folder, 'old brief.txt'), 'binned in the web app');
    writeFileSync(join(h.folder, 'logo.txt'), 'logo: first');
    writeFileSync(join(h.folder, 'notes.txt'), 'notes: base');
    // Wait for the files themselves: an asset whose upload is still running has no file name yet.
    await expect.poll(async () => (await remoteFiles(await h.api())).map((file) => file.path), { timeout: 45_000 }).toEqual(['/logo.txt', '/notes.txt', '/old brief.txt']);
    const ids = new Map((await remoteFiles(await h.api())).map((file) => [file.path, file.id]));
    const id = (path: string): string => ids.get(path) ?? '';

    // Everything happens in the service while the folder is paused, and on both sides for notes.txt,
    // so the next pass makes each change on disk.
    const folderId = (await h.app.controller.getState()).folders[0]?.id ?? '';
    await h.app.controller.pause({ folderId, span: 'until-resumed' });
    await (await h.api()).transitionLifecycle({ type: 'BY_IDS', assetIds: [id('/old brief.txt')] }, 'BINNED');
    await h.newVersion(id('/logo.txt'), 'logo: their edit');
    writeFileSync(join(h.folder, 'notes.txt'), 'notes: my edit');
    await h.newVersion(id('/notes.txt'), 'notes: their edit');
    await h.app.controller.resume({ folderId });

    const copies = (): string[] => readdirSync(h.folder).filter((name) => name.startsWith('notes (conflict '));
    await expect.poll(() => existsSync(join(h.folder, 'old brief.txt')), { timeout: 45_000 }).toBe(false);
    await expect.poll(() => readFileSync(join(h.folder, 'logo.txt'), 'utf8'), { timeout: 45_000 }).toBe('logo: their edit');
    await expect.poll(() => copies().length, { timeout: 45_000 }).toBe(1);
    expect(readdirSync(join(trashHome, 'Trash', 'files'))).toEqual(['old brief.txt']);
    const copy = copies()[0] ?? '';

    for (const colorScheme of ['light', 'dark'] as const) {
      for (const viewport of [{ width: 1280, height: 800 }, { width: 800, height: 600 }]) {
        const page = await suite.browser().newPage({ colorScheme, ...viewport });
        await openActivity(h, page);
        for (const [name, says] of changes) await row(page, name, says).waitFor({ timeout: 45_000 });
        await capture(page, `app-activity-${colorScheme}-${viewport.width}`, `activity (${colorScheme}, ${viewport.width}×${viewport.height})`);
        await page.close();
      }
    }

    await h.restart();
    const page = await suite.browser().newPage();
    await openActivity(h, page);
    for (const [name, says] of changes) await row(page, name, says).waitFor();
    await capture(page, 'app-activity-restarted', 'activity after a restart');

    // A change a command makes on disk is an entry too: "Keep theirs" sends our copy to the Trash.
    const conflict = (await h.app.controller.getState()).conflicts[0];
    await h.app.controller.resolveConflict({ conflictId: conflict?.id ?? -1, keep: 'theirs' });
    await row(page, 'notes (conflict ', 'Moved to the Trash').waitFor({ timeout: 45_000 });
    expect(readdirSync(join(trashHome, 'Trash', 'files')).sort()).toEqual([copy, 'old brief.txt'].sort());
    await page.close();
  });

  it('lists, in a window left open, the activity of the server and account signed in to', async () => {
    const h = suite.harness();
    const page = await suite.browser().newPage();
    await openActivity(h, page);
    const trashed = row(page, 'old brief.txt', 'Moved to the Trash');
    await trashed.waitFor();
    const second = await startTestService();
    try {
      systemBrowser.current = fakeBrowser({ email: 'admin@localhost', password: ADMIN_PASSWORD });
      await h.app.controller.signOut();
      await h.app.controller.signIn({ server: second.url });
      await page.getByRole('link', { name: 'Activity' }).click();
      // A first sync there: the folder's two files uploaded are that state's whole activity.
      await page.getByText('2 recent changes').waitFor({ timeout: 60_000 });
      for (const name of ['logo.txt', 'notes.txt']) await row(page, name, 'Uploaded').waitFor();
      await expect(trashed.count()).resolves.toBe(0);

      await h.app.controller.signOut();
      await h.app.controller.useLocalLibrary();
      await page.getByRole('link', { name: 'Activity' }).click();
      await trashed.waitFor({ timeout: 60_000 });
    } finally {
      await second.dispose();
    }
    await page.close();
  });
});
