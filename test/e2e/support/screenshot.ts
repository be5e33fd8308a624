/**
 * Saves a screenshot of the page to test-results/screenshots/<name>.png (gitignored), for a person to
 * look at; the best ones are copied into docs/ by hand.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';

export const screenshotDir = fileURLToPath(new URL('../../../test-results/screenshots', import.meta.url));

export async function saveScreenshot(page: Page, name: string): Promise<string> {
  await mkdir(screenshotDir, { recursive: true });
  const path = join(screenshotDir, `${name}.png`);
  await page.screenshot({ path, animations: 'disabled', caret: 'hide' });
  return path;
}
