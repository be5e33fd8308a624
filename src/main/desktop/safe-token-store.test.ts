import { readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { StoredTokens } from '../auth/token-store.js';
import { createSafeTokenStore, tokenKeeping, type SafeStorageLike } from './safe-token-store.js';
import { tempDir } from '../../../test/support/temp-dir.js';

const tokens: StoredTokens = { server: 'https://acme.example.com', authServer: 'https://acme.example.com', clientId: 'asset-sync-desktop', accessToken: 'access-123', refreshToken: 'refresh-456', expiresAt: 1, scope: null };

/** A safeStorage stand-in: "encrypts" by XOR and base64, enough to prove the file holds no plain token. */
const xor = (data: Buffer): Buffer => Buffer.from(data.map((byte) => byte ^ 0x5a));
function safeStorage(backend: string | undefined, available = true): SafeStorageLike {
  return {
    isEncryptionAvailable: () => available,
    ...(backend === undefined ? {} : { getSelectedStorageBackend: () => backend }),
    encryptString: (text) => Buffer.from(xor(Buffer.from(text)).toString('base64')),
    decryptString: (data) => xor(Buffer.from(data.toString(), 'base64')).toString(),
  };
}

describe('where the sign-in is kept', () => {
  it.each([
    ['linux', 'gnome_libsecret', true, 'encrypted'],
    ['linux', 'kwallet5', true, 'encrypted'],
    ['linux', 'basic_text', true, 'memory-only'],
    ['linux', 'unknown', true, 'memory-only'],
    ['darwin', undefined, true, 'encrypted'],
    ['win32', undefined, true, 'encrypted'],
    ['darwin', undefined, false, 'memory-only'],
  ] as const)('on %s with %s (encryption available: %s): %s', (platform, backend, available, kind) => {
    expect(tokenKeeping(platform, safeStorage(backend, available)).kind).toBe(kind);
  });
});

describe('the desktop token store', () => {
  it('keeps the tokens encrypted in a 0600 file where a keyring exists', async () => {
    const dir = tempDir('tokens-');
    const file = join(dir, 'tokens.bin');
    const { store, secureStorage } = createSafeTokenStore({ file, platform: 'linux', safeStorage: safeStorage('gnome_libsecret') });
    expect(secureStorage).toBe(true);
    expect(await store.read()).toBeUndefined();
    await store.write(tokens);
    const onDisk = readFileSync(file, 'utf8');
    expect(onDisk).not.toContain('refresh-456');
    expect(onDisk).not.toContain('access-123');
    if (process.platform !== 'win32') expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(await store.read()).toEqual(tokens);
    expect(readdirSync(dir)).toEqual(['tokens.bin']);
    expect(await store.delete()).toBe(true);
    expect(await store.read()).toBeUndefined();
    expect(await store.delete()).toBe(false);
  });

  it('refuses a file it cannot decrypt, without showing what is in it', async () => {
    const file = join(tempDir('tokens-'), 'tokens.bin');
    writeFileSync(file, 'garbage refresh-456');
    const { store } = createSafeTokenStore({ file, platform: 'darwin', safeStorage: safeStorage(undefined) });
    const error: unknown = await store.read().catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'TOKEN_STORE_INVALID' });
    expect((error as Error).message).not.toContain('refresh-456');
  });

  it('with only the plain-text backend, writes nothing to disk and says the sign-in is not kept', async () => {
    const dir = tempDir('tokens-');
    const file = join(dir, 'tokens.bin');
    const { store, secureStorage, keeping } = createSafeTokenStore({ file, platform: 'linux', safeStorage: safeStorage('basic_text') });
    expect(secureStorage).toBe(false);
    expect(keeping).toMatchObject({ kind: 'memory-only', reason: expect.stringContaining('keyring') });
    await store.write(tokens);
    expect(await store.read()).toEqual(tokens);
    expect(readdirSync(dir)).toEqual([]);
    expect(await store.delete()).toBe(true);
    expect(await store.read()).toBeUndefined();
  });
});
