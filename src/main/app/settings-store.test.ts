import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, openSettingsStore } from './settings-store.js';
import { tempDir } from '../../../test/support/temp-dir.js';

describe('the settings store', () => {
  it('starts from the defaults and keeps what is set across opens, in a 0600 file', () => {
    const dir = tempDir();
    const first = openSettingsStore({ configDir: dir });
    expect(first.read()).toEqual(DEFAULT_SETTINGS);
    expect(first.problem).toBeNull();
    first.update({ uploadBytesPerSecond: 2_000_000, publishLive: true, account: { kind: 'local' } });
    const again = openSettingsStore({ configDir: dir });
    expect(again.read()).toMatchObject({ uploadBytesPerSecond: 2_000_000, publishLive: true, downloadBytesPerSecond: null, account: { kind: 'local' } });
    if (process.platform !== 'win32') expect(statSync(again.path).mode & 0o777).toBe(0o600);
  });

  it('refuses values outside the schema and keeps the old ones', () => {
    const store = openSettingsStore({ configDir: tempDir() });
    expect(() => store.update({ uploadBytesPerSecond: -5 })).toThrow(expect.objectContaining({ code: 'INVALID_REQUEST' }));
    expect(() => store.update({ account: { kind: 'remote', server: '' } })).toThrow(expect.objectContaining({ code: 'INVALID_REQUEST' }));
    expect(store.read().uploadBytesPerSecond).toBeNull();
  });

  it('migrates a 1.x file: its single bandwidth cap becomes both caps', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ publishLive: true, bandwidthBytesPerSecond: 500_000, __internal__: { migrations: { version: '1.0.0' } } }));
    const store = openSettingsStore({ configDir: dir });
    expect(store.read()).toMatchObject({ publishLive: true, uploadBytesPerSecond: 500_000, downloadBytesPerSecond: 500_000 });
    const onDisk = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'));
    expect(onDisk.bandwidthBytesPerSecond).toBeUndefined();
    expect(onDisk.__internal__.migrations.version).toBe('2.0.0');
  });

  it('keeps a hand-edited file that no longer parses aside, starts from defaults and says so', () => {
    const dir = tempDir();
    const broken = '{ "publishLive": true, oops }';
    writeFileSync(join(dir, 'config.json'), broken);
    const store = openSettingsStore({ configDir: dir, now: () => Date.parse('2026-11-25T10:00:00.000Z') });
    expect(store.read()).toEqual(DEFAULT_SETTINGS);
    const aside = readdirSync(dir).find((name) => name.startsWith('config.json.broken-'));
    expect(aside).toBe('config.json.broken-2026-11-25T10-00-00-000Z');
    expect(readFileSync(join(dir, aside ?? ''), 'utf8')).toBe(broken);
    expect(store.problem).toMatchObject({ code: 'SETTINGS_UNREADABLE' });
    expect(store.problem?.message).toContain(aside);
    // Settings made after that are written to a fresh file, the broken one untouched.
    store.update({ notifications: false });
    expect(openSettingsStore({ configDir: dir }).read().notifications).toBe(false);
    expect(readFileSync(join(dir, aside ?? ''), 'utf8')).toBe(broken);
  });

  it('treats a file that parses but breaks the schema the same way', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ uploadBytesPerSecond: 'fast' }));
    const store = openSettingsStore({ configDir: dir });
    expect(store.problem?.code).toBe('SETTINGS_UNREADABLE');
    expect(store.read().uploadBytesPerSecond).toBeNull();
    expect(readdirSync(dir).some((name) => name.startsWith('config.json.broken-'))).toBe(true);
  });
});
