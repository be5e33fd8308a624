/**
 * Whether `npm start` can open the desktop window here, and the launch when it can. The
 * Electron binary cannot be downloaded on every machine (npm's install script may be off, the network
 * closed), and a Linux box may have no display: then start-command.ts runs the same app headless and
 * prints `reason`, one short lower-case clause. The decision is a pure function of what was found
 * (`desktopDecision`), so it is unit-tested; `probeDesktop` gathers the facts and does the side effects.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { chooseSqliteBinding, installedBetterSqlite3Version, projectRootOf, readNativeStamp } from '../../platform/sqlite-binding.js';

export type DesktopProbeResult = { available: true; launch(args: string[]): Promise<number> } | { available: false; reason: string };

/** What the probe found on this machine. */
export interface DesktopFacts {
  platform: NodeJS.Platform;
  env: Record<string, string | undefined>;
  /** The built main entry and preload exist (dist/main/desktop/). */
  shellBuilt: boolean;
  /** The Electron executable, when it is installed. */
  electronBinary: string | undefined;
  /** Whether the electron package is there at all (its install script can fetch the binary). */
  electronPackage: boolean;
  /** A fetch was already tried (this run); never twice. */
  fetchTried: boolean;
  /** Why better-sqlite3 has no usable build for this Electron (sqlite-binding.ts), or undefined when it has. */
  sqliteProblem: string | undefined;
  /** `npm run rebuild:electron` was already tried (this run); never twice. */
  rebuildTried: boolean;
}

export type DesktopDecision = { kind: 'launch'; binary: string } | { kind: 'fetch' } | { kind: 'rebuild-sqlite' } | { kind: 'headless'; reason: string };

/**
 * `ASSET_SYNC_FETCH_ELECTRON=0` turns the one download attempt off (offline machines, CI), and with it
 * the one build of better-sqlite3 for Electron (it fetches Electron's headers or a prebuilt binary).
 */
export const FETCH_ENV = 'ASSET_SYNC_FETCH_ELECTRON';

export function desktopDecision(facts: DesktopFacts): DesktopDecision {
  const has = (name: string): boolean => (facts.env[name] ?? '') !== '';
  if (facts.platform === 'linux' && !has('DISPLAY') && !has('WAYLAND_DISPLAY')) return { kind: 'headless', reason: 'this machine has no display (neither DISPLAY nor WAYLAND_DISPLAY is set)' };
  if (!facts.shellBuilt) return { kind: 'headless', reason: 'the desktop shell is not built (run npm run build)' };
  if (facts.electronBinary !== undefined) {
    if (facts.sqliteProblem === undefined) return { kind: 'launch', binary: facts.electronBinary };
    // Electron's main process opens the databases: it needs better-sqlite3 built for its own ABI.
    if (!facts.rebuildTried && facts.env[FETCH_ENV] !== '0') return { kind: 'rebuild-sqlite' };
    return { kind: 'headless', reason: facts.sqliteProblem };
  }
  if (!facts.electronPackage) return { kind: 'headless', reason: 'Electron is not installed (npm install electron)' };
  if (!facts.fetchTried && facts.env[FETCH_ENV] !== '0') return { kind: 'fetch' };
  return { kind: 'headless', reason: 'the Electron binary is not installed and could not be downloaded on this machine' };
}

/**
 * Where the desktop shell's built files are: dist/main/desktop/ of the project, the main entry
 * electron-builder.yml packages. Found from the project root, since this file runs from dist/main/cli/
 * or from a chunk of the CLI's bundle (dist/bundle/).
 */
export function shellFiles(): { main: string; preload: string } {
  const desktopDir = join(projectRootOf(dirname(fileURLToPath(import.meta.url))), 'dist', 'main', 'desktop');
  return { main: join(desktopDir, 'main.js'), preload: join(desktopDir, 'preload.cjs') };
}

/** The electron package's directory, without loading it (its index.js would download the binary). */
function electronPackageDir(): string | undefined {
  try {
    return dirname(createRequire(import.meta.url).resolve('electron/package.json'));
  } catch {
    return undefined;
  }
}

/** The executable named in electron's path.txt, when it exists (ELECTRON_OVERRIDE_DIST_PATH honoured). */
export function findElectronBinary(env: Record<string, string | undefined>, packageDir = electronPackageDir()): string | undefined {
  if (packageDir === undefined) return undefined;
  let executable: string;
  try {
    executable = readFileSync(join(packageDir, 'path.txt'), 'utf8').trim();
  } catch {
    return undefined;
  }
  const override = env.ELECTRON_OVERRIDE_DIST_PATH;
  const binary = override !== undefined && override !== '' ? join(override, executable) : join(packageDir, 'dist', executable);
  return existsSync(binary) ? binary : undefined;
}

