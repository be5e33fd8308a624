/**
 * The one setup of a browser test file. `browserSuite(options)` registers the file's beforeAll and
 * afterAll: it starts what the file asks for — the headless app harness (the real app and its real
 * local service), the built renderer served as static files, and Chromium — in that order, and closes
 * them in reverse after the file's last test. Tests reach them through the getters, which throw when
 * the setup did not run. Must never share a browser or an app between test files.
 */
import { afterAll, beforeAll } from 'vitest';
import { startHeadlessHarness, type HarnessOptions, type HeadlessHarness } from './headless-harness.js';
import { launchBrowser, type LaunchedBrowser } from './launch-browser.js';
import { serveRenderer, type ServedRenderer } from './serve-renderer.js';

export interface BrowserSuiteOptions {
  /** Start the headless app harness with these options (omitted: no app). */
  harness?: HarnessOptions;
  /** Serve the built renderer as plain static files (the demo bridge, the IPC link). */
  renderer?: boolean;
  /** The bound on starting (and on closing) all of it. Default 60 s: the app, a service and Chromium on a loaded machine. */
  setupTimeoutMs?: number;
}

export interface BrowserSuite {
  browser(): LaunchedBrowser;
  harness(): HeadlessHarness;
  renderer(): ServedRenderer;
}

export class SuiteSetupError extends Error {
  readonly code = 'SUITE_NOT_STARTED';
}

function started<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new SuiteSetupError(`${what} is not started: browserSuite() did not ask for it, or its setup failed`);
  return value;
}

export function browserSuite(options: BrowserSuiteOptions = {}): BrowserSuite {
  const timeout = options.setupTimeoutMs ?? 60_000;
  let harness: HeadlessHarness | undefined;
  let renderer: ServedRenderer | undefined;
  let browser: LaunchedBrowser | undefined;
  beforeAll(async () => {
    if (options.harness !== undefined) harness = await startHeadlessHarness(options.harness);
    if (options.renderer === true) renderer = await serveRenderer();
    browser = await launchBrowser();
  }, timeout);
  afterAll(async () => {
    await browser?.close();
    await renderer?.close();
    await harness?.dispose();
  }, timeout);
  return {
    browser: () => started(browser, 'Chromium'),
    harness: () => started(harness, 'The headless app'),
    renderer: () => started(renderer, 'The served renderer'),
  };
}
