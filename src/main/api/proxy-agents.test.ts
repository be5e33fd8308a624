import { afterEach, describe, expect, it } from 'vitest';
import { bypassesProxy, proxyForUrl } from './proxy-agents.js';
import { createApiClient } from './create-api-client.js';
import { instantClock, scriptedTokens, sendJson, startConnectProxy, startFakeServer, type ConnectProxy, type FakeServer } from '../../../test/support/api-client-fakes.js';

describe('proxy selection', () => {
  const env = { HTTPS_PROXY: 'http://proxy.corp:3128', HTTP_PROXY: 'http://plain.corp:8080', NO_PROXY: 'internal.corp, .example.org,*.test.io,files.corp:8443,[fd00::1]' };

  it.each([
    ['https://api-v2.dash.app/assets', 'http://proxy.corp:3128'],
    ['http://api.example.com/', 'http://plain.corp:8080'],
    ['https://internal.corp/x', undefined],
    ['https://a.internal.corp/x', undefined],
    ['https://notinternal.corp/x', 'http://proxy.corp:3128'],
    ['https://example.org/x', undefined],
    ['https://cdn.example.org/x', undefined],
    ['https://deep.cdn.test.io/x', undefined],
    ['https://files.corp:8443/x', undefined],
    ['https://files.corp/x', 'http://proxy.corp:3128'], // NO_PROXY named another port
    ['http://[fd00::1]:7480/x', undefined],
    ['http://127.0.0.1:7480/x', undefined], // loopback never goes through a proxy
    ['http://localhost:7480/x', undefined],
    ['http://[::1]:7480/x', undefined],
  ])('%s → %s', (url, expected) => {
    expect(proxyForUrl(new URL(url), env)).toBe(expected);
  });

  it('prefers lower-case variables, falls back to ALL_PROXY, and honours NO_PROXY=*', () => {
    const url = new URL('https://api-v2.dash.app/');
    expect(proxyForUrl(url, { https_proxy: 'http://lower:1', HTTPS_PROXY: 'http://upper:2' })).toBe('http://lower:1');
    expect(proxyForUrl(url, { ALL_PROXY: 'http://all:3' })).toBe('http://all:3');
    expect(proxyForUrl(url, { HTTPS_PROXY: 'http://p:1', NO_PROXY: '*' })).toBeUndefined();
    expect(proxyForUrl(url, {})).toBeUndefined();
    expect(bypassesProxy(url, undefined)).toBe(false);
  });
});

describe('requests through an HTTP proxy', () => {
  let target: FakeServer | undefined;
  let proxy: ConnectProxy | undefined;
  afterEach(async () => {
    await proxy?.close();
    await target?.close();
  });

  it('tunnels through HTTP_PROXY with CONNECT, keeps the bearer inside the tunnel, and bypasses NO_PROXY hosts', async () => {
    target = await startFakeServer((_request, response) => sendJson(response, 200, { result: { id: 'u', email: 'via@proxy', accountId: 'a' } }));
    proxy = await startConnectProxy(Number(new URL(target.url).port));
    // The host does not exist: only the proxy's tunnel can have reached the server.
    const api = createApiClient({ server: 'http://assets.example.invalid:8080', tokens: scriptedTokens(), clock: instantClock(), env: { HTTP_PROXY: proxy.url } });
    try {
      expect((await api.currentUser()).result.email).toBe('via@proxy');
      expect(proxy.tunnels).toEqual(['assets.example.invalid:8080']);
      expect(target.requests[0]?.headers.authorization).toBe('Bearer token-1');
    } finally {
      api.close();
    }
    const direct = createApiClient({ server: 'http://assets.example.invalid:8080', tokens: scriptedTokens(), clock: instantClock(), env: { HTTP_PROXY: proxy.url, NO_PROXY: '.invalid' }, retry: { attempts: 1 } });
    try {
      await expect(direct.currentUser()).rejects.toMatchObject({ code: 'NETWORK', maybeApplied: false });
      expect(proxy.tunnels).toHaveLength(1);
    } finally {
      direct.close();
    }
  });

  it('refuses a proxy URL it cannot use with a clear code', async () => {
    const api = createApiClient({ server: 'https://assets.example.invalid', tokens: scriptedTokens(), clock: instantClock(), env: { HTTPS_PROXY: 'socks5://127.0.0.1:1080' } });
    try {
      await expect(api.currentUser()).rejects.toMatchObject({ code: 'INVALID_PROXY' });
    } finally {
      api.close();
    }
  });
});
