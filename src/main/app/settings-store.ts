/**
 * The app's settings on disk, through `conf` (electron-store's core, so the headless app and the Electron
 * shell read the same file): one JSON schema with defaults, migrations between project versions, and
 * the account the app signs in as. A hand-edited file that no longer parses (or no longer fits the
 * schema) is never silently reset: it is renamed aside to `config.json.broken-<time>`, the app starts
 * from the defaults, and `problem` says so in words the state shows the user.
 */
import { renameSync } from 'node:fs';
import Conf, { type Schema } from 'conf';
import type { AppSettings, BridgeErrorData } from '../../shared/bridge/app-state.js';
import type { RecentQuickDownload } from '../../shared/bridge/quick-download.js';
import { AppError } from './app-error.js';

/** Who the app syncs as, remembered across starts (the tokens themselves live in the token store). */
/** `userId`: who signed in there last (their sync state is the one opened while the server cannot say). */
export type StoredAccount = { kind: 'local' } | { kind: 'remote'; server: string; userId?: string } | null;

export interface StoredSettings extends AppSettings {
  account: StoredAccount;
  /** The last quick downloads, newest first (the tray's recent assets). */
  recentQuickDownloads: RecentQuickDownload[];
}

/** The settings file's version; migrations below bring older files up to it. */
export const SETTINGS_VERSION = '2.0.0';

export const DEFAULT_SETTINGS: StoredSettings = {
  publishLive: false,
  uploadBytesPerSecond: null,
  downloadBytesPerSecond: null,
  launchAtLogin: false,
  startWithLocalLibrary: false,
  notifications: true,
  downloadFolder: null,
  account: null,
  recentQuickDownloads: [],
};

const rate = { anyOf: [{ type: 'integer', minimum: 1 }, { type: 'null' }] } as const;

const schema: Schema<StoredSettings> = {
  publishLive: { type: 'boolean', default: false },
  uploadBytesPerSecond: { ...rate, default: null },
  downloadBytesPerSecond: { ...rate, default: null },
  launchAtLogin: { type: 'boolean', default: false },
  startWithLocalLibrary: { type: 'boolean', default: false },
  notifications: { type: 'boolean', default: true },
  downloadFolder: { anyOf: [{ type: 'string', minLength: 1 }, { type: 'null' }], default: null },
  recentQuickDownloads: {
    type: 'array',
    maxItems: 50,
    items: {
      type: 'object',
      properties: {
        assetId: { type: 'string', minLength: 1 },
        filename: { type: 'string' },
        presetId: { anyOf: [{ type: 'string' }, { type: 'null' }] },
        presetName: { type: 'string' },
        at: { type: 'string' },
      },
      required: ['assetId', 'filename', 'presetId', 'presetName', 'at'],
      additionalProperties: false,
    },
    default: [],
  },
  account: {
    anyOf: [
      { type: 'null' },
      { type: 'object', properties: { kind: { const: 'local' } }, required: ['kind'], additionalProperties: false },
      { type: 'object', properties: { kind: { const: 'remote' }, server: { type: 'string', minLength: 1 }, userId: { type: 'string', minLength: 1 } }, required: ['kind', 'server'], additionalProperties: false },
    ],
    default: null,
  },
};

export interface SettingsStore {
  /** The file (for messages and tests). */
  readonly path: string;
  /** What went wrong reading the file at start, when it did (the file was kept aside). */
  readonly problem: BridgeErrorData | null;
  read(): StoredSettings;
  /** Applies a patch of user settings; answers them all. Bad values are refused, nothing half-written. */
  update(patch: Partial<StoredSettings>): StoredSettings;
}

export interface SettingsStoreOptions {
  /** The directory of `config.json`. */
  configDir: string;
  /** For the broken file's name (default Date.now). */
  now?: () => number;
  /** The version this code writes (tests run migrations with older ones). */
  projectVersion?: string;
}

function openConf(configDir: string, projectVersion: string): Conf<StoredSettings> {
  return new Conf<StoredSettings>({
    cwd: configDir,
    configName: 'config',
    projectName: 'asset-sync',
    projectVersion,
    schema,
    defaults: DEFAULT_SETTINGS,
    clearInvalidConfig: false,
    configFileMode: 0o600,
    migrations: {
      // 1.x kept one cap for both directions as `bandwidthBytesPerSecond`.
      '2.0.0': (store) => {
        const legacy: unknown = store.get('bandwidthBytesPerSecond' as keyof StoredSettings);
        if (typeof legacy === 'number' && Number.isInteger(legacy) && legacy > 0) {
          store.set('uploadBytesPerSecond', legacy);
          store.set('downloadBytesPerSecond', legacy);
        }
        store.delete('bandwidthBytesPerSecond' as keyof StoredSettings);
      },
    },
  });
}

export function openSettingsStore(options: SettingsStoreOptions): SettingsStore {
  const version = options.projectVersion ?? SETTINGS_VERSION;
  const now = options.now ?? Date.now;
  let conf: Conf<StoredSettings>;
  let problem: BridgeErrorData | null = null;
  try {
    conf = openConf(options.configDir, version);
  } catch (error) {
    const path = `${options.configDir}/config.json`;
    const aside = `${path}.broken-${new Date(now()).toISOString().replace(/[:.]/g, '-')}`;
    try {
      renameSync(path, aside);
    } catch (renameError) {
      throw new AppError('SETTINGS_UNREADABLE', `The settings file ${path} could not be read (${describe(error)}) nor moved aside (${describe(renameError)}); fix or remove it by hand.`);
    }
    problem = {
      name: 'AppError',
      code: 'SETTINGS_UNREADABLE',
      message: `The settings file could not be read (${describe(error)}); it was kept as ${aside} and the app started with default settings. Set them again, or fix that file and put it back.`,
    };
    conf = openConf(options.configDir, version);
  }
  return {
    path: conf.path,
    problem,
    read: () => known(conf.store),
    update(patch) {
      const next: StoredSettings = { ...known(conf.store), ...definedOnly(patch) };
      try {
        conf.store = next;
      } catch (error) {
        throw new AppError('INVALID_REQUEST', `Those settings are not valid: ${describe(error)}.`);
      }
      return next;
    },
  };
}

/** The settings alone, without conf's own bookkeeping (`__internal__`: the migrated version). */
function known(store: Partial<StoredSettings>): StoredSettings {
  const result: StoredSettings = { ...DEFAULT_SETTINGS };
  for (const key of Object.keys(DEFAULT_SETTINGS) as (keyof StoredSettings)[]) {
    if (store[key] !== undefined) Object.assign(result, { [key]: store[key] });
  }
  return result;
}

function definedOnly<T extends object>(patch: Partial<T>): Partial<T> {
  return Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined)) as Partial<T>;
}

function describe(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).replace(/\s+/g, ' ').trim();
}
