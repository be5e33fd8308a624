/**
 * How the app-wide settings under "On this computer" read on this host. A setting the running app
 * applies at once needs no word on timing; one read only at start says it applies from the next
 * start; one only the desktop shell can apply is switched off and disabled in the headless app, and
 * says so, rather than save a choice nothing acts on.
 */
import type { AppSettings, HostInfo } from '../../shared/bridge/app-state.js';

export type HostSetting = 'launchAtLogin' | 'startWithLocalLibrary' | 'notifications';

export interface SettingControl {
  /** Whether the control can be changed here. */
  enabled: boolean;
  /** Whether the box shows as checked: never for a setting nothing applies here. */
  checked: boolean;
  /** The line under the label: what the setting does, and when or where it applies. */
  hint: string | undefined;
}

/** `usingLocalLibrary`: the account now is the local library, which the app starts with again whatever the setting says. */
export function settingControl(setting: HostSetting, settings: Pick<AppSettings, HostSetting>, host: Pick<HostInfo, 'kind'>, usingLocalLibrary = false): SettingControl {
  const desktop = host.kind === 'electron';
  const value = settings[setting];
  switch (setting) {
    case 'launchAtLogin':
      return desktop
        ? { enabled: true, checked: value, hint: undefined }
        : { enabled: false, checked: false, hint: 'Only in the desktop app: here, Asset Sync runs while the terminal that started it stays open.' };
    case 'startWithLocalLibrary':
      // Only a signed-out start reads it: while the local library is the account, every start uses it.
      return usingLocalLibrary
        ? { enabled: false, checked: true, hint: 'You use the local library now, so Asset Sync starts with it. This choice matters once you sign in to a server instead.' }
        : { enabled: true, checked: value, hint: 'After you sign out: start with the built-in library on this computer instead of asking.' };
    case 'notifications':
      return desktop
        ? { enabled: true, checked: value, hint: 'For conflicts, files that can’t sync, held deletions and sign-in.' }
        : { enabled: false, checked: false, hint: 'Only in the desktop app: here, the overview shows conflicts, files that can’t sync and held deletions.' };
  }
}

/**
 * The question before signing out: what stops and what stays. The sync state is kept per server and
 * account, so signing in there again picks up where it left off, and another account starts afresh.
 */
export function signOutWords(local: boolean): string {
  return local
    ? 'Stop using the local library? Syncing stops. Your files stay on this computer and in the library; using it again picks up where you left off.'
    : 'Sign out? Syncing stops. Your files stay on this computer and in the service; signing in here again picks up where you left off.';
}
