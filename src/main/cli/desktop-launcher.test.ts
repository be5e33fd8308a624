import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { desktopDecision, findElectronBinary, probeDesktop, shellFiles, type DesktopFacts, type ProbeDeps } from './desktop-launcher.js';
import { tempDir } from '../../../test/support/temp-dir.js';

const ready: DesktopFacts = { platform: 'linux', env: { DISPLAY: ':0' }, shellBuilt: true, electronBinary: '/e/electron', electronPackage: true, fetchTried: false, sqliteProblem: undefined, rebuildTried: false };

describe('the desktop decision', () => {
  it('launches Electron where the binary, the built shell and a display are there', () => {
    expect(desktopDecision(ready)).toEqual({ kind: 'launch', binary: '/e/electron' });
    expect(desktopDecision({ ...ready, env: { WAYLAND_DISPLAY: 'wayland-0' } })).toEqual({ kind: 'launch', binary: '/e/electron' });
    expect(desktopDecision({ ...ready, platform: 'darwin', env: {} })).toEqual({ kind: 'launch', binary: '/e/electron' });
    expect(desktopDecision({ ...ready, platform: 'win32', env: {} })).toEqual({ kind: 'launch', binary: '/e/electron' });
  });

  it('stays headless on Linux without a display, before anything is downloaded', () => {
    expect(desktopDecision({ ...ready, env: {}, electronBinary: undefined })).toEqual({ kind: 'headless', reason: 'this machine has no display (neither DISPLAY nor WAYLAND_DISPLAY is set)' });
    expect(desktopDecision({ ...ready, env: { DISPLAY: '' } }).kind).toBe('headless');
  });

  it('tries to fetch a missing binary once, and then says why not', () => {
    const missing = { ...ready, electronBinary: undefined };
    expect(desktopDecision(missing)).toEqual({ kind: 'fetch' });
    expect(desktopDecision({ ...missing, fetchTried: true })).toEqual({ kind: 'headless', reason: 'the Electron binary is not installed and could not be downloaded on this machine' });
    expect(desktopDecision({ ...missing, env: { DISPLAY: ':0', ASSET_SYNC_FETCH_ELECTRON: '0' } }).kind).toBe('headless');
    expect(desktopDecision({ ...missing, electronPackage: false })).toEqual({ kind: 'headless', reason: 'Electron is not installed (npm install electron)' });
  });

  it('builds better-sqlite3 for Electron once when its build is missing, then launches or says why not', () => {
    const stale = { ...ready, sqliteProblem: 'better-sqlite3 has no build for Electron 45.4.1: it has not been built (npm run rebuild:electron)' };
    expect(desktopDecision(stale)).toEqual({ kind: 'rebuild-sqlite' });
    expect(desktopDecision({ ...stale, rebuildTried: true })).toEqual({ kind: 'headless', reason: stale.sqliteProblem });
    expect(desktopDecision({ ...stale, env: { DISPLAY: ':0', ASSET_SYNC_FETCH_ELECTRON: '0' } })).toEqual({ kind: 'headless', reason: stale.sqliteProblem });
    expect(desktopDecision({ ...ready, rebuildTried: true })).toEqual({ kind: 'launch', binary: '/e/electron' });
  });

  it('needs the built shell', () => {
    expect(desktopDecision({ ...ready, shellBuilt: false })).toEqual({ kind: 'headless', reason: 'the desktop shell is not built (run npm run build)' });
  });
});

describe('probeDesktop', () => {
  const deps = (overrides: Partial<ProbeDeps>): ProbeDeps & { fetches: number; rebuilds: number; launches: { binary: string; args: string[] }[] } => {
    const record = {
      fetches: 0,
      rebuilds: 0,
      launches: [] as { binary: string; args: string[] }[],
      platform: 'linux' as const,
      shellBuilt: () => true,
      findBinary: () => undefined,
      hasPackage: () => true,
      fetchBinary: () => {
        record.fetches += 1;
        return false;
      },
      sqliteProblem: () => undefined,
      rebuildSqlite: () => {
        record.rebuilds += 1;
        return false;
      },
      launch: async (binary: string, args: string[]) => {
        record.launches.push({ binary, args });
        return 0;
      },
      ...overrides,
    };
    return record;
  };

  it('fetches once, and launches the binary the fetch brought', async () => {
    let fetched = false;
    const d = deps({ findBinary: () => (fetched ? '/e/electron' : undefined), fetchBinary: () => (fetched = true) });
    const probe = await probeDesktop({ env: { DISPLAY: ':0' } }, d);
    expect(probe.available).toBe(true);
    if (probe.available) expect(await probe.launch(['--data', '/d'])).toBe(0);
    expect(d.launches).toEqual([{ binary: '/e/electron', args: ['--data', '/d'] }]);
  });

  it('gives one clear reason after a failed fetch, and fetches only once', async () => {
    const d = deps({});
    expect(await probeDesktop({ env: { DISPLAY: ':0' } }, d)).toEqual({ available: false, reason: 'the Electron binary is not installed and could not be downloaded on this machine' });
    expect(d.fetches).toBe(1);
  });

  it('builds better-sqlite3 for Electron before the first launch, and only once', async () => {
    let built = false;
    const d = deps({ findBinary: () => '/e/electron', sqliteProblem: () => (built ? undefined : 'no build'), rebuildSqlite: () => (built = true) });
    const probe = await probeDesktop({ env: { DISPLAY: ':0' } }, d);
    expect(probe.available).toBe(true);
    const failing = deps({ findBinary: () => '/e/electron', sqliteProblem: () => 'better-sqlite3 has no build for Electron 45.4.1' });
    expect(await probeDesktop({ env: { DISPLAY: ':0' } }, failing)).toEqual({ available: false, reason: 'better-sqlite3 has no build for Electron 45.4.1' });
    expect(failing.rebuilds).toBe(1);
    expect(failing.launches).toEqual([]);
  });

  it('never fetches without a display', async () => {
    const d = deps({});
    expect(await probeDesktop({ env: {} }, d)).toMatchObject({ available: false, reason: expect.stringContaining('no display') });
    expect(d.fetches).toBe(0);
  });
});

describe('findElectronBinary', () => {
  it('reads electron’s path.txt and answers the executable only when it exists', () => {
    const dir = tempDir('electron-');
    expect(findElectronBinary({}, dir)).toBeUndefined();
    writeFileSync(join(dir, 'path.txt'), 'electron');
    expect(findElectronBinary({}, dir)).toBeUndefined();
    mkdirSync(join(dir, 'dist'));
    writeFileSync(join(dir, 'dist', 'electron'), '');
    expect(findElectronBinary({}, dir)).toBe(join(dir, 'dist', 'electron'));
    expect(findElectronBinary({ ELECTRON_OVERRIDE_DIST_PATH: '/nowhere' }, dir)).toBeUndefined();
  });
});

describe('shellFiles', () => {
  it('names the main entry electron-builder packages, with the preload beside it', () => {
    const root = fileURLToPath(new URL('../../..', import.meta.url));
    const packaged = /^\s*main:\s*(\S+)/m.exec(readFileSync(join(root, 'electron-builder.yml'), 'utf8'))?.[1];
    const files = shellFiles();
    expect(relative(root, files.main)).toBe(packaged);
    expect(relative(root, files.preload)).toBe(join('dist', 'main', 'desktop', 'preload.cjs'));
  });
});
