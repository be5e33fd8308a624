/**
 * The installation's signing secrets: the ES256 key of access tokens and the HMAC secrets of signed
 * URLs, sign-in forms and search scrolls. They live in `signing-keys.json` beside service.db (0600),
 * never in the database, so a copy or backup of service.db alone can neither mint a token nor sign a
 * URL (a database restored without the key file gets new keys: issued tokens are refused and clients
 * refresh them). Older versions kept them in the settings table: the first start moves them to the
 * file, then erases the rows (secure_delete, so the freed pages hold no copy) and folds the log into
 * the database. Rotation (`asset-sync keys rotate`) replaces every secret and remembers the old key's
 * id, so a token it signed is refused with TOKEN_KEY_RETIRED rather than a bare TOKEN_INVALID.
 * The file is written whole or not at all: a 0600 temporary file, synced, renamed, its folder synced.
 * Must never: write a secret into the database, or widen the file's mode.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { closeSync, fsyncSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { exportJWK, generateKeyPair, type JWK } from 'jose';
import type { Db } from '../db/open-database.js';
import { AdminError } from '../cli/admin-error.js';
import { KEY_FILE, shellWord } from '../data-dir/secure-data-dir.js';
import { PRIVATE_FILE_MODE } from '../data-dir/private-files.js';

const ALGORITHM = 'ES256';
/** Retired key ids remembered; older ones then read as TOKEN_INVALID, which clients treat the same. */
const RETIRED_REMEMBERED = 20;

export interface SigningKeys {
  /** The private JWK (P-256, with `kid`) access tokens are signed with. */
  readonly accessToken: JWK & { kid: string; d: string };
  /** HMAC secret of part, download and reference-image URLs. */
  readonly urlSigning: string;
  /** HMAC secret of the sign-in form's transaction. */
  readonly signIn: string;
  /** HMAC secret of scroll search ids. */
  readonly scroll: string;
  /** Ids of access token keys retired by rotations, newest first. */
  readonly retiredKeyIds: readonly string[];
  /** When these keys were made (ISO-8601). */
  readonly createdAt: string;
}

/** The settings rows older versions kept the secrets in. */
const LEGACY_ROWS = { accessToken: 'jwt_private_jwk', urlSigning: 'url_signing_secret', signIn: 'oauth_sign_in_secret', scroll: 'scroll_signing_secret' } as const;

const newSecret = (): string => randomBytes(32).toString('base64url');

async function newAccessTokenKey(): Promise<SigningKeys['accessToken']> {
  const { privateKey } = await generateKeyPair(ALGORITHM, { extractable: true });
  const jwk = await exportJWK(privateKey);
  return { ...jwk, d: jwk.d ?? '', kid: randomUUID(), alg: ALGORITHM };
}

export function keyFileOf(dataDir: string): string {
  return join(dataDir, KEY_FILE);
}

/** The key file's keys; undefined when there is none. Throws KEY_FILE_INVALID for a file it cannot use. */
export function readSigningKeys(dataDir: string): SigningKeys | undefined {
  const file = keyFileOf(dataDir);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const invalid = (why: string): AdminError =>
    new AdminError(
      'KEY_FILE_INVALID',
      `${file} is not a signing key file this service can use (${why}). Put back the one you keep, or move it away to start with new keys (tokens issued so far are then refused and clients sign in again).`,
    );
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw invalid('not JSON');
  }
  if (typeof parsed !== 'object' || parsed === null) throw invalid('not an object');
  const keys = parsed as Record<string, unknown>;
  const jwk: unknown = keys.accessToken;
  if (typeof jwk !== 'object' || jwk === null || !('kty' in jwk) || !('crv' in jwk) || !('d' in jwk) || !('kid' in jwk) || jwk.kty !== 'EC' || jwk.crv !== 'P-256' || typeof jwk.d !== 'string' || typeof jwk.kid !== 'string') throw invalid('no P-256 access token key');
  for (const name of ['urlSigning', 'signIn', 'scroll'] as const) {
    if (typeof keys[name] !== 'string' || keys[name] === '') throw invalid(`no ${name} secret`);
  }
  const retired = Array.isArray(keys.retiredKeyIds) ? keys.retiredKeyIds.filter((id): id is string => typeof id === 'string') : [];
  return {
    accessToken: jwk as SigningKeys['accessToken'],
    urlSigning: String(keys.urlSigning),
    signIn: String(keys.signIn),
    scroll: String(keys.scroll),
    retiredKeyIds: retired,
    createdAt: typeof keys.createdAt === 'string' ? keys.createdAt : '',
  };
}

