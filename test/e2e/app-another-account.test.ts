/**
 * Sync state belongs to one server and account. A designer syncs with the local library, signs out
 * (after saying yes to the question), and signs in to another, empty server: nothing is held as
 * deleted, nothing leaves the disk, and the folder uploads there as a first sync. Back on the local
 * library, its own state is found again: up to date at once, with nothing uploaded twice.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { createApiClient, staticTokenProvider } from '../../src/main/api/index.js';
import { fakeBrowser, type FakeBrowser } from '../support/fake-browser.js';
import { ADMIN_PASSWORD, startTestService } from '../support/test-service.js';
import { browserSuite } from './support/browser-suite.js';
import { capture } from './support/capture.js';
import { remoteFiles, remotePaths } from './support/headless-harness.js';

/** The system browser the app opens to sign in: it signs in to whichever server the test points it at. */
const systemBrowser: { current: FakeBrowser | undefined } = { current: undefined };
const suite = browserSuite({
  harness: {
    deps: {
      openExternal: async (url) => {
        void systemBrowser.current?.openUrl(url);
        return true;
      },
    },
  },
});

const files = ['brief.txt', 'logo.svg', 'moodboard.txt'];

async function signOut(page: Page): Promise<void> {
  await page.evaluate(() => (location.hash = '#/settings'));
  await page.getByRole('button', { name: 'Sign out' }).click();
  const question = page.getByRole('group', { name: 'Confirm signing out' });
  await question.waitFor();
  // The question has the focus: the keyboard answers it next.
  await expect(question.getByRole('button', { name: 'Sign out' }).evaluate((button) => button === document.activeElement)).resolves.toBe(true);
  await capture(page, 'app-sign-out-question', 'settings asking before signing out');
  await question.getByRole('button', { name: 'Sign out' }).click();
  await page.getByRole('heading', { name: 'Welcome to Asset Sync' }).waitFor();
}

describe('sync state belongs to one server and account', { timeout: 240_000 }, () => {
  it('starts afresh on another server, and finds the old state again on the way back', async () => {
    const h = suite.harness();
    for (const name of files) writeFileSync(join(h.folder, name), `${name} v1`);
    const page = await h.open(suite.browser());
    await expect.poll(async () => (await remotePaths(h)).length, { timeout: 60_000 }).toBe(files.length);
    await page.getByText('Everything is up to date').waitFor({ timeout: 60_000 });

    const second = await startTestService();
    try {
      systemBrowser.current = fakeBrowser({ email: 'admin@localhost', password: ADMIN_PASSWORD });
      await signOut(page);
      await page.getByLabel('Server address').fill(second.url);
      await page.getByRole('button', { name: 'Sign in with the browser' }).click();
      await page.getByText(`admin@localhost · ${second.url}`).waitFor({ timeout: 60_000 });
      await page.evaluate(() => (location.hash = '#/overview'));

      const there = createApiClient({ server: second.url, tokens: staticTokenProvider(await second.token()), env: {} });
      try {
        await expect.poll(async () => (await remoteFiles(there)).map((file) => file.path), { timeout: 60_000 }).toEqual(files.map((name) => `/${name}`));
      } finally {
        there.close();
      }
      await page.getByText('Everything is up to date').waitFor({ timeout: 60_000 });
      await expect(page.getByText(/held|were removed|was removed/).count()).resolves.toBe(0);
      for (const name of files) expect(existsSync(join(h.folder, name))).toBe(true);
      await capture(page, 'app-another-server', 'overview after signing in to another server');

      await signOut(page);
      await page.getByRole('button', { name: 'Use the local library' }).click();
      await page.locator('strong', { hasText: 'Local library on this computer' }).waitFor({ timeout: 60_000 });
      await page.evaluate(() => (location.hash = '#/overview'));
      await page.getByText('Everything is up to date').waitFor({ timeout: 60_000 });
      // The local library's own state came back: every file known there, none uploaded a second time.
      expect(await remotePaths(h)).toEqual(files.map((name) => `/${name}`));
      for (const name of files) expect(existsSync(join(h.folder, name))).toBe(true);
    } finally {
      await second.dispose();
    }
    await page.close();
  });
});
