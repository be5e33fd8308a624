/**
 * Launch at login, on every platform the app ships for. macOS and Windows have it in Electron
 * (`app.setLoginItemSettings`; Windows starts us with `--hidden`, macOS says `wasOpenedAtLogin`).
 * Linux has no Electron API for it: desktops follow the freedesktop autostart spec, a `.desktop` entry
 * in `$XDG_CONFIG_HOME/autostart/` (default `~/.config/autostart/`), so the entry is written there
 * when the setting is on and removed when it is off. The command and the entry are pure functions.
 * See https://specifications.freedesktop.org/autostart-spec/latest/.
 */
import { join } from 'node:path';

/** The flag a start at login passes, so the app opens to the tray only. */
export const HIDDEN_FLAG = '--hidden';
export const AUTOSTART_FILE_NAME = 'asset-sync.desktop';

export interface LaunchCommand {
  exec: string;
  args: string[];
}

/**
 * What starts this app again: an AppImage by its own path (the process runs from a mount point that
 * changes every start), a packaged app by its executable, a development run by Electron and main.js.
 */
export function launchCommand(input: { execPath: string; packaged: boolean; mainScript: string; appImage: string | undefined }): LaunchCommand {
  if (input.appImage !== undefined && input.appImage !== '') return { exec: input.appImage, args: [HIDDEN_FLAG] };
  if (input.packaged) return { exec: input.execPath, args: [HIDDEN_FLAG] };
  return { exec: input.execPath, args: [input.mainScript, HIDDEN_FLAG] };
}

/**
 * One argument of an Exec line: always quoted, with `"`, `` ` ``, `$` and `\` escaped inside the quotes,
 * then the string escape of the file (a backslash doubled again), and `%` doubled (field codes).
 */
function execArgument(value: string): string {
  const quoted = `"${value.replace(/[\\"`$]/g, (c) => `\\${c}`)}"`;
  return quoted.replace(/\\/g, '\\\\').replace(/%/g, '%%');
}

/** The autostart entry for `command`. */
export function autostartEntry(command: LaunchCommand): string {
  const exec = [command.exec, ...command.args].map(execArgument).join(' ');
  return ['[Desktop Entry]', 'Type=Application', 'Name=Asset Sync', 'Comment=Keeps design folders and the asset service in step', `Exec=${exec}`, 'Terminal=false', 'X-GNOME-Autostart-enabled=true', ''].join('\n');
}

/** Where the autostart entry lives. */
export function autostartPath(env: Record<string, string | undefined>, home: string): string {
  const configHome = env.XDG_CONFIG_HOME;
  return join(configHome !== undefined && configHome !== '' && configHome.startsWith('/') ? configHome : join(home, '.config'), 'autostart', AUTOSTART_FILE_NAME);
}

export interface LoginItemDeps {
  platform: NodeJS.Platform;
  command: LaunchCommand;
  /** Electron's app.setLoginItemSettings (macOS, Windows). */
  setLoginItemSettings(settings: { openAtLogin: boolean; path?: string; args?: string[] }): void;
  /** The Linux autostart entry's path. */
  autostartFile: string;
  writeFile(path: string, text: string): Promise<void>;
  removeFile(path: string): Promise<void>;
}

/** Turns launch at login on or off for this platform. */
export async function applyLaunchAtLogin(enabled: boolean, deps: LoginItemDeps): Promise<void> {
  if (deps.platform === 'linux') {
    if (enabled) await deps.writeFile(deps.autostartFile, autostartEntry(deps.command));
    else await deps.removeFile(deps.autostartFile);
    return;
  }
  if (deps.platform === 'win32') {
    deps.setLoginItemSettings({ openAtLogin: enabled, path: deps.command.exec, args: deps.command.args });
    return;
  }
  // macOS starts the bundle itself; wasOpenedAtLogin says it was at login.
  deps.setLoginItemSettings({ openAtLogin: enabled });
}
