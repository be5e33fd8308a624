/**
 * The sign-in tokens in the desktop app, kept with Electron's safeStorage (the OS keychain, DPAPI, or
 * the Linux secret service) instead of the headless app's 0600 file. Where safeStorage can only offer
 * its plain-text backend (`basic_text`: Linux without a keyring), the refresh token must not be stored
 * in the clear: the tokens then live in memory for this run only, `secureStorage` is false in the
 * state so the UI says so, and the user signs in at each start. The choice is `tokenKeeping`, pure.
 * This module must never log a token or put one in an error message.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import type { StoredTokens, TokenStore } from '../auth/token-store.js';

/** What the store uses of Electron's safeStorage. */
export interface SafeStorageLike {
  isEncryptionAvailable(): boolean;
  /** Linux only, after the app is ready. */
  getSelectedStorageBackend?(): string;
  encryptString(plainText: string): Buffer;
  decryptString(encrypted: Buffer): string;
}

export type TokenKeeping = { kind: 'encrypted' } | { kind: 'memory-only'; reason: string };

/** Where the tokens may be kept on this machine. */
export function tokenKeeping(platform: NodeJS.Platform, safeStorage: Pick<SafeStorageLike, 'isEncryptionAvailable' | 'getSelectedStorageBackend'>): TokenKeeping {
  if (!safeStorage.isEncryptionAvailable()) return { kind: 'memory-only', reason: 'This system offers no encrypted storage for the sign-in.' };
  if (platform === 'linux') {
    const backend = safeStorage.getSelectedStorageBackend?.() ?? 'unknown';
    if (backend === 'basic_text' || backend === 'unknown') {
      return { kind: 'memory-only', reason: 'No keyring (such as GNOME Keyring or KWallet) is running, so the sign-in is not kept between starts.' };
    }
  }
  return { kind: 'encrypted' };
}

const storedSchema = z.object({
  server: z.string().min(1),
  authServer: z.string().min(1),
  clientId: z.string().min(1),
  clientSecret: z.string().optional(),
  accessToken: z.string().min(1),
  refreshToken: z.string().min(1).nullable(),
  expiresAt: z.number().nullable(),
  scope: z.string().nullable(),
});

export class TokenStoreError extends Error {
  override readonly name = 'TokenStoreError';
  readonly code = 'TOKEN_STORE_INVALID';
}

/** Tokens for this run only: nothing touches the disk. */
export function memoryTokenStore(): TokenStore {
  let tokens: StoredTokens | undefined;
  return {
    read: () => Promise.resolve(tokens),
    write: (next) => {
      tokens = { ...next };
      return Promise.resolve();
    },
    delete: () => {
      const had = tokens !== undefined;
      tokens = undefined;
      return Promise.resolve(had);
    },
  };
}

/** Tokens encrypted by safeStorage in `file` (0600, replaced atomically). */
export function encryptedTokenStore(file: string, safeStorage: SafeStorageLike): TokenStore {
  return {
    async read() {
      let encrypted: Buffer;
      try {
        encrypted = await readFile(file);
      } catch (error) {
        if (error instanceof Error && 'code' in error && error.code === 'ENOENT') return undefined;
        throw error;
      }
      let parsed: unknown;
      try {
        parsed = JSON.parse(safeStorage.decryptString(encrypted));
      } catch {
        parsed = undefined;
      }
      const result = storedSchema.safeParse(parsed);
      if (!result.success) throw new TokenStoreError(`The saved sign-in in ${file} cannot be read (the keyring may have changed); sign in again.`);
      const { clientSecret, ...rest } = result.data;
      return clientSecret === undefined ? rest : { ...rest, clientSecret };
    },
    async write(tokens) {
      const dir = dirname(file);
      await mkdir(dir, { recursive: true, mode: 0o700 });
      const temporary = join(dir, `.tokens.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
      const handle = await open(temporary, 'wx', 0o600);
      try {
        try {
          await handle.writeFile(safeStorage.encryptString(JSON.stringify(tokens)));
          await handle.sync();
        } finally {
          await handle.close();
        }
        await rename(temporary, file);
      } catch (error) {
        await rm(temporary, { force: true });
        throw error;
      }
    },
    async delete() {
      const existed = await readFile(file).then(
        () => true,
        () => false,
      );
      await rm(file, { force: true });
      return existed;
    },
  };
}

/** The store the desktop app uses, and whether it keeps the sign-in across starts (host.secureStorage). */
export function createSafeTokenStore(options: { file: string; platform: NodeJS.Platform; safeStorage: SafeStorageLike }): { store: TokenStore; keeping: TokenKeeping; secureStorage: boolean } {
  const keeping = tokenKeeping(options.platform, options.safeStorage);
  if (keeping.kind === 'encrypted') return { store: encryptedTokenStore(options.file, options.safeStorage), keeping, secureStorage: true };
  return { store: memoryTokenStore(), keeping, secureStorage: false };
}
