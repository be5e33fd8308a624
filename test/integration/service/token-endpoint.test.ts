import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../support/test-service.js';
import {
  authorize,
  authorizeParams,
  currentUser,
  pkcePair,
  requestToken,
  DESKTOP_CLIENT_ID,
  LOOPBACK_REDIRECT,
} from '../../support/oauth-client.js';

describe('POST /oauth/token', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService();
  });
  afterAll(async () => {
    await service.dispose();
  });

  const codeRequest = async (): Promise<Record<string, string>> => {
    const pkce = pkcePair();
    const { code } = await authorize(service, authorizeParams(service, pkce));
    return { grant_type: 'authorization_code', client_id: DESKTOP_CLIENT_ID, code, redirect_uri: LOOPBACK_REDIRECT, code_verifier: pkce.verifier };
  };

  it.each([
    ['form-encoded', false],
    ['JSON', true],
  ])('accepts a %s body for both grants', async (_name, json) => {
    const exchanged = await requestToken(service, await codeRequest(), { json });
    expect(exchanged.status).toBe(200);
    expect(Object.keys(exchanged.body).sort()).toEqual(['access_token', 'expires_in', 'refresh_token', 'scope', 'token_type']);
    const refreshed = await requestToken(service, { grant_type: 'refresh_token', client_id: DESKTOP_CLIENT_ID, refresh_token: exchanged.body.refresh_token }, { json });
    expect(refreshed.status).toBe(200);
    expect((await currentUser(service, refreshed.body.access_token)).status).toBe(200);
  });

  it.each(['client_credentials', 'password', 'urn:ietf:params:oauth:grant-type:device_code', 'implicit'])('refuses grant_type=%s', async (grantType) => {
    const answer = await requestToken(service, { grant_type: grantType, client_id: DESKTOP_CLIENT_ID, username: 'admin@localhost', password: 'x' });
    expect(answer.status).toBe(400);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    expect(answer.body).toMatchObject({ error: 'unsupported_grant_type', code: 'OAUTH_UNSUPPORTED_GRANT_TYPE', status: 400, path: '/oauth/token' });
    expect(answer.body.error_description).toContain(grantType);
    expect(answer.body.message).toBe(answer.body.error_description);
    expect(Date.parse(answer.body.timestamp)).not.toBeNaN();
  });

  it('says which parameter is missing', async () => {
    const noGrant = await requestToken(service, { client_id: DESKTOP_CLIENT_ID });
    expect(noGrant.body).toMatchObject({ error: 'invalid_request', code: 'OAUTH_INVALID_REQUEST' });
    expect(noGrant.body.error_description).toMatch(/grant_type/);
    const { code: _code, ...withoutCode } = await codeRequest();
    const noCode = await requestToken(service, withoutCode);
    expect(noCode.status).toBe(400);
    expect(noCode.body.error_description).toMatch(/no code/);
    const noRefreshToken = await requestToken(service, { grant_type: 'refresh_token', client_id: DESKTOP_CLIENT_ID });
    expect(noRefreshToken.body.error_description).toMatch(/refresh_token/);
  });

  it('answers an unknown or missing client with 401 invalid_client', async () => {
    const request = await codeRequest();
    const unknown = await requestToken(service, { ...request, client_id: 'nobody' });
    expect(unknown.status).toBe(401);
    expect(unknown.body).toMatchObject({ error: 'invalid_client', code: 'OAUTH_INVALID_CLIENT', status: 401 });
    const { client_id: _clientId, ...anonymous } = request;
    const missing = await requestToken(service, anonymous);
    expect(missing.status).toBe(401);
    expect(missing.body.error).toBe('invalid_client');
  });

  it('keeps the RFC shape for malformed bodies and wrong content types', async () => {
    const badJson = await fetch(`${service.url}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"grant_type":' });
    expect(badJson.status).toBe(400);
    expect(await badJson.json()).toMatchObject({ error: 'invalid_request', code: 'INVALID_JSON' });

    const text = await fetch(`${service.url}/oauth/token`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'grant_type=x' });
    expect(text.status).toBe(400);
    expect(await text.json()).toMatchObject({ error: 'invalid_request', code: 'OAUTH_INVALID_REQUEST' });

    const wrongType = await requestToken(service, { grant_type: 42 } as unknown as Record<string, string>, { json: true });
    expect(wrongType.body).toMatchObject({ error: 'invalid_request', code: 'OAUTH_INVALID_REQUEST' });
    expect(wrongType.body.error_description).toMatch(/grant_type/);
  });

  it('refuses a code issued to another client', async () => {
    const put = await service.api('PUT', '/custom-integration-settings', { redirectUris: [LOOPBACK_REDIRECT] });
    const { clientId, clientSecret } = put.body.result;
    const stolen = await requestToken(service, { ...(await codeRequest()), client_id: clientId, client_secret: clientSecret });
    expect(stolen.status).toBe(400);
    expect(stolen.body).toMatchObject({ error: 'invalid_grant', code: 'OAUTH_INVALID_GRANT' });
  });

  it('ignores a secret sent by the public client', async () => {
    const answer = await requestToken(service, { ...(await codeRequest()), client_secret: 'whatever' });
    expect(answer.status).toBe(200);
  });
});
