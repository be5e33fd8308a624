#!/usr/bin/env node
// The `asset-sync` command. The TypeScript sources are compiled to dist/ by `npm ci` (the `prepare`
// script); this shim only loads them, so `npx asset-sync …` works right after install.
import { existsSync } from 'node:fs';

const entry = new URL('../dist/cli.js', import.meta.url);
if (!existsSync(entry)) {
  process.stderr.write('asset-sync: dist/ is missing. Run `npm run build` (npm ci does it for you).\n');
  process.exit(70);
}
const { main } = await import(entry.href);
process.exitCode = await main(process.argv.slice(2));