export interface ProbeDeps {
  platform: NodeJS.Platform;
  shellBuilt(): boolean;
  findBinary(env: Record<string, string | undefined>): string | undefined;
  hasPackage(): boolean;
  /** Runs electron's own install script once, with a time limit; true when it finished well. */
  fetchBinary(env: Record<string, string | undefined>): boolean;
  /** Why better-sqlite3's Electron build does not fit the installed Electron, or undefined when it does. */
  sqliteProblem(): string | undefined;
  /** Builds better-sqlite3 for Electron once (resources/rebuild-electron-native.js); true when it finished well. */
  rebuildSqlite(env: Record<string, string | undefined>): boolean;
  launch(binary: string, args: string[], env: Record<string, string | undefined>): Promise<number>;
}

const FETCH_TIMEOUT_MS = 60_000;
/** A compile of SQLite from source takes a few minutes on a slow machine. */
const REBUILD_TIMEOUT_MS = 600_000;

/** The installed electron package's version, without loading it. */
function electronVersion(): string | undefined {
  const dir = electronPackageDir();
  if (dir === undefined) return undefined;
  try {
    const manifest = z.object({ version: z.string() }).safeParse(JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')));
    return manifest.success ? manifest.data.version : undefined;
  } catch {
    return undefined;
  }
}

export const systemProbeDeps: ProbeDeps = {
  platform: process.platform,
  shellBuilt: () => {
    const files = shellFiles();
    return existsSync(files.main) && existsSync(files.preload);
  },
  findBinary: (env) => findElectronBinary(env),
  hasPackage: () => electronPackageDir() !== undefined,
  sqliteProblem: () => {
    const electron = electronVersion();
    if (electron === undefined) return 'Electron is not installed (npm install electron)';
    const root = projectRootOf(dirname(fileURLToPath(import.meta.url)));
    const choice = chooseSqliteBinding({
      electron,
      packaged: false,
      resourcesPath: undefined,
      projectRoot: root,
      betterSqlite3: installedBetterSqlite3Version(),
      platform: process.platform,
      arch: process.arch,
      exists: existsSync,
      readStamp: readNativeStamp,
    });
    return choice.kind === 'missing' ? choice.reason : undefined;
  },
  rebuildSqlite: (env) => {
    const script = join(projectRootOf(dirname(fileURLToPath(import.meta.url))), 'resources', 'rebuild-electron-native.js');
    if (!existsSync(script)) return false;
    console.error('Building better-sqlite3 for Electron (once)…');
    const result = spawnSync(process.execPath, [script], { env, stdio: ['ignore', 'ignore', 'inherit'], timeout: REBUILD_TIMEOUT_MS });
    return result.status === 0;
  },
  fetchBinary: (env) => {
    const dir = electronPackageDir();
    if (dir === undefined) return false;
    const result = spawnSync(process.execPath, [join(dir, 'install.js')], { env, stdio: 'ignore', timeout: FETCH_TIMEOUT_MS });
    return result.status === 0;
  },
  launch: (binary, args, env) =>
    new Promise((resolve, reject) => {
      // ELECTRON_RUN_AS_NODE would make Electron a plain Node: never pass it on.
      const childEnv = { ...env };
      delete childEnv.ELECTRON_RUN_AS_NODE;
      const child = spawn(binary, [shellFiles().main, ...args], { stdio: 'inherit', env: childEnv });
      child.once('error', reject);
      child.once('exit', (code, signal) => {
        resolve(code ?? (signal === null ? 0 : 1));
      });
    }),
};

/** What start-command.ts calls first: the window where it can open, else why not. */
export async function probeDesktop(options: { env: Record<string, string | undefined> }, deps: ProbeDeps = systemProbeDeps): Promise<DesktopProbeResult> {
  const tried = { fetch: false, rebuild: false };
  const facts = (): DesktopFacts => {
    const electronBinary = deps.findBinary(options.env);
    return {
      platform: deps.platform,
      env: options.env,
      shellBuilt: deps.shellBuilt(),
      electronBinary,
      electronPackage: deps.hasPackage(),
      fetchTried: tried.fetch,
      // Only asked once there is an Electron to build for.
      sqliteProblem: electronBinary === undefined ? undefined : deps.sqliteProblem(),
      rebuildTried: tried.rebuild,
    };
  };
  let decision = desktopDecision(facts());
  if (decision.kind === 'fetch') {
    deps.fetchBinary(options.env);
    tried.fetch = true;
    decision = desktopDecision(facts());
  }
  if (decision.kind === 'rebuild-sqlite') {
    deps.rebuildSqlite(options.env);
    tried.rebuild = true;
    decision = desktopDecision(facts());
  }
  switch (decision.kind) {
    case 'launch': {
      const binary = decision.binary;
      return { available: true, launch: (args) => deps.launch(binary, args, options.env) };
    }
    case 'headless':
      return { available: false, reason: decision.reason };
    case 'fetch':
      return { available: false, reason: 'the Electron binary could not be downloaded' };
    case 'rebuild-sqlite':
      return { available: false, reason: 'better-sqlite3 could not be built for Electron' };
  }
}
