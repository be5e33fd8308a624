import { existsSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LOCK_FILE, lockDataDir } from './data-dir-lock.js';
import { tempDir } from '../../../test/support/temp-dir.js';

describe('lockDataDir', () => {
  it('takes the directory, refuses a second taker naming the holder, and lets it go on release', () => {
    const dir = tempDir('asset-sync-lock-');
    const lock = lockDataDir(dir);
    expect(JSON.parse(readFileSync(join(dir, LOCK_FILE), 'utf8'))).toMatchObject({ pid: process.pid });
    expect(() => lockDataDir(dir)).toThrow(expect.objectContaining({ code: 'DATA_DIR_IN_USE', message: expect.stringContaining(`process ${process.pid}`) }));
    // Another live process holds it just the same.
    lock.release();
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);
    const other = lockDataDir(dir, { pid: 4242, isAlive: () => true });
    expect(() => lockDataDir(dir, { isAlive: (pid) => pid === 4242 })).toThrow(expect.objectContaining({ code: 'DATA_DIR_IN_USE' }));
    other.release();
    lockDataDir(dir).release();
  });

  it('takes over a lock whose process is gone, one left by an earlier process with its own id, and one it cannot read', () => {
    const dir = tempDir('asset-sync-lock-');
    const lockFile = join(dir, LOCK_FILE);
    writeFileSync(lockFile, JSON.stringify({ pid: 4242, since: '2026-01-01T00:00:00Z' }));
    lockDataDir(dir, { isAlive: () => false }).release();
    // In a container the service is process 1 after every restart: its own id, but not held here.
    writeFileSync(lockFile, JSON.stringify({ pid: process.pid, since: '2026-01-01T00:00:00Z' }));
    lockDataDir(dir).release();
    // Unreadable and fresh: perhaps another start writing it this moment. Seconds old: stale.
    writeFileSync(lockFile, '{"pi');
    expect(() => lockDataDir(dir, { isAlive: () => true })).toThrow(expect.objectContaining({ code: 'DATA_DIR_IN_USE' }));
    utimesSync(lockFile, new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
    const lock = lockDataDir(dir, { isAlive: () => true });
    expect(JSON.parse(readFileSync(lockFile, 'utf8'))).toMatchObject({ pid: process.pid });
    lock.release();
  });

  it('does not remove a lock another service took after its own was taken over', () => {
    const dir = tempDir('asset-sync-lock-');
    const lock = lockDataDir(dir);
    writeFileSync(join(dir, LOCK_FILE), JSON.stringify({ pid: 4242, since: '2026-01-01T00:00:00Z' }));
    lock.release();
    expect(JSON.parse(readFileSync(join(dir, LOCK_FILE), 'utf8'))).toMatchObject({ pid: 4242 });
  });
});
