import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../support/test-service.js';
import { addUser } from '../../support/test-users.js';
import { authorize, authorizeParams, currentUser, openSignInForm, pkcePair, requestToken } from '../../support/oauth-client.js';

const INTEGRATION_REDIRECT = 'https://integration.example.test/oauth/callback';

describe('custom integration settings and the confidential client', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService();
  });
  afterAll(async () => {
    await service.dispose();
  });

  it('has no integration until an admin creates one', async () => {
    const { status, body } = await service.api('GET', '/custom-integration-settings');
    expect(status).toBe(404);
    expect(body.code).toBe('NOT_FOUND');
  });

  it.each(['viewer', 'member'] as const)('refuses a %s to read or change them', async (role) => {
    const { token } = await addUser(service, `${role}@example.test`, role);
    const put = await service.api('PUT', '/custom-integration-settings', { redirectUris: [INTEGRATION_REDIRECT] }, token);
    expect(put.status).toBe(403);
    expect(put.body.code).toBe('FORBIDDEN');
    const get = await service.api('GET', '/custom-integration-settings', undefined, token);
    expect(get.status).toBe(403);
  });

  it('needs a bearer token', async () => {
    const response = await fetch(`${service.url}/custom-integration-settings`, { method: 'PUT' });
    expect(response.status).toBe(401);
  });

  it('creates the client on the first PUT, keeps its secret afterwards and reads it back', async () => {
    const created = await service.api('PUT', '/custom-integration-settings', { redirectUris: [INTEGRATION_REDIRECT] });
    expect(created.status).toBe(200);
    const { clientId, clientSecret, redirectUris } = created.body.result;
    expect(typeof clientId).toBe('string');
    expect(clientSecret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(redirectUris).toEqual([INTEGRATION_REDIRECT]);

    const read = await service.api('GET', '/custom-integration-settings');
    expect(read.body.result).toEqual({ clientId, clientSecret, redirectUris });

    const updated = await service.api('PUT', '/custom-integration-settings', { redirectUris: [INTEGRATION_REDIRECT, 'http://127.0.0.1:8123/cb'] });
    expect(updated.body.result).toEqual({ clientId, clientSecret, redirectUris: [INTEGRATION_REDIRECT, 'http://127.0.0.1:8123/cb'] });
    const untouched = await service.api('PUT', '/custom-integration-settings');
    expect(untouched.body.result.redirectUris).toEqual([INTEGRATION_REDIRECT, 'http://127.0.0.1:8123/cb']);
  });

  it.each([['not a url'], ['https://example.test/cb#fragment'], ['ftp://example.test/cb'], ['https://user:pw@example.test/cb']])(
    'refuses the redirect URI %s',
    async (uri) => {
      const { status, body } = await service.api('PUT', '/custom-integration-settings', { redirectUris: [uri] });
      expect(status).toBe(400);
      expect(body.code).toBe('INVALID_BODY');
      expect(body.message).toContain('redirectUris.0');
    },
  );

  describe('the confidential client', () => {
    let clientId: string;
    let clientSecret: string;
    const signIn = async (): Promise<Record<string, string>> => {
      const { code } = await authorize(
        service,
        authorizeParams(service, pkcePair(), { client_id: clientId, redirect_uri: INTEGRATION_REDIRECT, code_challenge: undefined, code_challenge_method: undefined }),
      );
      return { grant_type: 'authorization_code', client_id: clientId, code, redirect_uri: INTEGRATION_REDIRECT };
    };

    beforeAll(async () => {
      const { body } = await service.api('PUT', '/custom-integration-settings', { redirectUris: [INTEGRATION_REDIRECT] });
      ({ clientId, clientSecret } = body.result);
    });

    it('signs in without PKCE, then must authenticate with its secret', async () => {
      const request = await signIn();
      const anonymous = await requestToken(service, request);
      expect(anonymous.status).toBe(401);
      expect(anonymous.body).toMatchObject({ error: 'invalid_client', code: 'OAUTH_INVALID_CLIENT' });

      const wrong = await requestToken(service, { ...request, client_secret: `${clientSecret}x` });
      expect(wrong.status).toBe(401);
      expect(wrong.body).toMatchObject({ error: 'invalid_client', code: 'OAUTH_INVALID_CLIENT' });

      const right = await requestToken(service, { ...request, client_secret: clientSecret });
      expect(right.status).toBe(200);
      expect((await currentUser(service, right.body.access_token)).status).toBe(200);

      const refreshed = await requestToken(service, { grant_type: 'refresh_token', client_id: clientId, refresh_token: right.body.refresh_token });
      expect(refreshed.status).toBe(401);
      const withSecret = await requestToken(service, { grant_type: 'refresh_token', client_id: clientId, client_secret: clientSecret, refresh_token: right.body.refresh_token });
      expect(withSecret.status).toBe(200);
    });

    it('may authenticate with HTTP Basic instead (and is told so when that fails)', async () => {
      const request = await signIn();
      const basic = (secret: string): string => `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(secret)}`).toString('base64')}`;
      const { client_id: _id, ...body } = request;
      const wrong = await requestToken(service, body, { headers: { authorization: basic('nope') } });
      expect(wrong.status).toBe(401);
      expect(wrong.headers.get('www-authenticate')).toMatch(/^Basic /);
      const right = await requestToken(service, body, { headers: { authorization: basic(clientSecret) } });
      expect(right.status).toBe(200);
    });

    it('may use PKCE if it wants to', async () => {
      const pkce = pkcePair();
      const { code } = await authorize(service, authorizeParams(service, pkce, { client_id: clientId, redirect_uri: INTEGRATION_REDIRECT }));
      const answer = await requestToken(service, {
        grant_type: 'authorization_code',
        client_id: clientId,
        client_secret: clientSecret,
        code,
        redirect_uri: INTEGRATION_REDIRECT,
        code_verifier: pkce.verifier,
      });
      expect(answer.status).toBe(200);
    });

    it('refreshes with the same stored refresh token again and again: not rotated, never revoked (RFC 9700 §4.14.2)', async () => {
      await service.api('PUT', '/custom-integration-settings', { redirectUris: [INTEGRATION_REDIRECT] });
      const signedIn = await requestToken(service, { ...(await signIn()), client_secret: clientSecret });
      expect(signedIn.status).toBe(200);
      const stored = signedIn.body.refresh_token as string;
      expect(typeof stored).toBe('string');
      for (let run = 1; run <= 3; run++) {
        const refreshed = await requestToken(service, { grant_type: 'refresh_token', client_id: clientId, client_secret: clientSecret, refresh_token: stored });
        expect(refreshed.status, `refresh ${run}: ${JSON.stringify(refreshed.body)}`).toBe(200);
        expect(refreshed.body.refresh_token).toBeUndefined();
        expect((await currentUser(service, refreshed.body.access_token)).status).toBe(200);
      }
      // Every refresh still authenticates the client.
      const unauthenticated = await requestToken(service, { grant_type: 'refresh_token', client_id: clientId, refresh_token: stored });
      expect(unauthenticated.body).toMatchObject({ error: 'invalid_client' });
    });

    it('registers a bare origin as written, and the code flow with it completes', async () => {
      const bare = 'https://intranet.example.test';
      const put = await service.api('PUT', '/custom-integration-settings', { redirectUris: [bare] });
      expect(put.status, put.text).toBe(200);
      expect(put.body.result.redirectUris).toEqual([bare]);
      const { code, location } = await authorize(
        service,
        authorizeParams(service, pkcePair(), { client_id: clientId, redirect_uri: bare, code_challenge: undefined, code_challenge_method: undefined }),
      );
      expect(location.origin).toBe(bare);
      const wrongUri = await requestToken(service, { grant_type: 'authorization_code', client_id: clientId, client_secret: clientSecret, code, redirect_uri: `${bare}/` });
      expect(wrongUri.body).toMatchObject({ error: 'invalid_grant' });
      const tokens = await requestToken(service, { grant_type: 'authorization_code', client_id: clientId, client_secret: clientSecret, code, redirect_uri: bare });
      expect(tokens.status, JSON.stringify(tokens.body)).toBe(200);
      expect((await currentUser(service, tokens.body.access_token)).status).toBe(200);
    });

    it('takes the bare origin with a trailing "/" for another, unregistered URI', async () => {
      const put = await service.api('PUT', '/custom-integration-settings', { redirectUris: ['https://intranet.example.test'] });
      expect(put.body.result.redirectUris).toEqual(['https://intranet.example.test']);
      const form = await openSignInForm(service, authorizeParams(service, pkcePair(), { client_id: clientId, redirect_uri: 'https://intranet.example.test/' }));
      expect(form.response.status).toBe(400);
      expect(form.html).toContain('OAUTH_INVALID_REDIRECT_URI');
    });

    it('matches its redirect URIs exactly (no loopback port freedom)', async () => {
      await service.api('PUT', '/custom-integration-settings', { redirectUris: [INTEGRATION_REDIRECT, 'http://127.0.0.1:8123/cb'] });
      const form = await openSignInForm(service, authorizeParams(service, pkcePair(), { client_id: clientId, redirect_uri: 'http://127.0.0.1:8124/cb' }));
      expect(form.response.status).toBe(400);
      expect(form.html).toContain('OAUTH_INVALID_REDIRECT_URI');
    });
  });
});
