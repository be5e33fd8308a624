import { describe, expect, it } from 'vitest';
import { isRegistrableRedirectUri, redirectTo, redirectUriAllowed } from './redirect-uri.js';

const desktop = { redirectUris: ['http://127.0.0.1/callback', 'http://localhost/callback'], allowAnyLoopbackPort: true };
const exact = { redirectUris: ['https://app.example/cb', 'http://127.0.0.1:8080/cb'], allowAnyLoopbackPort: false };

describe('redirectUriAllowed', () => {
  it.each([
    'http://127.0.0.1/callback',
    'http://127.0.0.1:1/callback',
    'http://127.0.0.1:65535/callback',
    'http://localhost:8080/callback',
  ])('lets the any-port loopback client use %s', (uri) => {
    expect(redirectUriAllowed(desktop, uri)).toBe(true);
  });

  it.each([
    ['another path', 'http://127.0.0.1:8080/callback/x'],
    ['a query', 'http://127.0.0.1:8080/callback?a=1'],
    ['a fragment', 'http://127.0.0.1:8080/callback#x'],
    ['https', 'https://127.0.0.1:8080/callback'],
    ['another host', 'http://127.0.0.2:8080/callback'],
    ['a lookalike host', 'http://127.0.0.1.evil.example:8080/callback'],
    ['credentials', 'http://user@127.0.0.1:8080/callback'],
    ['dot segments', 'http://127.0.0.1:8080/x/../callback'],
    ['an explicit default port', 'http://127.0.0.1:80/callback'],
    ['upper-case scheme', 'HTTP://127.0.0.1:8080/callback'],
    ['IPv6 loopback not registered', 'http://[::1]:8080/callback'],
    ['not a URI', 'callback'],
  ])('refuses the any-port loopback client %s', (_name, uri) => {
    expect(redirectUriAllowed(desktop, uri)).toBe(false);
  });

  it('matches other clients exactly, port included', () => {
    expect(redirectUriAllowed(exact, 'https://app.example/cb')).toBe(true);
    expect(redirectUriAllowed(exact, 'http://127.0.0.1:8080/cb')).toBe(true);
    expect(redirectUriAllowed(exact, 'http://127.0.0.1:8081/cb')).toBe(false);
    expect(redirectUriAllowed(exact, 'https://app.example/cb/')).toBe(false);
    expect(redirectUriAllowed(exact, 'https://APP.example/cb')).toBe(false);
  });

  it('matches a URI registered as written without normalising either side', () => {
    const bare = { redirectUris: ['https://intranet.example.test', 'https://App.example:443/cb'], allowAnyLoopbackPort: false };
    expect(redirectUriAllowed(bare, 'https://intranet.example.test')).toBe(true);
    expect(redirectUriAllowed(bare, 'https://intranet.example.test/')).toBe(false);
    expect(redirectUriAllowed(bare, 'https://App.example:443/cb')).toBe(true);
    expect(redirectUriAllowed(bare, 'https://app.example/cb')).toBe(false);
  });
});

describe('redirectTo', () => {
  it('adds parameters, keeping an existing query', () => {
    expect(redirectTo('https://app.example/cb?tenant=a', { code: 'c', state: 'a b&c' })).toBe('https://app.example/cb?tenant=a&code=c&state=a+b%26c');
  });
});

describe('isRegistrableRedirectUri', () => {
  it.each([
    ['https://app.example/cb', true],
    ['http://127.0.0.1:8080/cb', true],
    ['https://intranet.example.test', true],
    ['https://intranet.example.test/', true],
    ['https://app.example:443/cb?tenant=a', true],
    ['HTTPS://App.Example/cb', true],
    ['https://app.example/a/../cb', true],
    ['https://app.example/cb#', false],
    ['https://app.example/cb#x', false],
    ['https://user:pw@app.example/cb', false],
    ['https://@app.example/cb', false],
    ['https://app.example/c b', false],
    ['https://app.example\\cb', false],
    ['https://app.example/cb\n', false],
    [' https://app.example/cb', false],
    ['https:\\\\app.example\\cb', false],
    ['https:app.example/cb', false],
    ['https://', false],
    ['ftp://app.example/cb', false],
    ['javascript:alert(1)', false],
    ['/relative', false],
  ])('%j → %s', (uri, expected) => {
    expect(isRegistrableRedirectUri(uri)).toBe(expected);
  });
});
