/**
 * Which compiled better-sqlite3 addon this process loads. better-sqlite3 is built against one Node ABI:
 * node_modules holds the build for Node 20 (tests, the CLI, the headless app), and Electron's main
 * process, which runs the engine and the embedded service too, needs a build for Electron's ABI. Both
 * live side by side so neither breaks the other: `npm run rebuild:electron`
 * (resources/rebuild-electron-native.js) compiles a copy of the module in build/electron-native/ and
 * stamps it with the versions it was built for; `npm run dist` ships that addon as
 * resources/native/better_sqlite3.node. Every `new Database` passes `sqliteOptions()`, which points
 * `nativeBinding` at the right file, so the choice is made here once, for the service's database and the
 * engine's alike.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type Database from 'better-sqlite3';
import { z } from 'zod';

/** Where the Electron build lives, relative to the project root. */
export const ELECTRON_NATIVE_DIR = join('build', 'electron-native');
/** The addon inside ELECTRON_NATIVE_DIR. */
export const ELECTRON_ADDON = join('node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node');
/** The stamp the rebuild writes beside it: what it was built for. */
export const ELECTRON_NATIVE_STAMP = 'stamp.json';
/** The addon inside a packaged app's resources directory (electron-builder.yml, extraResources). */
export const PACKAGED_ADDON = join('native', 'better_sqlite3.node');

/** What a build was made for; a build counts only when all four match the running app. */
export interface NativeStamp {
  electron: string;
  betterSqlite3: string;
  platform: string;
  arch: string;
}

export interface BindingFacts {
  /** process.versions.electron: undefined under plain Node. */
  electron: string | undefined;
  /** A packaged app (electron-builder) rather than `electron dist/main/desktop/main.js`. */
  packaged: boolean;
  /** process.resourcesPath in Electron. */
  resourcesPath: string | undefined;
  projectRoot: string;
  /** The installed better-sqlite3's version (its JavaScript must match the addon). */
  betterSqlite3: string;
  platform: string;
  arch: string;
  exists(path: string): boolean;
  readStamp(path: string): NativeStamp | undefined;
}

export type BindingChoice = { kind: 'node' } | { kind: 'file'; path: string } | { kind: 'missing'; reason: string };

/** Why `stamp` does not fit `wanted`, or undefined when it does. */
export function stampMismatch(stamp: NativeStamp | undefined, wanted: NativeStamp): string | undefined {
  if (stamp === undefined) return 'it has not been built (npm run rebuild:electron)';
  for (const key of ['electron', 'betterSqlite3', 'platform', 'arch'] as const) {
    if (stamp[key] !== wanted[key]) return `it was built for ${key} ${stamp[key]}, this is ${wanted[key]} (npm run rebuild:electron)`;
  }
  return undefined;
}

/** The Electron build's stamp file and addon under a project root. */
export function electronNativeFiles(projectRoot: string): { stamp: string; addon: string } {
  const dir = join(projectRoot, ELECTRON_NATIVE_DIR);
  return { stamp: join(dir, ELECTRON_NATIVE_STAMP), addon: join(dir, ELECTRON_ADDON) };
}

export function chooseSqliteBinding(facts: BindingFacts): BindingChoice {
  if (facts.electron === undefined) return { kind: 'node' };
  if (facts.packaged) {
    const path = join(facts.resourcesPath ?? '', PACKAGED_ADDON);
    return facts.exists(path) ? { kind: 'file', path } : { kind: 'missing', reason: `the app was packaged without ${PACKAGED_ADDON}` };
  }
  const files = electronNativeFiles(facts.projectRoot);
  const wanted: NativeStamp = { electron: facts.electron, betterSqlite3: facts.betterSqlite3, platform: facts.platform, arch: facts.arch };
  const mismatch = stampMismatch(facts.readStamp(files.stamp), wanted);
  if (mismatch !== undefined) return { kind: 'missing', reason: `better-sqlite3 has no build for Electron ${facts.electron}: ${mismatch}` };
  if (!facts.exists(files.addon)) return { kind: 'missing', reason: `better-sqlite3's Electron build is incomplete: ${files.addon} is missing (npm run rebuild:electron)` };
  return { kind: 'file', path: files.addon };
}

export class SqliteBindingError extends Error {
  readonly code = 'SQLITE_NO_ELECTRON_BUILD';
}

/** The project root: the nearest directory up from this file with a package.json. */
export function projectRootOf(from: string): string {
  let dir = from;
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) return from;
    dir = parent;
  }
  return dir;
}

const stampShape = z.object({ electron: z.string(), betterSqlite3: z.string(), platform: z.string(), arch: z.string() });

export function readNativeStamp(path: string): NativeStamp | undefined {
  try {
    const parsed = stampShape.safeParse(JSON.parse(readFileSync(path, 'utf8')));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** The installed better-sqlite3's version. */
export function installedBetterSqlite3Version(): string {
  const manifest = z.object({ version: z.string() }).safeParse(createRequire(import.meta.url)('better-sqlite3/package.json'));
  return manifest.success ? manifest.data.version : 'unknown';
}

/** Electron's typings declare these on every process; under Node they are absent. */
function electronProcess(): { electron: string | undefined; resourcesPath: string | undefined; defaultApp: boolean | undefined } {
  return { electron: process.versions.electron, resourcesPath: process.resourcesPath, defaultApp: process.defaultApp };
}

function systemFacts(): BindingFacts {
  const { electron, resourcesPath, defaultApp } = electronProcess();
  return {
    electron,
    // Electron sets process.defaultApp when started as `electron path/to/main.js`, never when packaged.
    packaged: electron !== undefined && defaultApp !== true,
    resourcesPath,
    projectRoot: projectRootOf(dirname(fileURLToPath(import.meta.url))),
    betterSqlite3: electron === undefined ? '' : installedBetterSqlite3Version(),
    platform: process.platform,
    arch: process.arch,
    exists: existsSync,
    readStamp: readNativeStamp,
  };
}

let chosen: BindingChoice | undefined;

/** The options every `new Database(file, …)` passes; throws SqliteBindingError when Electron has no build. */
export function sqliteOptions(): Database.Options {
  chosen ??= chooseSqliteBinding(systemFacts());
  switch (chosen.kind) {
    case 'node':
      return {};
    case 'file':
      return { nativeBinding: chosen.path };
    case 'missing':
      throw new SqliteBindingError(`Asset Sync cannot open its databases in Electron: ${chosen.reason}.`);
  }
}
