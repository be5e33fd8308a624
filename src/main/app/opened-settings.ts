/**
 * The settings as the running app holds them: opened once at start (settings-store.ts), read by every
 * part of the app, and the one place that says where quick downloads land. Before start every read
 * fails with CLOSED, except the state's view, which shows the defaults. It never validates a patch
 * (the settings command does) nor touches the engine.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { Clock } from '../local/index.js';
import type { AppSettings } from '../../shared/bridge/app-state.js';
import { AppError } from './app-error.js';
import { DEFAULT_SETTINGS, openSettingsStore, type SettingsStore, type StoredSettings } from './settings-store.js';

/** The settings the window shows and changes (the stored account and recent downloads are not among them). */
export const userSettings = (stored: StoredSettings): AppSettings => ({
  publishLive: stored.publishLive,
  uploadBytesPerSecond: stored.uploadBytesPerSecond,
  downloadBytesPerSecond: stored.downloadBytesPerSecond,
  launchAtLogin: stored.launchAtLogin,
  startWithLocalLibrary: stored.startWithLocalLibrary,
  notifications: stored.notifications,
  downloadFolder: stored.downloadFolder,
});

export interface OpenedSettingsOptions {
  configDir: string;
  clock: Clock;
  /** The system's Downloads folder (default ~/Downloads). */
  downloadsDir: string | undefined;
}

export class OpenedSettings {
  private opened: SettingsStore | undefined;

  constructor(private readonly options: OpenedSettingsOptions) {}

  /** Opens the settings file (once, at start). */
  open(): SettingsStore {
    this.opened = openSettingsStore({ configDir: this.options.configDir, now: () => this.options.clock.now() });
    return this.opened;
  }

  get path(): string {
    return this.opened?.path ?? join(this.options.configDir, 'config.json');
  }

  get isOpen(): boolean {
    return this.opened !== undefined;
  }

  read(): StoredSettings {
    return this.store().read();
  }

  store(): SettingsStore {
    if (this.opened === undefined) throw new AppError('CLOSED', 'The app has not started yet.');
    return this.opened;
  }

  /** The user's settings, the defaults before start. */
  view(): AppSettings {
    return this.opened === undefined ? userSettings(DEFAULT_SETTINGS) : userSettings(this.read());
  }

  /** Where quick downloads land: the settings' folder, else the system's Downloads folder. */
  downloadFolder(): string {
    return (this.opened === undefined ? null : this.read().downloadFolder) ?? this.options.downloadsDir ?? join(homedir(), 'Downloads');
  }
}
