/**
 * A narrow window (800×600), in real Chromium against the demo bridge: the sidebar folds into a bar
 * whose menu button opens it, and nothing of a folder row or a conflict card reaches past the right
 * edge of the window, so names, actions and the details of both versions stay readable.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { browserSuite } from './support/browser-suite.js';

const suite = browserSuite({ renderer: true });

async function open(scenario: string, view: string): Promise<Page> {
  const page = await suite.browser().newPage({ width: 800, height: 600 });
  await page.goto(`${suite.renderer().url}?demo=${scenario}#/${view}`);
  return page;
}

/** The elements inside `selector` whose box ends past the window's right edge (as "tag.class text"). */
function overflowing(page: Page, selector: string): Promise<string[]> {
  return page.evaluate((inside) => {
    const width = document.documentElement.clientWidth;
    const out: string[] = [];
    for (const container of document.querySelectorAll(inside)) {
      for (const element of [container, ...container.querySelectorAll('*')]) {
        const box = element.getBoundingClientRect();
        if (box.width > 0 && box.right > width + 0.5) out.push(`${element.tagName.toLowerCase()}.${element.className} ${element.textContent.trim().slice(0, 40)} (right ${Math.round(box.right)} > ${width})`);
      }
    }
    return out;
  }, selector);
}

describe('a narrow window', { timeout: 60_000 }, () => {
  it('folds the sidebar behind a menu button that opens it and closes it on a choice', async () => {
    const page = await open('busy', 'overview');
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    const nav = page.getByRole('navigation', { name: 'Views' });
    await expect(nav.isVisible()).resolves.toBe(false);
    const menu = page.getByRole('button', { name: 'Menu' });
    await expect(menu.getAttribute('aria-expanded')).resolves.toBe('false');
    await menu.click();
    await expect(menu.getAttribute('aria-expanded')).resolves.toBe('true');
    await expect(nav.isVisible()).resolves.toBe(true);
    await nav.getByRole('link', { name: /^Conflicts/ }).press('Enter');
    await page.getByRole('heading', { name: 'Conflicts', level: 1 }).waitFor();
    await expect(nav.isVisible()).resolves.toBe(false);
    // The focus goes to the view chosen, not to the hidden link.
    await expect(page.evaluate(() => document.activeElement?.textContent.trim())).resolves.toBe('Conflicts');
    // Escape closes the menu and gives the focus back to its button.
    await menu.click();
    await page.keyboard.press('Escape');
    await expect(nav.isVisible()).resolves.toBe(false);
    await expect(menu.evaluate((button) => button === document.activeElement)).resolves.toBe(true);
    await page.close();
  });

  it('keeps every folder row and conflict card inside the window', async () => {
    const page = await open('busy', 'overview');
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    await expect(page.locator('[data-folder-id]').count()).resolves.toBeGreaterThan(0);
    await expect(overflowing(page, '[data-folder-id]')).resolves.toEqual([]);
    await page.getByRole('button', { name: 'Menu' }).click();
    await page.getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('heading', { name: 'Settings' }).waitFor();
    await expect(overflowing(page, '.view')).resolves.toEqual([]);
    await page.goto(`${suite.renderer().url}?demo=busy#/conflicts`);
    await page.getByRole('heading', { name: 'wordmark.png' }).waitFor();
    await expect(overflowing(page, '.conflict')).resolves.toEqual([]);
    await page.close();
  });
});
