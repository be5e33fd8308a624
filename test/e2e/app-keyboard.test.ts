/**
 * Keyboard focus against the real headless app, where a command's new state arrives after its answer:
 * the focus still lands on what took the place of the button pressed, never on <body>.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { browserSuite } from './support/browser-suite.js';

const suite = browserSuite({ harness: {} });

function focused(page: Page): Promise<string> {
  return page.evaluate(() => {
    const element = document.activeElement;
    if (element === null || element === document.body) return 'body';
    return `${element.tagName.toLowerCase()}: ${element.textContent.replace(/\s+/g, ' ').trim()}`;
  });
}

describe('keyboard focus against the headless app', { timeout: 120_000 }, () => {
  it('keeps the focus on the control that replaced the one pressed, and moves on when a folder is removed', async () => {
    const page = await suite.harness().open(suite.browser());
    await page.getByRole('button', { name: 'Pause for 1 hour' }).press('Enter');
    await page.getByRole('button', { name: 'Resume syncing' }).waitFor();
    await expect(focused(page)).resolves.toBe('button: Resume syncing');
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Pause for 1 hour' }).waitFor();
    await expect(focused(page)).resolves.toBe('button: Pause for 1 hour');

    await page.getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('button', { name: /^Remove / }).press('Enter');
    await page.getByRole('button', { name: 'Stop syncing' }).press('Enter');
    await page.getByText('No folders yet.').waitFor();
    // With no folder left, the next thing in the section: the way to add one.
    await expect(focused(page)).resolves.toBe('summary: Add a folder');
    await page.close();
  });
});
