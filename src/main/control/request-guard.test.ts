import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { SESSION_DAYS, Sessions, newSecret, sessionCookieName } from './request-guard.js';

/** A request carrying only the given cookie header, as the guard reads it. */
function withCookie(cookie: string): IncomingMessage {
  const request = { headers: { cookie } };
  return request as unknown as IncomingMessage;
}

const DAY = 24 * 3600 * 1000;

describe('session cookies', () => {
  const cookieKey = newSecret();
  const port = 7470;
  const cookieOf = (sessions: Sessions): string => `${sessionCookieName(port)}=${sessions.open()}`;

  it('let a browser back in after a restart that keeps the cookie key, though the keys are new', () => {
    const before = new Sessions(newSecret(), cookieKey, () => port);
    const after = new Sessions(newSecret(), cookieKey, () => port);
    expect(after.authorised(withCookie(cookieOf(before)))).toBe(true);
  });

  it('are refused under another cookie key, another port, or with any part changed', () => {
    const sessions = new Sessions(newSecret(), cookieKey, () => port);
    const cookie = sessions.open();
    expect(new Sessions(newSecret(), newSecret(), () => port).authorised(withCookie(`${sessionCookieName(port)}=${cookie}`))).toBe(false);
    expect(sessions.authorised(withCookie(`${sessionCookieName(port + 1)}=${cookie}`))).toBe(false);
    const [issued = '', random = '', mac = ''] = cookie.split('.');
    for (const forged of [`${Number(issued) + 1}.${random}.${mac}`, `${issued}.${random.replace(/^./, (c) => (c === 'A' ? 'B' : 'A'))}.${mac}`, `${issued}.${random}`, 'forged']) {
      expect(sessions.authorised(withCookie(`${sessionCookieName(port)}=${forged}`)), forged).toBe(false);
    }
  });

  it(`end ${SESSION_DAYS} days after the secret was shown, and are not taken from the future`, () => {
    let now = Date.UTC(2026, 0, 1);
    const sessions = new Sessions(newSecret(), cookieKey, () => port, () => now);
    const cookie = withCookie(cookieOf(sessions));
    now += SESSION_DAYS * DAY - 1000;
    expect(sessions.authorised(cookie)).toBe(true);
    now += 2000;
    expect(sessions.authorised(cookie)).toBe(false);
    const early = new Sessions(newSecret(), cookieKey, () => port, () => Date.UTC(2025, 11, 1));
    expect(early.authorised(withCookie(cookieOf(new Sessions(newSecret(), cookieKey, () => port, () => Date.UTC(2026, 0, 1)))))).toBe(false);
  });

  it('are HttpOnly, SameSite=Strict, named for the port and kept for the session lifetime', () => {
    const header = new Sessions(newSecret(), cookieKey, () => port).cookieHeader();
    expect(header).toMatch(new RegExp(`^asset_sync_session_${port}=\\d+\\.[A-Za-z0-9_-]{24}\\.[A-Za-z0-9_-]{43}; HttpOnly; SameSite=Strict; Path=/; Max-Age=${SESSION_DAYS * 24 * 3600}$`));
  });
});

describe('window links', () => {
  const sessions = (): Sessions => new Sessions(newSecret(), newSecret(), () => 7470);

  it('each open the window once', () => {
    const guard = sessions();
    const [first, second] = [guard.newLink(), guard.newLink()];
    expect(guard.redeem(second)).toBe(true);
    expect(guard.redeem(second)).toBe(false);
    expect(guard.redeem(first)).toBe(true);
    expect(guard.redeem(first)).toBe(false);
    expect(guard.redeem('made-up')).toBe(false);
  });

  it('are kept sixteen at most, the oldest forgotten first', () => {
    const guard = sessions();
    const links = Array.from({ length: 17 }, () => guard.newLink());
    expect(guard.redeem(links[0] ?? '')).toBe(false);
    expect(links.slice(1).every((link) => guard.redeem(link))).toBe(true);
  });
});