/** The keys the service starts with: the key file's; else an older version's from the database, or new ones, written to it. */
export async function openSigningKeys(dataDir: string, db: Db, now: () => Date = () => new Date()): Promise<SigningKeys> {
  const select = db.prepare<[string], { value: string }>('SELECT value FROM settings WHERE key = ?');
  const legacy = (key: string): string | undefined => select.get(key)?.value;
  let keys = readSigningKeys(dataDir);
  if (keys === undefined) {
    const storedJwk = legacy(LEGACY_ROWS.accessToken);
    keys = {
      accessToken: storedJwk === undefined ? await newAccessTokenKey() : (JSON.parse(storedJwk) as SigningKeys['accessToken']),
      urlSigning: legacy(LEGACY_ROWS.urlSigning) ?? newSecret(),
      signIn: legacy(LEGACY_ROWS.signIn) ?? newSecret(),
      scroll: legacy(LEGACY_ROWS.scroll) ?? newSecret(),
      retiredKeyIds: [],
      createdAt: now().toISOString(),
    };
    writeSigningKeys(dataDir, keys);
  }
  eraseLegacyRows(db);
  return keys;
}

/** Replaces every secret; the old access token key's id is remembered as retired. */
export async function rotateSigningKeys(dataDir: string, db: Db, now: () => Date = () => new Date()): Promise<{ retired: SigningKeys; current: SigningKeys }> {
  const retired = await openSigningKeys(dataDir, db, now);
  const current: SigningKeys = {
    accessToken: await newAccessTokenKey(),
    urlSigning: newSecret(),
    signIn: newSecret(),
    scroll: newSecret(),
    retiredKeyIds: [retired.accessToken.kid, ...retired.retiredKeyIds].slice(0, RETIRED_REMEMBERED),
    createdAt: now().toISOString(),
  };
  writeSigningKeys(dataDir, current);
  return { retired, current };
}

/** Thrown by commands that need the key file (`asset-sync token`) when the directory has none. */
export function noKeys(dataDir: string): AdminError {
  return new AdminError('NO_KEYS', `${keyFileOf(dataDir)} is missing, so no token can be signed for this data. Start the service once (\`asset-sync serve --data ${shellWord(dataDir)}\`): it moves an older version's keys there from the database, or makes new ones. Or put back the key file you keep.`);
}

function writeSigningKeys(dataDir: string, keys: SigningKeys): void {
  const file = keyFileOf(dataDir);
  const temporary = `${file}.${process.pid}.tmp`;
  rmSync(temporary, { force: true });
  const fd = openSync(temporary, 'wx', PRIVATE_FILE_MODE);
  try {
    writeSync(fd, `${JSON.stringify({ version: 1, ...keys }, null, 2)}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temporary, file);
  const dir = openSync(dataDir, 'r');
  try {
    fsyncSync(dir);
  } finally {
    closeSync(dir);
  }
}

/** Removes an older version's secret rows, overwriting their bytes, and folds the log into the database. */
function eraseLegacyRows(db: Db): void {
  const names = Object.values(LEGACY_ROWS);
  const placeholders = names.map(() => '?').join(', ');
  const present = db.prepare<string[], { n: number }>(`SELECT count(*) AS n FROM settings WHERE key IN (${placeholders})`).get(...names)?.n ?? 0;
  if (present === 0) return;
  const before = Number(db.pragma('secure_delete', { simple: true }));
  db.pragma('secure_delete = ON');
  try {
    db.prepare(`DELETE FROM settings WHERE key IN (${placeholders})`).run(...names);
  } finally {
    db.pragma(`secure_delete = ${before}`);
  }
  db.pragma('wal_checkpoint(TRUNCATE)');
}
