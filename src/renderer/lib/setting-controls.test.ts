import { describe, expect, it } from 'vitest';
import { settingControl } from './setting-controls.js';

const on = { launchAtLogin: true, startWithLocalLibrary: true, notifications: true };
const desktop = { kind: 'electron' } as const;
const headless = { kind: 'headless' } as const;

describe('the settings under "On this computer"', () => {
  it('says when starting with the local library applies, and shows it on while the local library is the account', () => {
    for (const host of [desktop, headless]) {
      expect(settingControl('startWithLocalLibrary', on, host)).toEqual({
        enabled: true,
        checked: true,
        hint: 'After you sign out: start with the built-in library on this computer instead of asking.',
      });
      expect(settingControl('startWithLocalLibrary', { ...on, startWithLocalLibrary: false }, host, true)).toEqual({
        enabled: false,
        checked: true,
        hint: 'You use the local library now, so Asset Sync starts with it. This choice matters once you sign in to a server instead.',
      });
    }
    expect(settingControl('startWithLocalLibrary', { ...on, startWithLocalLibrary: false }, headless).checked).toBe(false);
  });

  it('lets the desktop app change launch at login and notifications, which it applies at once', () => {
    expect(settingControl('launchAtLogin', on, desktop)).toEqual({ enabled: true, checked: true, hint: undefined });
    expect(settingControl('notifications', on, desktop)).toEqual({ enabled: true, checked: true, hint: 'For conflicts, files that can’t sync, held deletions and sign-in.' });
  });

  it('in the headless app, shows launch at login and notifications off and says only the desktop app has them', () => {
    expect(settingControl('launchAtLogin', on, headless)).toEqual({
      enabled: false,
      checked: false,
      hint: 'Only in the desktop app: here, Asset Sync runs while the terminal that started it stays open.',
    });
    expect(settingControl('notifications', on, headless)).toEqual({
      enabled: false,
      checked: false,
      hint: 'Only in the desktop app: here, the overview shows conflicts, files that can’t sync and held deletions.',
    });
  });
});
