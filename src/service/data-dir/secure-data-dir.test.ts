import { statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/support/temp-dir.js';
import { secureDataDir, shellWord } from './secure-data-dir.js';

describe('secureDataDir', () => {
  const uid = process.geteuid?.() ?? 0;

  it("refuses a directory another user owns (its owner reads it whatever the mode), naming chown", () => {
    const dir = tempDir('asset-sync-secure-');
    expect(() => secureDataDir(dir, { platform: 'linux', uid: uid + 1 })).toThrow(expect.objectContaining({ code: 'DATA_DIR_NOT_OWNED', message: expect.stringContaining(`chown -R ${uid + 1} ${dir}`) }));
  });

  it('leaves modes alone where there are none to check (Windows), and still makes the directory', () => {
    const dir = join(tempDir('asset-sync-secure-'), 'data');
    secureDataDir(dir, { platform: 'win32', uid: undefined });
    expect(statSync(dir).isDirectory()).toBe(true);
  });

  it('refuses a path that is not a directory', () => {
    const file = join(tempDir('asset-sync-secure-'), 'service.db');
    writeFileSync(file, '');
    expect(() => secureDataDir(file, { platform: 'linux', uid })).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }));
  });

  it('quotes a path for the shell only when it needs it', () => {
    expect(shellWord('/srv/asset-sync/data')).toBe('/srv/asset-sync/data');
    expect(shellWord("/home/me/Asset Sync's data")).toBe("'/home/me/Asset Sync'\\''s data'");
  });
});
