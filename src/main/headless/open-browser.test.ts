import { describe, expect, it } from 'vitest';
import { openInBrowser } from './open-browser.js';

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
