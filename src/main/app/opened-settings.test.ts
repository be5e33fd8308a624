import { homedir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/support/temp-dir.js';
import { ManualClock } from '../local/index.js';
import { OpenedSettings } from './opened-settings.js';

function settingsIn(downloadsDir: string | undefined) {
  const configDir = tempDir('opened-settings-');
  return { configDir, settings: new OpenedSettings({ configDir, clock: new ManualClock(), downloadsDir }) };
}

describe('the opened settings', () => {
  it('shows the defaults before start, and refuses to read or write them', () => {
    const { configDir, settings } = settingsIn('/home/dana/Downloads');
    expect(settings.isOpen).toBe(false);
    expect(settings.path).toBe(join(configDir, 'config.json'));
    expect(settings.view()).toMatchObject({ publishLive: false, notifications: true, downloadFolder: null });
    expect(() => settings.read()).toThrow(expect.objectContaining({ code: 'CLOSED' }));
    expect(() => settings.store()).toThrow(expect.objectContaining({ code: 'CLOSED' }));
    expect(settings.downloadFolder()).toBe('/home/dana/Downloads');
  });

  it('lands quick downloads in the folder the settings name, else the system Downloads folder', () => {
    const { settings } = settingsIn(undefined);
    settings.open();
    expect(settings.downloadFolder()).toBe(join(homedir(), 'Downloads'));
    settings.store().update({ downloadFolder: '/srv/assets' });
    expect(settings.downloadFolder()).toBe('/srv/assets');
    expect(settings.view().downloadFolder).toBe('/srv/assets');
  });
});
