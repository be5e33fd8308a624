/**
 * The pictures in docs/screenshots/: every view at 1280×800 and 800×600, light and dark, against the
 * demo bridge so each has something to show, named <view>-<width>x<height>-<scheme>.png. Each passes
 * axe as it is taken. A person looks at them when a view changes; the test keeps them current.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { browserSuite } from './support/browser-suite.js';
import { checkAccessibility } from './support/check-accessibility.js';

const suite = browserSuite({ renderer: true });
const docsScreenshots = fileURLToPath(new URL('../../docs/screenshots', import.meta.url));

interface Shot {
  view: string;
  scenario: string;
  /** Brings the view to what the picture shows. */
  show(page: Page): Promise<void>;
  /** Only where the window is narrow (the folded sidebar opened). */
  narrowOnly?: true;
}

const shots: Shot[] = [
  { view: 'overview', scenario: 'busy', show: (page) => page.getByRole('heading', { name: 'Overview' }).waitFor() },
  { view: 'activity', scenario: 'busy', show: (page) => page.getByRole('region', { name: 'Recent changes' }).getByRole('listitem').first().waitFor() },
  { view: 'conflicts', scenario: 'busy', show: (page) => page.getByRole('heading', { name: 'wordmark.png' }).waitFor() },
  { view: 'not-synced', scenario: 'busy', show: (page) => page.getByRole('heading', { name: 'Not synced', level: 1 }).waitFor() },
  { view: 'held-deletions', scenario: 'busy', show: (page) => page.getByRole('button', { name: /^Delete / }).waitFor() },
  {
    view: 'quick-download',
    scenario: 'busy',
    show: async (page) => {
      await page.getByRole('combobox', { name: 'Search assets' }).fill('harbour');
      await page.getByRole('listbox', { name: 'Search results' }).getByRole('option').first().waitFor();
    },
  },
  { view: 'settings', scenario: 'busy', show: (page) => page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor() },
  {
    view: 'menu',
    scenario: 'busy',
    narrowOnly: true,
    show: async (page) => {
      await page.getByRole('button', { name: 'Menu' }).click();
      await page.getByRole('navigation', { name: 'Views' }).waitFor();
    },
  },
  { view: 'first-run', scenario: 'first-run', show: (page) => page.getByRole('heading', { name: 'Welcome to Asset Sync' }).waitFor() },
];

const pictureTime = new Date('2026-03-03T09:30:00Z');
const sizes = [{ width: 1280, height: 800 }, { width: 800, height: 600 }] as const;
const schemes = ['light', 'dark'] as const;

// Thirty-three pages, each checked by axe, on a shared machine.
describe('screenshots of every view', { timeout: 300_000 }, () => {
  for (const { width, height } of sizes) {
    it(`shows every view at ${width}×${height}, light and dark`, async () => {
      await mkdir(docsScreenshots, { recursive: true });
      for (const scheme of schemes) {
        for (const shot of shots.filter((candidate) => candidate.narrowOnly !== true || width < 900)) {
          const page = await suite.browser().newPage({ colorScheme: scheme, width, height });
          const errors: string[] = [];
          page.on('pageerror', (error) => errors.push(error.message));
          // One fixed moment, so a picture changes only when the view does ("7 min ago", dates).
          await page.clock.setFixedTime(pictureTime);
          const hash = shot.view === 'first-run' || shot.view === 'menu' ? 'overview' : shot.view;
          await page.goto(`${suite.renderer().url}?demo=${shot.scenario}#/${hash}`);
          await shot.show(page);
          await page.screenshot({ path: join(docsScreenshots, `${shot.view}-${width}x${height}-${scheme}.png`), animations: 'disabled', caret: 'hide' });
          await checkAccessibility(page, `${shot.view} ${width}×${height} ${scheme}`);
          // Nothing reaches past the right edge of the window: no sideways scrolling at any size.
          await expect(page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).resolves.toBe(true);
          expect(errors).toEqual([]);
          await page.close();
        }
      }
    });
  }
});
