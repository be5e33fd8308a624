import { chmodSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { deleteTokens, readTokens, tokenFilePath, tokenFromEnv, writeTokens, type StoredTokens } from './token-store.js';
import { tempDir } from '../../../test/support/temp-dir.js';

const tokens: StoredTokens = {
  server: 'http://127.0.0.1:7480',
  authServer: 'http://127.0.0.1:7480',
  clientId: 'asset-sync-desktop',
  accessToken: 'access-1',
  refreshToken: 'refresh-1',
  expiresAt: 1_800_000_000_000,
  scope: 'subdomain:local offline_access',
};

// These assert POSIX file modes (0600, 0700), which Windows does not have; there the store relies on
// the user profile's ACLs (and the desktop app on safeStorage).
describe.skipIf(process.platform === 'win32')('the token store', () => {
  let root: string;
  let stateDir: string;
  beforeEach(() => {
    root = tempDir('asset-sync-tokens-');
    stateDir = join(root, 'state');
  });

  it('writes the tokens as JSON readable by the owner only, creating the state dir', async () => {
    await writeTokens(stateDir, tokens);
    expect(statSync(tokenFilePath(stateDir)).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(tokenFilePath(stateDir), 'utf8'))).toEqual(tokens);
    expect(await readTokens(stateDir)).toEqual(tokens);
  });

  it('replaces them atomically and leaves no temp file behind', async () => {
    await writeTokens(stateDir, tokens);
    await writeTokens(stateDir, { ...tokens, accessToken: 'access-2', refreshToken: 'refresh-2' });
    expect(await readTokens(stateDir)).toMatchObject({ accessToken: 'access-2', refreshToken: 'refresh-2' });
    expect(readdirSync(stateDir)).toEqual(['tokens.json']);
    expect(statSync(tokenFilePath(stateDir)).mode & 0o777).toBe(0o600);
  });

  it('answers undefined with no file, narrows a file that others can read, and refuses a broken one', async () => {
    expect(await readTokens(stateDir)).toBeUndefined();
    await writeTokens(stateDir, tokens);
    chmodSync(tokenFilePath(stateDir), 0o644);
    await readTokens(stateDir);
    expect(statSync(tokenFilePath(stateDir)).mode & 0o777).toBe(0o600);
    writeFileSync(tokenFilePath(stateDir), '{"accessToken": 3}');
    const error = await readTokens(stateDir).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'TOKEN_STORE_INVALID' });
    expect(String(error)).not.toContain('access');
  });

  it('forgets the tokens on delete', async () => {
    expect(await deleteTokens(stateDir)).toBe(false);
    await writeTokens(stateDir, tokens);
    expect(await deleteTokens(stateDir)).toBe(true);
    expect(await readTokens(stateDir)).toBeUndefined();
  });

  it('reads ASSET_SYNC_TOKEN as a static override', () => {
    expect(tokenFromEnv({ ASSET_SYNC_TOKEN: ' abc ' })).toBe('abc');
    expect(tokenFromEnv({ ASSET_SYNC_TOKEN: '' })).toBeUndefined();
    expect(tokenFromEnv({})).toBeUndefined();
  });
});
