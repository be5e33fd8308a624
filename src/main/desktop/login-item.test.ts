import { existsSync, readFileSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyLaunchAtLogin, autostartEntry, autostartPath, launchCommand, type LoginItemDeps } from './login-item.js';
import { tempDir } from '../../../test/support/temp-dir.js';

describe('the command that starts the app at login', () => {
  it('runs an AppImage by its own path, a packaged app by its executable, a development run through main.js', () => {
    const base = { execPath: '/tmp/.mount_AssetX/asset-sync', packaged: true, mainScript: '/repo/dist/main/desktop/main.js', appImage: undefined };
    expect(launchCommand({ ...base, appImage: '/home/ann/Apps/Asset Sync.AppImage' })).toEqual({ exec: '/home/ann/Apps/Asset Sync.AppImage', args: ['--hidden'] });
    expect(launchCommand({ ...base, execPath: '/opt/Asset Sync/asset-sync' })).toEqual({ exec: '/opt/Asset Sync/asset-sync', args: ['--hidden'] });
    expect(launchCommand({ ...base, packaged: false, execPath: '/repo/node_modules/electron/dist/electron' })).toEqual({
      exec: '/repo/node_modules/electron/dist/electron',
      args: ['/repo/dist/main/desktop/main.js', '--hidden'],
    });
  });

  it('writes an Exec line a desktop reads back to the same arguments (spaces, quotes, $, %, backslashes)', () => {
    const entry = autostartEntry({ exec: '/opt/Asset Sync/asset-sync', args: ['--hidden', 'a "b" $HOME 100% c\\d'] });
    expect(entry).toContain('[Desktop Entry]\nType=Application\nName=Asset Sync\n');
    expect(entry).toContain('Exec="/opt/Asset Sync/asset-sync" "--hidden" "a \\\\"b\\\\" \\\\$HOME 100%% c\\\\\\\\d"\n');
  });

  it('lives in $XDG_CONFIG_HOME/autostart, or ~/.config/autostart when that is unset or relative', () => {
    expect(autostartPath({ XDG_CONFIG_HOME: '/cfg' }, '/home/ann')).toBe('/cfg/autostart/asset-sync.desktop');
    expect(autostartPath({}, '/home/ann')).toBe('/home/ann/.config/autostart/asset-sync.desktop');
    expect(autostartPath({ XDG_CONFIG_HOME: 'rel' }, '/home/ann')).toBe('/home/ann/.config/autostart/asset-sync.desktop');
  });
});

describe('turning launch at login on and off', () => {
  const deps = (platform: NodeJS.Platform, file: string): LoginItemDeps & { calls: unknown[] } => {
    const calls: unknown[] = [];
    return {
      calls,
      platform,
      command: { exec: '/opt/Asset Sync/asset-sync', args: ['--hidden'] },
      setLoginItemSettings: (settings) => calls.push(settings),
      autostartFile: file,
      writeFile: async (path, text) => {
        await mkdir(dirname(path), { recursive: true });
        await writeFile(path, text);
      },
      removeFile: (path) => rm(path, { force: true }),
    };
  };

  it('on Linux writes the autostart entry, and removes it again (twice is fine)', async () => {
    const file = join(tempDir('autostart-'), 'autostart', 'asset-sync.desktop');
    const linux = deps('linux', file);
    await applyLaunchAtLogin(true, linux);
    expect(readFileSync(file, 'utf8')).toContain('Exec="/opt/Asset Sync/asset-sync" "--hidden"');
    await applyLaunchAtLogin(false, linux);
    await applyLaunchAtLogin(false, linux);
    expect(existsSync(file)).toBe(false);
    expect(linux.calls).toEqual([]);
  });

  it('on Windows registers the executable with --hidden; on macOS the bundle itself', async () => {
    const windows = deps('win32', '/unused');
    await applyLaunchAtLogin(true, windows);
    expect(windows.calls).toEqual([{ openAtLogin: true, path: '/opt/Asset Sync/asset-sync', args: ['--hidden'] }]);
    const mac = deps('darwin', '/unused');
    await applyLaunchAtLogin(true, mac);
    await applyLaunchAtLogin(false, mac);
    expect(mac.calls).toEqual([{ openAtLogin: true }, { openAtLogin: false }]);
  });
});
