/**
 * Starts Debian's Chromium for the browser tests through playwright-core (no bundled browser download):
 * headless, a fresh profile per launch, and every background feature that would reach the network off,
 * so a test talks only to the loopback servers it started. The caller closes what it gets.
 */
import { rm } from 'node:fs/promises';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { tempDir } from '../../support/temp-dir.js';

export interface LaunchedBrowser {
  /** The one persistent context (its profile is the fresh user-data dir): pages share its cookies. */
  context: BrowserContext;
  /** A new page sized like a laptop window, in the given colour scheme. */
  newPage(options?: { colorScheme?: 'light' | 'dark'; width?: number; height?: number }): Promise<Page>;
  close(): Promise<void>;
}

/** The Chromium binary: `$CHROME_PATH`, else Debian's package. */
export function chromePath(): string {
  return process.env.CHROME_PATH ?? '/usr/bin/chromium';
}

export async function launchBrowser(): Promise<LaunchedBrowser> {
  const userDataDir = tempDir('asset-sync-chromium-');
  const args = [
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ];
  if (process.getuid?.() === 0) args.push('--no-sandbox');
  // Playwright passes the fresh profile as --user-data-dir itself (it refuses the flag in `args`).
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: chromePath(),
    headless: true,
    args,
    viewport: { width: 1180, height: 760 },
    deviceScaleFactor: 1,
  });
  return {
    context,
    async newPage(options = {}) {
      const page = await context.newPage();
      await page.setViewportSize({ width: options.width ?? 1180, height: options.height ?? 760 });
      await page.emulateMedia({ colorScheme: options.colorScheme ?? 'light', reducedMotion: 'reduce' });
      return page;
    },
    async close() {
      await context.close();
      await rm(userDataDir, { recursive: true, force: true });
    },
  };
}
