import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalJWKSet, jwtVerify, type JSONWebKeySet } from 'jose';
import { startTestService, type TestService } from '../../support/test-service.js';
import { authorizeParams, authorizeUrl, pkcePair } from '../../support/oauth-client.js';

const PUBLIC_URL = 'https://assets.example.test';

describe('discovery documents behind a public URL', () => {
  let service: TestService;
  /** Where the service really listens; every address it hands out must use PUBLIC_URL instead. */
  let local: string;
  beforeAll(async () => {
    service = await startTestService({ publicUrl: `${PUBLIC_URL}/` });
    const address = service.running.app.server.address() as AddressInfo;
    local = `http://127.0.0.1:${address.port}`;
  });
  afterAll(async () => {
    await service.dispose();
  });

  it('serves RFC 8414 metadata without a token, every URL on the public origin', async () => {
    const response = await fetch(`${local}/.well-known/oauth-authorization-server`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      issuer: PUBLIC_URL,
      authorization_endpoint: `${PUBLIC_URL}/authorize`,
      token_endpoint: `${PUBLIC_URL}/oauth/token`,
      revocation_endpoint: `${PUBLIC_URL}/oauth/revoke`,
      revocation_endpoint_auth_methods_supported: ['none', 'client_secret_post', 'client_secret_basic'],
      jwks_uri: `${PUBLIC_URL}/.well-known/jwks.json`,
      response_types_supported: ['code'],
      response_modes_supported: ['query'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      token_endpoint_auth_methods_supported: ['none', 'client_secret_post', 'client_secret_basic'],
      code_challenge_methods_supported: ['S256'],
      scopes_supported: ['offline_access'],
    });
  });

  it('serves a JWKS without a token that verifies its access tokens, and holds no private key', async () => {
    const response = await fetch(`${local}/.well-known/jwks.json`);
    expect(response.status).toBe(200);
    const jwks = (await response.json()) as JSONWebKeySet;
    expect(jwks.keys).toHaveLength(1);
    expect(jwks.keys[0]).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig' });
    expect(jwks.keys[0]).not.toHaveProperty('d');
    const { tokens } = service.running.ctx;
    const { payload } = await jwtVerify(await service.token(), createLocalJWKSet(jwks), { issuer: tokens.issuer, audience: tokens.audience });
    expect(payload.scope).toBe('subdomain:local');
  });

  it('posts the sign-in form to the public URL and marks its cookie Secure', async () => {
    const url = authorizeUrl(service, authorizeParams(service, pkcePair())).replace(PUBLIC_URL, local);
    const response = await fetch(url, { redirect: 'manual' });
    expect(response.status).toBe(200);
    expect(await response.text()).toContain(`action="${PUBLIC_URL}/authorize"`);
    expect(response.headers.get('content-security-policy')).toContain(`form-action ${PUBLIC_URL} http://127.0.0.1:53117`);
    expect(response.headers.getSetCookie()[0]).toContain('Secure');
  });
});
