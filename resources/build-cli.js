// Bundles the `asset-sync` command (dist/cli.js, as tsc built it, with the packages it imports) into
// dist/bundle/: one file for what every command loads first, and one chunk for each part loaded lazily
// (a command, the embedded service, the engine). A start then reads a few files instead of some 1,300
// modules, each one resolved and read on its own. bin/asset-sync.js runs the bundle when it is there.
// Packages with native parts or files of their own stay outside and load from node_modules as usual.
// Uses vite (already the renderer's and the preload's bundler).
//
//   node resources/build-cli.js        → dist/bundle/cli.js (and desktop-launcher.js) with their chunks
import { rmSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const outDir = resolve(root, 'dist/bundle');

/** Loaded from node_modules at run time: native addons, Electron, and packages that read their own files. */
const EXTERNAL = ['better-sqlite3', 'sharp', 'mupdf', 'electron', 'electron-store'];

rmSync(outDir, { recursive: true, force: true });
await build({
  configFile: false,
  root,
  logLevel: 'warn',
  ssr: { target: 'node', noExternal: true, external: EXTERNAL },
  build: {
    ssr: true,
    outDir,
    emptyOutDir: true,
    copyPublicDir: false,
    minify: false,
    sourcemap: false,
    target: 'node20',
    rolldownOptions: {
      // The desktop launcher is imported by a name start-command.ts makes at run time (a build may lack
      // it): an entry of its own, beside the chunk that imports it.
      input: { cli: resolve(root, 'dist/cli.js'), 'desktop-launcher': resolve(root, 'dist/main/cli/desktop-launcher.js') },
      external: (id) => EXTERNAL.some((name) => id === name || id.startsWith(`${name}/`)),
      output: { format: 'es', entryFileNames: '[name].js', chunkFileNames: '[name]-[hash].js' },
    },
  },
});
