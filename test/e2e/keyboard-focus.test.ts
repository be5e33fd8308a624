/**
 * Keyboard use, in real Chromium against the demo bridge: after every action the focus is on a
 * sensible element (the control that took the place of the one pressed, the next item of the list, or
 * the view's heading), never dropped on <body>; a skip link is the first Tab stop and takes the focus
 * to the content.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { browserSuite } from './support/browser-suite.js';

const suite = browserSuite({ renderer: true });

async function open(scenario: string, view: string): Promise<Page> {
  const page = await suite.browser().newPage();
  await page.goto(`${suite.renderer().url}?demo=${scenario}#/${view}`);
  return page;
}

/** What has the focus, as a person would name it: its role and accessible text. */
function focused(page: Page): Promise<string> {
  return page.evaluate(() => {
    const element = document.activeElement;
    if (element === null || element === document.body) return 'body';
    const text = (element.getAttribute('aria-label') ?? element.textContent).replace(/\s+/g, ' ').trim();
    return `${element.tagName.toLowerCase()}: ${text}`;
  });
}

describe('keyboard focus after each action', { timeout: 60_000 }, () => {
  it('skips to the content from the first Tab stop', async () => {
    const page = await open('busy', 'overview');
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    await page.keyboard.press('Tab');
    await expect(focused(page)).resolves.toBe('a: Skip to content');
    await page.keyboard.press('Enter');
    await expect(page.evaluate(() => document.activeElement?.closest('main') !== null)).resolves.toBe(true);
    // The next Tab stop is the view's first control, not the sidebar.
    await page.keyboard.press('Tab');
    await expect(focused(page)).resolves.toBe('a: Add folder');
    await page.close();
  });

  it('puts the control that replaced "Pause for 1 hour" in its place, on the overview and in settings', async () => {
    const page = await open('busy', 'overview');
    await page.getByRole('button', { name: 'Pause for 1 hour' }).press('Enter');
    await page.getByRole('button', { name: 'Resume syncing' }).waitFor();
    await expect(focused(page)).resolves.toBe('button: Resume syncing');
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Pause for 1 hour' }).waitFor();
    await expect(focused(page)).resolves.toBe('button: Pause for 1 hour');

    await page.getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('button', { name: 'Pause for 1 hour' }).press('Enter');
    await page.getByRole('button', { name: 'Resume syncing' }).waitFor();
    await expect(focused(page)).resolves.toBe('button: Resume syncing');
    await page.close();
  });

  it('moves to the next conflict once one is resolved, and to the empty state after the last', async () => {
    const page = await open('busy', 'conflicts');
    // Each choice asks first; the keyboard answers the question, and the focus moves on from there.
    await page.getByRole('group', { name: 'Resolve wordmark.png' }).getByRole('button', { name: 'Keep theirs' }).press('Enter');
    await page.getByRole('group', { name: 'Confirm: keep theirs for wordmark.png' }).getByRole('button', { name: 'Keep theirs' }).press('Enter');
    await page.getByRole('heading', { name: 'wordmark.png' }).waitFor({ state: 'detached' });
    await expect(focused(page)).resolves.toBe('h2: brand-book.pdf');
    await page.getByRole('group', { name: 'Resolve brand-book.pdf' }).getByRole('button', { name: 'Keep mine' }).press('Enter');
    await page.getByRole('group', { name: 'Confirm: keep mine for brand-book.pdf' }).getByRole('button', { name: 'Keep mine' }).press('Enter');
    await page.getByRole('heading', { name: 'No conflicts' }).waitFor();
    await expect(focused(page)).resolves.toBe('h2: No conflicts');
    await page.close();
  });

  it('lands on the new folder after "Start syncing" and on the add form again after "Add folder"', async () => {
    const page = await open('empty', 'overview');
    await page.getByLabel('Folder on this computer').fill('/Users/ana/Shots');
    await page.getByRole('button', { name: 'Start syncing' }).press('Enter');
    await page.getByRole('heading', { name: 'Shots' }).waitFor();
    await expect(focused(page)).resolves.toBe('h2: Shots');

    await page.getByRole('link', { name: 'Settings' }).click();
    await page.getByText('Add a folder').click();
    await page.getByLabel('Folder on this computer').fill('/Users/ana/Reels');
    await page.getByRole('button', { name: 'Add folder' }).press('Enter');
    await page.getByRole('button', { name: 'Remove Reels' }).waitFor();
    // The emptied path field, ready for another folder, or the "Add a folder" that opens it where the form closed.
    await expect(page.evaluate(() => document.activeElement?.closest('details.add') !== null)).resolves.toBe(true);
    await page.close();
  });

  it('returns to "Remove" after cancelling, and moves on after "Stop syncing"', async () => {
    const page = await open('calm', 'settings');
    const remove = page.getByRole('button', { name: /^Remove / }).first();
    const name = (await remove.innerText()).replace(/^Remove\s*/, '').trim();
    await remove.press('Enter');
    await page.getByRole('group', { name: `Confirm removing ${name}` }).getByRole('button', { name: 'Cancel' }).press('Enter');
    await expect(page.getByRole('button', { name: `Remove ${name}` }).evaluate((button) => button === document.activeElement)).resolves.toBe(true);
    await page.getByRole('button', { name: `Remove ${name}` }).press('Enter');
    await page.getByRole('group', { name: `Confirm removing ${name}` }).getByRole('button', { name: 'Stop syncing' }).press('Enter');
    await page.getByRole('button', { name: `Remove ${name}` }).waitFor({ state: 'detached' });
    // The next folder's "Remove" (its own confirmation asks again before anything happens).
    await expect(focused(page)).resolves.toMatch(/^button: Remove\S/);
    await page.close();
  });

  it('moves to the empty state after held deletions are confirmed', async () => {
    const page = await open('busy', 'held-deletions');
    await page.getByRole('button', { name: /^Delete .* files$/ }).press('Enter');
    await page.getByRole('heading', { name: 'Nothing held back' }).waitFor();
    await expect(focused(page)).resolves.toBe('h2: Nothing held back');
    await page.close();
  });

  it('moves to the view after the last notice is dismissed', async () => {
    const page = await open('busy', 'conflicts');
    await page.getByRole('group', { name: 'Resolve wordmark.png' }).getByRole('button', { name: 'Keep both' }).click();
    const dismiss = page.getByRole('button', { name: 'Dismiss' });
    await dismiss.press('Enter');
    await dismiss.waitFor({ state: 'detached' });
    await expect(focused(page)).resolves.toBe('h1: Conflicts');
    await page.close();
  });
});
