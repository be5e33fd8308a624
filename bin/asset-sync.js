#!/usr/bin/env node
// The `asset-sync` command. The TypeScript sources are compiled to dist/ by `npm ci` (the `prepare`
// script); this shim only loads them, so `npx asset-sync …` works right after install. It loads the
// bundle of them (dist/bundle/, resources/build-cli.js: a few files instead of some 1,300 modules)
// unless dist/cli.js was compiled after it, so a `tsc` alone never runs a stale bundle.
import { existsSync, statSync } from 'node:fs';

const compiled = new URL('../dist/cli.js', import.meta.url);
const bundled = new URL('../dist/bundle/cli.js', import.meta.url);
if (!existsSync(compiled)) {
  process.stderr.write('asset-sync: dist/ is missing. Run `npm run build` (npm ci does it for you).\n');
  process.exit(70);
}
const entry = existsSync(bundled) && statSync(bundled).mtimeMs >= statSync(compiled).mtimeMs ? bundled : compiled;
const { main } = await import(entry.href);
process.exitCode = await main(process.argv.slice(2));
