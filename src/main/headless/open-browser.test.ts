import { describe, expect, it } from 'vitest';
import { canOpenHere, openInBrowser } from './open-browser.js';

describe('openInBrowser', () => {
  const display = { DISPLAY: ':0' };

  it('answers false without a display on Linux, starting nothing', async () => {
    expect(await openInBrowser('http://127.0.0.1/x', { platform: 'linux', env: {}, command: ['/bin/true', []] })).toBe(false);
  });

  it('answers false when the opener fails or is missing, true when it succeeds', async () => {
    expect(await openInBrowser('http://127.0.0.1/x', { platform: 'linux', env: display, command: ['/bin/false', []] })).toBe(false);
    expect(await openInBrowser('http://127.0.0.1/x', { platform: 'linux', env: display, command: ['/nonexistent/xdg-open', []] })).toBe(false);
    expect(await openInBrowser('http://127.0.0.1/x', { platform: 'linux', env: display, command: ['/bin/true', []] })).toBe(true);
  });
});

describe('canOpenHere', () => {
  const onPath = (path: string): boolean => path === '/usr/bin/xdg-open';

  it('is true on macOS and Windows, whose openers always run', () => {
    expect(canOpenHere({ platform: 'darwin', env: {} })).toBe(true);
    expect(canOpenHere({ platform: 'win32', env: {} })).toBe(true);
  });

  it('needs a display and xdg-open on the PATH elsewhere', () => {
    expect(canOpenHere({ platform: 'linux', env: { PATH: '/usr/bin' }, isExecutable: onPath })).toBe(false);
    expect(canOpenHere({ platform: 'linux', env: { DISPLAY: ':0', PATH: '/bin' }, isExecutable: onPath })).toBe(false);
    expect(canOpenHere({ platform: 'linux', env: { DISPLAY: ':0' }, isExecutable: onPath })).toBe(false);
    expect(canOpenHere({ platform: 'linux', env: { DISPLAY: ':0', PATH: '/bin:/usr/bin' }, isExecutable: onPath })).toBe(true);
    expect(canOpenHere({ platform: 'linux', env: { WAYLAND_DISPLAY: 'wayland-0', PATH: '/usr/bin' }, isExecutable: onPath })).toBe(true);
  });
});
