/**
 * Benchmark: the activity view with 100,000 entries, scrolled in Chromium. The demo bridge feeds the
 * real renderer 100,000 entries (the list pages them in as it scrolls; all are loaded before timing),
 * then the list scrolls from top to bottom in steps, one per frame, while requestAnimationFrame deltas
 * are recorded. Baseline in the same browser: a plain static list of 1,000 rows scrolled the same way.
 * Page-side code is given as strings: this file compiles without the DOM library.
 */
import { launchBrowser } from '../test/e2e/support/launch-browser.js';
import { serveRenderer } from '../test/e2e/support/serve-renderer.js';
import type { Page } from 'playwright-core';

export interface FrameStats {
  frames: number;
  p50: number;
  p95: number;
  max: number;
  /** Rows in the page at the end (the virtual list keeps this small). */
  rowsInPage: number;
}

export interface UiActivityBenchResult {
  entries: number;
  pixelsPerFrame: number;
  staticList: FrameStats;
  activity: FrameStats;
  /** The scroll bar dragged from top to bottom of all 100,000 entries. */
  activityDrag: FrameStats;
}

const staticPage = `<!doctype html><html><head><style>body{margin:0;font:14px system-ui}#list{height:700px;overflow-y:auto}
.row{height:56px;display:flex;align-items:center;gap:12px;padding:0 16px;border-bottom:1px solid #ddd}</style></head>
<body><div id="list">${Array.from({ length: 1000 }, (_, index) => `<div class="row"><b>file-${index}.png</b><span>Brand / Shoot ${index}</span><span>Uploaded · 2.4 MB</span></div>`).join('')}</div></body></html>`;

/**
 * Scrolls `selector` for `steps` frames, one move per frame: `pixels` down each frame (a fast wheel or
 * trackpad flick), or with `pixels` 0 evenly from top to bottom (dragging the scroll bar: every frame
 * lands on rows never drawn before). Returns the frame-time figures.
 */
function scrollScript(selector: string, steps: number, pixels: number): string {
  return `(async () => {
    const list = document.querySelector(${JSON.stringify(selector)});
    const deltas = [];
    const max = list.scrollHeight - list.clientHeight;
    const start = list.scrollTop;
    let last = await new Promise(requestAnimationFrame);
    for (let step = 1; step <= ${steps}; step += 1) {
      list.scrollTop = ${pixels} > 0 ? start + ${pixels} * step : Math.round((max * step) / ${steps});
      const now = await new Promise(requestAnimationFrame);
      deltas.push(now - last);
      last = now;
    }
    deltas.sort((a, b) => a - b);
    const at = (q) => deltas[Math.min(deltas.length - 1, Math.floor(q * deltas.length))];
    return { frames: deltas.length, p50: at(0.5), p95: at(0.95), max: deltas[deltas.length - 1], rowsInPage: list.querySelectorAll('[role="listitem"], .row').length };
  })()`;
}

/** Scrolls the activity list to its end until the demo has paged in every entry. */
async function loadAll(page: Page, entries: number): Promise<void> {
  await page.waitForSelector('.viewport [role="listitem"]');
  await page.evaluate(`(async () => {
    const list = document.querySelector('.viewport');
    for (let round = 0; round < 1000; round += 1) {
      const first = list.querySelector('[role="listitem"]');
      if (first && first.getAttribute('aria-setsize') === '${entries}') return;
      list.scrollTop = list.scrollHeight;
      await new Promise(requestAnimationFrame);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error('the activity list never reached ${entries} entries');
  })()`);
}

export async function benchUiActivity(steps = 400, pixelsPerFrame = 120): Promise<UiActivityBenchResult> {
  const entries = 100_000;
  const served = await serveRenderer({ extra: { '/static-list.html': staticPage } });
  const browser = await launchBrowser();
  try {
    const baselinePage = await browser.newPage({ height: 800 });
    await baselinePage.goto(`${served.url}static-list.html`);
    const staticList = await baselinePage.evaluate<FrameStats>(scrollScript('#list', steps, pixelsPerFrame));
    await baselinePage.close();

    const page = await browser.newPage({ height: 800 });
    await page.goto(`${served.url}?demo=activity-100k#/activity`);
    await loadAll(page, entries);
    await page.evaluate(`document.querySelector('.viewport').scrollTop = 0`);
    const activity = await page.evaluate<FrameStats>(scrollScript('.viewport', steps, pixelsPerFrame));
    const activityDrag = await page.evaluate<FrameStats>(scrollScript('.viewport', steps, 0));
    await page.close();
    return { entries, pixelsPerFrame, staticList, activity, activityDrag };
  } finally {
    await browser.close();
    await served.close();
  }
}

export function formatUiActivityBench(result: UiActivityBenchResult): string[] {
  const line = (stats: FrameStats): string =>
    `p50 ${stats.p50.toFixed(1)} ms, p95 ${stats.p95.toFixed(1)} ms, max ${stats.max.toFixed(1)} ms over ${stats.frames} frames; ${stats.rowsInPage} rows in the page`;
  return [
    `activity view scrolled one step per frame (headless Chromium without GPU, rAF deltas; 16.7 ms = 60 fps)`,
    `  baseline (plain static list, 1,000 rows), ${result.pixelsPerFrame} px a frame:  ${line(result.staticList)}`,
    `  activity view, ${result.entries.toLocaleString('en-US')} entries, ${result.pixelsPerFrame} px a frame: ${line(result.activity)}`,
    `  activity view, scroll bar dragged over all entries:    ${line(result.activityDrag)}`,
  ];
}
