import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../support/test-service.js';
import { addUser } from '../../support/test-users.js';
import { authorize, authorizeParams, currentUser, DESKTOP_CLIENT_ID, exchangeCode, pkcePair, refresh } from '../../support/oauth-client.js';
import { mintToken } from '../../../src/service/auth/mint-token.js';

const EMAIL = 'leaver@example.test';
const PASSWORD = 'the leaver password';

describe('POST /oauth/revoke (RFC 7009): signing out ends the sign-in on the service', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService();
    await addUser(service, EMAIL, 'member', PASSWORD);
  });
  afterAll(async () => {
    await service.dispose();
  });

  const signIn = async () => {
    const pkce = pkcePair();
    const { code } = await authorize(service, authorizeParams(service, pkce), { email: EMAIL, password: PASSWORD });
    const exchanged = await exchangeCode(service, code, pkce.verifier);
    expect(exchanged.status).toBe(200);
    return { access: exchanged.body.access_token as string, refresh: exchanged.body.refresh_token as string };
  };

  const revoke = async (params: Record<string, string>, headers: Record<string, string> = {}) => {
    const response = await fetch(`${service.url}/oauth/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      body: new URLSearchParams(params).toString(),
    });
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: text === '' ? undefined : JSON.parse(text) };
  };

  it('is announced in the server metadata', async () => {
    const metadata = (await (await fetch(`${service.url}/.well-known/oauth-authorization-server`)).json()) as { revocation_endpoint?: string };
    expect(metadata.revocation_endpoint).toBe(`${service.url}/oauth/revoke`);
  });

  it("revoking the refresh token refuses the family's access tokens at once, and the refresh token", async () => {
    const session = await signIn();
    const refreshed = await refresh(service, session.refresh);
    expect(refreshed.status).toBe(200);
    const other = await signIn();

    const answer = await revoke({ token: refreshed.body.refresh_token, token_type_hint: 'refresh_token', client_id: DESKTOP_CLIENT_ID });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    // Both access tokens of the family, the one from the code and the refreshed one, long before they expire.
    for (const access of [session.access, refreshed.body.access_token as string]) {
      const refused = await currentUser(service, access);
      expect(refused.status).toBe(401);
      expect(refused.body.code).toBe('TOKEN_REVOKED');
    }
    const again = await refresh(service, refreshed.body.refresh_token);
    expect(again.status).toBe(400);
    expect(again.body.error).toBe('invalid_grant');
    // Another sign-in of the same user goes on.
    expect((await currentUser(service, other.access)).status).toBe(200);
    expect((await refresh(service, other.refresh)).status).toBe(200);
  });

  it("revoking an access token ends its family too (RFC 7009 §2.1), whatever the hint says", async () => {
    const session = await signIn();
    expect((await revoke({ token: session.access, token_type_hint: 'refresh_token', client_id: DESKTOP_CLIENT_ID })).status).toBe(200);
    expect((await currentUser(service, session.access)).body.code).toBe('TOKEN_REVOKED');
    expect((await refresh(service, session.refresh)).body.error).toBe('invalid_grant');
  });

  it('revokes a token of no family by itself, leaving the user\'s other tokens alone', async () => {
    const minted = await mintToken({ dataDir: service.dataDir, email: EMAIL, ttlSeconds: 600 });
    const kept = await mintToken({ dataDir: service.dataDir, email: EMAIL, ttlSeconds: 600 });
    expect((await revoke({ token: minted, client_id: DESKTOP_CLIENT_ID })).status).toBe(200);
    expect((await currentUser(service, minted)).body.code).toBe('TOKEN_REVOKED');
    expect((await currentUser(service, kept)).status).toBe(200);
  });

  it('answers 200 for a token it does not know, and refuses what only another client may revoke', async () => {
    expect((await revoke({ token: 'not-a-token', client_id: DESKTOP_CLIENT_ID })).status).toBe(200);
    const settings = await service.api('PUT', '/custom-integration-settings', { redirectUris: ['https://intranet.example.test/callback'] });
    const { clientId, clientSecret } = settings.body.result as { clientId: string; clientSecret: string };
    const session = await signIn();
    const refused = await revoke({ token: session.refresh, client_id: clientId, client_secret: clientSecret });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ error: 'unauthorized_client', code: 'OAUTH_UNAUTHORIZED_CLIENT' });
    expect((await currentUser(service, session.access)).status).toBe(200);
    // A confidential client must prove itself, as at the token endpoint.
    const unproven = await revoke({ token: session.refresh, client_id: clientId });
    expect(unproven.status).toBe(401);
    expect(unproven.body.error).toBe('invalid_client');
    const missing = await revoke({ client_id: DESKTOP_CLIENT_ID });
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ error: 'invalid_request', error_description: 'The request has no token to revoke.' });
  });
});
