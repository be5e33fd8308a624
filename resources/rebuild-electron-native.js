// Compiles better-sqlite3 for the installed Electron's ABI into build/electron-native/, beside (never
// over) node_modules' build for Node, which the tests and the CLI keep using. `npm start` runs this once
// when the desktop app is about to open and the build is missing or stale; `npm run dist` runs it
// before packaging, and electron-builder.yml ships the addon as resources/native/better_sqlite3.node.
// src/platform/sqlite-binding.ts picks the addon at run time by the stamp written here.
//
//   node resources/rebuild-electron-native.js     → build/electron-native/{node_modules/better-sqlite3, stamp.json}
//
// @electron/rebuild tries better-sqlite3's prebuilt binary for this Electron first and compiles from
// source (node-gyp, Electron's headers) when there is none; both need the network the first time.
import { cp, mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { rebuild } from '@electron/rebuild';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'build', 'electron-native');
const source = join(root, 'node_modules', 'better-sqlite3');
const version = async (dir) => JSON.parse(await readFile(join(dir, 'package.json'), 'utf8')).version;

const electron = await version(join(root, 'node_modules', 'electron'));
const betterSqlite3 = await version(source);

await rm(out, { recursive: true, force: true });
await mkdir(join(out, 'node_modules'), { recursive: true });
// The sources only: the Node build in build/ must not be mistaken for Electron's.
await cp(source, join(out, 'node_modules', 'better-sqlite3'), { recursive: true, filter: (path) => !path.startsWith(join(source, 'build')) });
await writeFile(join(out, 'package.json'), JSON.stringify({ name: 'asset-sync-electron-native', private: true, dependencies: { 'better-sqlite3': betterSqlite3 } }, null, 2));

try {
  await rebuild({ buildPath: out, electronVersion: electron, onlyModules: ['better-sqlite3'], force: true, mode: 'sequential' });
} catch (error) {
  // No stamp is written, so the app and `npm start` see no build and say so.
  console.error(`Could not build better-sqlite3 ${betterSqlite3} for Electron ${electron}: ${error instanceof Error ? error.message : String(error)}`);
  console.error('It needs the network once (a prebuilt binary or Electron\'s headers) and a C++ toolchain.');
  process.exit(1);
}

const addon = join(out, 'node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node');
await stat(addon);
// Written last: a stamp means a finished build for exactly these versions.
await writeFile(join(out, 'stamp.json'), JSON.stringify({ electron, betterSqlite3, platform: process.platform, arch: process.arch }, null, 2));
console.log(`better-sqlite3 ${betterSqlite3} built for Electron ${electron} (${process.platform}-${process.arch}): ${addon}`);
