/**
 * Benchmark: the renderer bundle's size, gzipped, as the window downloads it (the entry's JS and CSS;
 * the demo chunk only loads with ?demo and is left out). Baseline, built in the same run with the same
 * Vite and Svelte settings: a Svelte "hello" component, the framework's own floor.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'vite';
import { svelte } from '@sveltejs/vite-plugin-svelte';

const repo = fileURLToPath(new URL('..', import.meta.url));

export interface UiBundleBenchResult {
  appJsBytes: number;
  appCssBytes: number;
  appGzipBytes: number;
  demoGzipBytes: number;
  helloGzipBytes: number;
}

/** Gzipped bytes of the files in `dir/assets` whose names pass `keep`, split by extension. */
function gzipSizes(dir: string, keep: (name: string) => boolean): { js: number; css: number; gzip: number } {
  let js = 0;
  let css = 0;
  let gzip = 0;
  for (const name of readdirSync(join(dir, 'assets'))) {
    if (!keep(name)) continue;
    const bytes = readFileSync(join(dir, 'assets', name));
    if (name.endsWith('.js')) js += bytes.length;
    if (name.endsWith('.css')) css += bytes.length;
    gzip += gzipSync(bytes, { level: 9 }).length;
  }
  return { js, css, gzip };
}

export async function benchUiBundle(): Promise<UiBundleBenchResult> {
  const out = join(repo, 'dist/renderer');
  await build({ configFile: join(repo, 'vite.config.ts'), logLevel: 'silent' });
  const app = gzipSizes(out, (name) => !name.startsWith('demo-bridge'));
  const demo = gzipSizes(out, (name) => name.startsWith('demo-bridge'));

  // Inside the repo (gitignored .bench-tmp/) so the build resolves svelte from node_modules.
  mkdirSync(join(repo, '.bench-tmp'), { recursive: true });
  const hello = mkdtempSync(join(repo, '.bench-tmp', 'ui-hello-'));
  try {
    writeFileSync(join(hello, 'index.html'), '<!doctype html><div id="app"></div><script type="module" src="./main.ts"></script>');
    writeFileSync(join(hello, 'main.ts'), "import { mount } from 'svelte';\nimport App from './App.svelte';\nmount(App, { target: document.getElementById('app') ?? document.body });\n");
    writeFileSync(join(hello, 'App.svelte'), '<script lang="ts">let count = $state(0);</script>\n<button onclick={() => (count += 1)}>Hello {count}</button>\n');
    await build({ root: hello, base: './', configFile: false, logLevel: 'silent', plugins: [svelte()], build: { outDir: join(hello, 'dist'), target: 'es2022', modulePreload: { polyfill: false } } });
    const baseline = gzipSizes(join(hello, 'dist'), () => true);
    return { appJsBytes: app.js, appCssBytes: app.css, appGzipBytes: app.gzip, demoGzipBytes: demo.gzip, helloGzipBytes: baseline.gzip };
  } finally {
    rmSync(hello, { recursive: true, force: true });
  }
}

export function formatUiBundleBench(result: UiBundleBenchResult): string[] {
  const kb = (bytes: number): string => `${(bytes / 1024).toFixed(1)} KB`;
  return [
    'renderer bundle (entry JS + CSS; the ?demo chunk apart), gzip -9',
    `  baseline (Svelte 5 "hello" with the same build):  ${kb(result.helloGzipBytes)}`,
    `  Asset Sync UI:                                     ${kb(result.appGzipBytes)} (raw ${kb(result.appJsBytes)} JS + ${kb(result.appCssBytes)} CSS)`,
    `  demo bridge chunk (loaded only with ?demo):        ${kb(result.demoGzipBytes)}`,
  ];
}
