/**
 * The app's settings on disk: `config.json` in the config directory, in the layout `conf` (electron-store's
 * core) wrote before it, so a file from an earlier version opens as it was: the settings at the top
 * level and the migrated version at `__internal__.migrations.version`. Checked against one zod schema
 * (the client loads zod anyway; conf compiled a JSON schema with ajv at every start, a fifth of a warm
 * start's CPU), migrated between versions, written whole to a temporary file and renamed (0600). A
 * hand-edited file that no longer parses (or no longer fits the schema) is never silently reset: it is
 * renamed aside to `config.json.broken-<time>`, the app starts from the defaults, and `problem` says
 * so in words the state shows the user.
 */
import { readFileSync, renameSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
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

const rate = z.number().int().min(1).nullable();

const schema = z.object({
  publishLive: z.boolean(),
  uploadBytesPerSecond: rate,
  downloadBytesPerSecond: rate,
  launchAtLogin: z.boolean(),
  startWithLocalLibrary: z.boolean(),
  notifications: z.boolean(),
  downloadFolder: z.string().min(1).nullable(),
  recentQuickDownloads: z
    .array(z.strictObject({ assetId: z.string().min(1), filename: z.string(), presetId: z.string().nullable(), presetName: z.string(), at: z.string() }))
    .max(50),
  account: z.union([z.null(), z.strictObject({ kind: z.literal('local') }), z.strictObject({ kind: z.literal('remote'), server: z.string().min(1), userId: z.string().min(1).optional() })]),
});

/** What the file holds besides the settings: conf's bookkeeping, and keys this version does not know. */
type FileContent = Record<string, unknown>;

/** Each version's step, run on a file migrated to an older one (in order of version). */
const migrations: [version: string, migrate: (content: FileContent) => void][] = [
  [
    '2.0.0',
    // 1.x kept one cap for both directions as `bandwidthBytesPerSecond`.
    (content) => {
      const legacy = content.bandwidthBytesPerSecond;
      if (typeof legacy === 'number' && Number.isInteger(legacy) && legacy > 0) {
        content.uploadBytesPerSecond = legacy;
        content.downloadBytesPerSecond = legacy;
      }
      delete content.bandwidthBytesPerSecond;
    },
  ],
];

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

/** Reads, migrates and checks the file (created with the defaults when there is none); throws when it cannot be used. */
function openFile(path: string, projectVersion: string): FileContent {
  let text: string | undefined;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if (!isMissing(error)) throw error;
  }
  const parsed: unknown = text === undefined ? {} : JSON.parse(text);
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('the file does not hold a JSON object');
  const content: FileContent = { ...parsed };
  const from = migratedVersion(content);
  const due = migrations.filter(([version]) => compareVersions(version, from) > 0 && compareVersions(version, projectVersion) <= 0);
  for (const [, migrate] of due) migrate(content);
  const settings = check(known(content));
  const migrated = due.length > 0 || from !== projectVersion;
  const next = { ...content, ...settings, __internal__: { ...internalOf(content), migrations: { version: projectVersion } } };
  if (text === undefined || migrated) writeWhole(path, next);
  return next;
}

export function openSettingsStore(options: SettingsStoreOptions): SettingsStore {
  const version = options.projectVersion ?? SETTINGS_VERSION;
  const now = options.now ?? Date.now;
  const path = join(options.configDir, 'config.json');
  mkdirSync(options.configDir, { recursive: true });
  let content: FileContent;
  let problem: BridgeErrorData | null = null;
  try {
    content = openFile(path, version);
  } catch (error) {
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
    content = openFile(path, version);
  }
  return {
    path,
    problem,
    read: () => known(content),
    update(patch) {
      let next: StoredSettings;
      try {
        next = check({ ...known(content), ...definedOnly(patch) });
      } catch (error) {
        throw new AppError('INVALID_REQUEST', `Those settings are not valid: ${describe(error)}.`);
      }
      const written = { ...content, ...next };
      writeWhole(path, written);
      content = written;
      return next;
    },
  };
}

/** The settings as the schema has them (`account.userId` absent rather than undefined); throws when they do not fit. */
function check(settings: StoredSettings): StoredSettings {
  const result = schema.safeParse(settings);
  if (!result.success) throw new Error(result.error.issues.map((issue) => `${issue.path.join('.') || 'settings'}: ${issue.message}`).join('; '));
  return { ...settings, ...result.data };
}

/** Whole or not at all: a crash mid-write leaves the previous file. */
function writeWhole(path: string, content: FileContent): void {
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(content, undefined, '\t')}\n`, { mode: 0o600 });
  renameSync(temporary, path);
}

function internalOf(content: FileContent): Record<string, unknown> {
  const internal = content.__internal__;
  return typeof internal === 'object' && internal !== null ? { ...internal } : {};
}

function migratedVersion(content: FileContent): string {
  const migrations = internalOf(content).migrations;
  const version = typeof migrations === 'object' && migrations !== null && 'version' in migrations ? migrations.version : undefined;
  return typeof version === 'string' ? version : '0.0.0';
}

/** Versions as `major.minor.patch` numbers (no pre-releases: this file's own versions). */
function compareVersions(left: string, right: string): number {
  const a = left.split('.').map(Number);
  const b = right.split('.').map(Number);
  for (let index = 0; index < 3; index++) {
    const difference = (a[index] ?? 0) - (b[index] ?? 0);
    if (difference !== 0) return difference;
  }
  return 0;
}

function isMissing(error: unknown): boolean {
  return typeof error === 'object' && error !== null && 'code' in error && error.code === 'ENOENT';
}

/** The settings alone, without the file's bookkeeping (`__internal__`: the migrated version), defaults for the missing. */
function known(content: FileContent): StoredSettings {
  const result: StoredSettings = { ...DEFAULT_SETTINGS };
  for (const key of Object.keys(DEFAULT_SETTINGS) as (keyof StoredSettings)[]) {
    if (content[key] !== undefined) Object.assign(result, { [key]: content[key] });
  }
  return result;
}

function definedOnly<T extends object>(patch: Partial<T>): Partial<T> {
  return Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined)) as Partial<T>;
}

function describe(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).replace(/\s+/g, ' ').trim();
}
