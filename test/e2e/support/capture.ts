/**
 * What a browser test does at each view it shows: a screenshot for a person to look at
 * (test-results/screenshots/<name>.png) and the axe check that fails on serious or critical
 * violations. Must never skip the check to get the picture.
 */
import type { Page } from 'playwright-core';
import { checkAccessibility } from './check-accessibility.js';
import { saveScreenshot } from './screenshot.js';

/** Saves `name`.png of the page as it is, then checks it with axe under the label `view`. */
export async function capture(page: Page, name: string, view: string = name): Promise<void> {
  await saveScreenshot(page, name);
  await checkAccessibility(page, view);
}
