/**
 * Benchmark: from starting the headless app (controller, embedded local service, control server) to a
 * usable UI in Chromium (the overview showing the synced folder as up to date). Baseline in the same
 * browser: loading an empty page from a loopback server. Each is the best of a few rounds: the
 * machine is shared and noisy.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { startHeadlessApp } from '../src/main/headless/headless-app.js';
import { launchBrowser } from '../test/e2e/support/launch-browser.js';
import { serveRenderer } from '../test/e2e/support/serve-renderer.js';

export interface UiStartBenchResult {
  rounds: number;
  emptyPageMs: number;
  /** startHeadlessApp resolved. */
  appStartMs: number;
  /** From the start to the overview listing the folder as up to date. */
  usableMs: number;
}

export async function benchUiStart(rounds = 3): Promise<UiStartBenchResult> {
  const browser = await launchBrowser();
  const served = await serveRenderer({ extra: { '/empty.html': '<!doctype html><title>empty</title><p>ready</p>' } });
  let emptyPageMs = Infinity;
  let appStartMs = Infinity;
  let usableMs = Infinity;
  try {
    for (let round = 0; round < rounds; round += 1) {
      const page = await browser.newPage();
      const before = performance.now();
      await page.goto(`${served.url}empty.html`);
      await page.getByText('ready').waitFor();
      emptyPageMs = Math.min(emptyPageMs, performance.now() - before);
      await page.close();
    }
    for (let round = 0; round < rounds; round += 1) {
      const root = mkdtempSync(join(tmpdir(), 'asset-sync-ui-start-'));
      const page = await browser.newPage();
      const start = performance.now();
      const app = await startHeadlessApp({
        stateDir: join(root, 'state'),
        dataDir: join(root, 'data'),
        folder: join(root, 'Asset Sync'),
        servicePort: 0,
        env: { ASSET_SYNC_ADMIN_PASSWORD: 'bench-password-123' },
      });
      try {
        appStartMs = Math.min(appStartMs, performance.now() - start);
        await page.goto(app.newLink());
        await page.locator('li[data-folder-id]').getByText('Up to date').waitFor({ timeout: 60_000 });
        usableMs = Math.min(usableMs, performance.now() - start);
      } finally {
        await page.close();
        await app.close();
        await app.stopService();
        rmSync(root, { recursive: true, force: true });
      }
    }
    return { rounds, emptyPageMs, appStartMs, usableMs };
  } finally {
    await served.close();
    await browser.close();
  }
}

export function formatUiStartBench(result: UiStartBenchResult): string[] {
  return [
    `headless start to a usable UI (best of ${result.rounds}; local library, empty folder)`,
    `  baseline (empty page from a loopback server):  ${result.emptyPageMs.toFixed(0)} ms`,
    `  startHeadlessApp resolved:                     ${result.appStartMs.toFixed(0)} ms`,
    `  overview shows the folder up to date:          ${result.usableMs.toFixed(0)} ms`,
  ];
}
