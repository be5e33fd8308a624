/**
 * Starts Debian's Chromium for the browser tests through playwright-core (no bundled browser download):
 * headless, a fresh profile per launch, and every background feature that would reach the network off,
 * so a test talks only to the loopback servers it started. The caller closes what it gets.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

export interface LaunchedBrowser {
  browser: Browser;
  /** A new page in its own context (own cookies), sized like a laptop window. */
  newPage(options?: { colorScheme?: 'light' | 'dark'; width?: number; height?: number }): Promise<Page>;
  close(): Promise<void>;
}

/** The Chromium binary: `$CHROME_PATH`, else Debian's package. */
export function chromePath(): string {
  return process.env.CHROME_PATH ?? '/usr/bin/chromium';
}

export async function launchBrowser(): Promise<LaunchedBrowser> {
  const userDataDir = await mkdtemp(join(tmpdir(), 'asset-sync-chromium-'));
  const args = [
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    `--user-data-dir=${userDataDir}`,
  ];
  if (process.getuid?.() === 0) args.push('--no-sandbox');
  const browser = await chromium.launch({ executablePath: chromePath(), headless: true, args });
  const contexts: BrowserContext[] = [];
  return {
    browser,
    async newPage(options = {}) {
      const context = await browser.newContext({
        viewport: { width: options.width ?? 1180, height: options.height ?? 760 },
        colorScheme: options.colorScheme ?? 'light',
        deviceScaleFactor: 1,
      });
      contexts.push(context);
      return context.newPage();
    },
    async close() {
      for (const context of contexts) await context.close().catch(() => undefined);
      await browser.close();
      await rm(userDataDir, { recursive: true, force: true });
    },
  };
}
