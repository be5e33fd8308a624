/**
 * Builds the renderer (src/renderer, Svelte 5) into dist/renderer/. One build serves both windows: the
 * control server hands these files to any browser, and the Electron window loads them from disk, which
 * is why `base` is relative (file:// has no server root).
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { svelte } from '@sveltejs/vite-plugin-svelte';

const root = fileURLToPath(new URL('./src/renderer', import.meta.url));

export default defineConfig({
  root,
  base: './',
  plugins: [svelte()],
  // No public dir: every file the window loads is a build output, so the control server's CSP holds.
  publicDir: false,
  logLevel: 'warn',
  build: {
    outDir: fileURLToPath(new URL('./dist/renderer', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    // Electron and the control server read files from disk: no CDN, no inline data the CSP would refuse.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    reportCompressedSize: false,
  },
});
