/**
 * Whether `npm start` can open the desktop window here, and the launch when it can (issue 17). The
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

export type DesktopProbeResult = { available: true; launch(args: string[]): Promise<number> } | { available: false; reason: string };

/** What the probe found on this machine. */
export interface DesktopFacts {
  platform: NodeJS.Platform;
  env: Record<string, string | undefined>;
  /** The built main entry and preload exist (dist/main/app/). */
  shellBuilt: boolean;
  /** The Electron executable, when it is installed. */
  electronBinary: string | undefined;
  /** Whether the electron package is there at all (its install script can fetch the binary). */
  electronPackage: boolean;
  /** A fetch was already tried (this run); never twice. */
  fetchTried: boolean;
}

export type DesktopDecision = { kind: 'launch'; binary: string } | { kind: 'fetch' } | { kind: 'headless'; reason: string };

/** `ASSET_SYNC_FETCH_ELECTRON=0` turns the one download attempt off (offline machines, CI). */
export const FETCH_ENV = 'ASSET_SYNC_FETCH_ELECTRON';

export function desktopDecision(facts: DesktopFacts): DesktopDecision {
  const has = (name: string): boolean => (facts.env[name] ?? '') !== '';
  if (facts.platform === 'linux' && !has('DISPLAY') && !has('WAYLAND_DISPLAY')) return { kind: 'headless', reason: 'this machine has no display (neither DISPLAY nor WAYLAND_DISPLAY is set)' };
  if (!facts.shellBuilt) return { kind: 'headless', reason: 'the desktop shell is not built (run npm run build)' };
  if (facts.electronBinary !== undefined) return { kind: 'launch', binary: facts.electronBinary };
  if (!facts.electronPackage) return { kind: 'headless', reason: 'Electron is not installed (npm install electron)' };
  if (!facts.fetchTried && facts.env[FETCH_ENV] !== '0') return { kind: 'fetch' };
  return { kind: 'headless', reason: 'the Electron binary is not installed and could not be downloaded on this machine' };
}

/** Where the desktop shell's built files are (dist/main/app/, beside this file's dist/main/cli/). */
export function shellFiles(): { main: string; preload: string } {
  const appDir = join(dirname(fileURLToPath(import.meta.url)), '..', 'app');
  return { main: join(appDir, 'main.js'), preload: join(appDir, 'preload.cjs') };
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
  launch(binary: string, args: string[], env: Record<string, string | undefined>): Promise<number>;
}

const FETCH_TIMEOUT_MS = 60_000;

export const systemProbeDeps: ProbeDeps = {
  platform: process.platform,
  shellBuilt: () => {
    const files = shellFiles();
    return existsSync(files.main) && existsSync(files.preload);
  },
  findBinary: (env) => findElectronBinary(env),
  hasPackage: () => electronPackageDir() !== undefined,
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
  const facts = (fetchTried: boolean): DesktopFacts => ({
    platform: deps.platform,
    env: options.env,
    shellBuilt: deps.shellBuilt(),
    electronBinary: deps.findBinary(options.env),
    electronPackage: deps.hasPackage(),
    fetchTried,
  });
  let decision = desktopDecision(facts(false));
  if (decision.kind === 'fetch') {
    deps.fetchBinary(options.env);
    decision = desktopDecision(facts(true));
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
  }
}
