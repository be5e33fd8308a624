// Bundles the window's preload (src/main/desktop/preload.ts and what it imports) into ONE CommonJS file,
// dist/main/desktop/preload.cjs: a sandboxed preload can require nothing but `electron` (and a few
// built-ins), and cannot be an ES module. Uses vite (already the renderer's bundler) in library mode.
//
//   node resources/build-preload.js                       → dist/main/desktop/preload.cjs
//   node resources/build-preload.js --out F --electron M  → F, with `electron` bundled from module M
//                                                           (the IPC browser tests' stand-in)
import { basename, dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { build } from 'vite';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({ options: { out: { type: 'string' }, electron: { type: 'string' } } });
const out = resolve(values.out ?? `${root}/dist/main/desktop/preload.cjs`);

await build({
  configFile: false,
  root,
  logLevel: 'warn',
  resolve: values.electron === undefined ? {} : { alias: { electron: resolve(values.electron) } },
  build: {
    outDir: dirname(out),
    emptyOutDir: false,
    copyPublicDir: false,
    minify: false,
    sourcemap: false,
    target: 'es2022',
    lib: { entry: resolve(root, 'src/main/desktop/preload.ts'), formats: ['cjs'], fileName: () => basename(out) },
    rollupOptions: { external: values.electron === undefined ? ['electron'] : [] },
  },
});
