/**
 * The sign-in tokens on disk: one JSON file in the engine's state dir, mode 0600, replaced atomically
 * (temp file, fsync, rename, fsync of the directory) so a crash leaves either the old tokens or the new
 * ones, never half of each, and a rotated refresh token never coexists with the one it replaced.
 * `ASSET_SYNC_TOKEN` in the environment overrides the file with a static bearer token.
 * This module must never log, print or put a token in an error message.
 */
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, open, readFile, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { ApiError } from '../api/index.js';

export const TOKEN_FILE = 'tokens.json';
export const TOKEN_ENV = 'ASSET_SYNC_TOKEN';

export interface StoredTokens {
  /** The API's base URL these tokens are for. */
  server: string;
  /** The authorisation server's base URL (the API's own origin on the local service). */
  authServer: string;
  clientId: string;
  /** Only for a confidential client registered with a secret (custom integrations). */
  clientSecret?: string;
  accessToken: string;
  refreshToken: string | null;
  /** When the access token expires, ms since the epoch; null when the server did not say. */
  expiresAt: number | null;
  scope: string | null;
}

const storedSchema: z.ZodType<StoredTokens> = z.object({
  server: z.string().min(1),
  authServer: z.string().min(1),
  clientId: z.string().min(1),
  clientSecret: z.string().optional(),
  accessToken: z.string().min(1),
  refreshToken: z.string().min(1).nullable().default(null),
  expiresAt: z.number().nullable().default(null),
  scope: z.string().nullable().default(null),
});

export function tokenFilePath(stateDir: string): string {
  return join(stateDir, TOKEN_FILE);
}

/** The static bearer token of `ASSET_SYNC_TOKEN`, if set. */
export function tokenFromEnv(env: Readonly<Record<string, string | undefined>>): string | undefined {
  const token = env[TOKEN_ENV]?.trim();
  return token === undefined || token === '' ? undefined : token;
}

/** The stored tokens, or undefined when nobody is signed in. A file wider than 0600 is narrowed. */
export async function readTokens(stateDir: string): Promise<StoredTokens | undefined> {
  const path = tokenFilePath(stateDir);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if (error instanceof Error && 'code' in error && error.code === 'ENOENT') return undefined;
    throw error;
  }
  if (process.platform !== 'win32' && ((await stat(path)).mode & 0o077) !== 0) await chmod(path, 0o600);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  const result = storedSchema.safeParse(parsed);
  if (!result.success) {
    throw new ApiError({ code: 'TOKEN_STORE_INVALID', message: `${path} is not a valid token file; sign in again (asset-sync login).` });
  }
  return result.data;
}

/** Replaces the stored tokens atomically; the file is 0600 from its first byte. */
export async function writeTokens(stateDir: string, tokens: StoredTokens): Promise<void> {
  await mkdir(stateDir, { recursive: true, mode: 0o700 });
  const target = tokenFilePath(stateDir);
  const temporary = join(stateDir, `.${TOKEN_FILE}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  const handle = await open(temporary, 'wx', 0o600);
  try {
    try {
      await handle.chmod(0o600);
      await handle.writeFile(`${JSON.stringify(tokens, null, 2)}\n`, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, target);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
  await syncDirectory(stateDir);
}

/** Forgets the stored tokens; answers whether there were any. */
export async function deleteTokens(stateDir: string): Promise<boolean> {
  const path = tokenFilePath(stateDir);
  const existed = await stat(path).then(
    () => true,
    () => false,
  );
  await rm(path, { force: true });
  if (existed) await syncDirectory(stateDir);
  return existed;
}

/** Makes a rename durable. Directories cannot be opened for fsync on Windows; there it is skipped. */
async function syncDirectory(dir: string): Promise<void> {
  if (process.platform === 'win32') return;
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Where a sign-in's tokens are kept: this module's 0600 file by default; the Electron shell passes one
 * backed by safeStorage. The token provider, login and logout take one.
 */
export interface TokenStore {
  read(): Promise<StoredTokens | undefined>;
  write(tokens: StoredTokens): Promise<void>;
  /** Answers whether there was anything to forget. */
  delete(): Promise<boolean>;
}

export function fileTokenStore(stateDir: string): TokenStore {
  return { read: () => readTokens(stateDir), write: (tokens) => writeTokens(stateDir, tokens), delete: () => deleteTokens(stateDir) };
}
