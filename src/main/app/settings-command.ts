/**
 * The bridge command that changes the user's settings: only the known keys, a download folder only as
 * a full path, written to the settings file, and the bandwidth limits handed to the session's API at
 * once. It answers with the settings as stored; it never touches the engine's database.
 */
import { isAbsolute } from 'node:path';
import type { AppSettings } from '../../shared/bridge/app-state.js';
import { AppError } from './app-error.js';
import type { AppSession } from './app-session.js';
import { userSettings, type OpenedSettings } from './opened-settings.js';

const SETTING_KEYS: readonly (keyof AppSettings)[] = ['publishLive', 'uploadBytesPerSecond', 'downloadBytesPerSecond', 'launchAtLogin', 'startWithLocalLibrary', 'notifications', 'downloadFolder'];

const isSettingKey = (key: string): key is keyof AppSettings => SETTING_KEYS.some((known) => known === key);

export interface SettingsCommandParts {
  settings: OpenedSettings;
  session: AppSession;
  changed: () => void;
}

export function updateSettingsCommand({ settings, session, changed }: SettingsCommandParts): (patch: Partial<AppSettings>) => Promise<AppSettings> {
  return async (patch) => {
    const clean: Partial<AppSettings> = {};
    for (const key of Object.keys(patch)) {
      if (!isSettingKey(key)) throw new AppError('INVALID_REQUEST', `There is no setting "${key}".`);
    }
    Object.assign(clean, patch);
    if (typeof clean.downloadFolder === 'string') {
      // A folder the user typed: kept absolute, and refused when it is not a folder we can use.
      const folder = clean.downloadFolder.trim();
      if (folder === '' || !isAbsolute(folder)) throw new AppError('INVALID_REQUEST', `The download folder must be a full path, got "${clean.downloadFolder}".`);
      clean.downloadFolder = folder;
    }
    const next = settings.store().update(clean);
    session.current?.api.setBandwidthLimits({ uploadBytesPerSecond: next.uploadBytesPerSecond, downloadBytesPerSecond: next.downloadBytesPerSecond });
    changed();
    return userSettings(next);
  };
}
