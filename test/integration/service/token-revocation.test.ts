import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../support/test-service.js';
import { addUser } from '../../support/test-users.js';
import { authorize, authorizeParams, currentUser, exchangeCode, pkcePair, refresh } from '../../support/oauth-client.js';
import { removeUser, setPassword, setRole } from '../../../src/service/cli/user-admin.js';
import { mintToken } from '../../../src/service/auth/mint-token.js';
import { smtpConfig, startSmtp, type TestSmtp } from '../../support/smtp-server.js';
import { signUpAccount } from '../../support/sign-up-account.js';

const EMAIL = 'worker@example.test';
const PASSWORD = 'the worker password';

describe('access tokens after a security change', () => {
  let service: TestService;
  let smtp: TestSmtp;
  beforeAll(async () => {
    smtp = await startSmtp();
    service = await startTestService({ smtp: smtpConfig(smtp) });
    await addUser(service, EMAIL, 'member', PASSWORD);
  });
  afterAll(async () => {
    await service.dispose();
    await smtp.close();
  });

  const signIn = async (email = EMAIL, password = PASSWORD) => {
    const pkce = pkcePair();
    const { code } = await authorize(service, authorizeParams(service, pkce), { email, password });
    const exchanged = await exchangeCode(service, code, pkce.verifier);
    expect(exchanged.status).toBe(200);
    return { access: exchanged.body.access_token as string, refresh: exchanged.body.refresh_token as string };
  };

  it("revokes the account's access tokens when its login methods change; refresh re-checks the new rules", async () => {
    const session = await signIn();
    expect((await currentUser(service, session.access)).status).toBe(200);
    expect((await service.api('PUT', '/allowed-login-methods', { methods: ['PASSWORD', 'SAML'] })).status).toBe(200);
    const revoked = await currentUser(service, session.access);
    expect(revoked.status).toBe(401);
    expect(revoked.body.code).toBe('TOKEN_REVOKED');
    // Passwords are still allowed: the session goes on with a refreshed token.
    const refreshed = await refresh(service, session.refresh);
    expect(refreshed.status).toBe(200);
    expect((await currentUser(service, refreshed.body.access_token)).status).toBe(200);
    // Storing the same setting again is no change and revokes nothing.
    expect((await service.api('PUT', '/allowed-login-methods', { methods: ['PASSWORD', 'SAML'] })).status).toBe(200);
    expect((await currentUser(service, refreshed.body.access_token)).status).toBe(200);
    // Refusing passwords ends the session altogether.
    expect((await service.api('PUT', '/allowed-login-methods', { methods: ['SAML'] })).status).toBe(200);
    expect((await currentUser(service, refreshed.body.access_token)).body.code).toBe('TOKEN_REVOKED');
    const refused = await refresh(service, refreshed.body.refresh_token);
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ error: 'invalid_grant', error_description: expect.stringContaining('does not allow signing in with a password') });
    expect((await service.api('PUT', '/allowed-login-methods', { methods: ['PASSWORD'] })).status).toBe(200);
  });

  it("revokes them when the account's e-mail domains change, while other accounts' tokens stay good", async () => {
    const session = await signIn();
    const owner = (await signUpAccount(service, smtp, { subdomain: 'other', name: 'Other', email: 'owner@other.test', password: 'the owner password' })).adminUserId;
    const otherToken = await service.running.ctx.tokens.issue({ sub: owner, scope: 'subdomain:other' }, 600);
    expect((await service.api('PUT', '/account-security', { allowedEmailDomains: ['example.test'], sessionLifetimeHours: 24 })).status).toBe(200);
    expect((await currentUser(service, session.access)).body.code).toBe('TOKEN_REVOKED');
    expect((await currentUser(service, otherToken)).status).toBe(200);
    // The worker's address is at an allowed domain: refresh goes on.
    expect((await refresh(service, session.refresh)).status).toBe(200);
    expect((await service.api('PUT', '/account-security', { allowedEmailDomains: [], sessionLifetimeHours: 24 })).status).toBe(200);
  });

  it("revokes a user's tokens when the CLI, another process, gives them a new password", async () => {
    const session = await signIn();
    const bystander = await signIn(service.running.ctx.config.adminEmail, 'correct horse battery staple');
    await setPassword({ dataDir: service.dataDir }, EMAIL, 'a brand new password');
    expect((await currentUser(service, session.access)).body.code).toBe('TOKEN_REVOKED');
    const refused = await refresh(service, session.refresh);
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe('invalid_grant');
    expect((await currentUser(service, bystander.access)).status).toBe(200);
    // A token minted now carries the new generation.
    const minted = await mintToken({ dataDir: service.dataDir, email: EMAIL, ttlSeconds: 600 });
    expect((await currentUser(service, minted)).status).toBe(200);
    const fresh = await signIn(EMAIL, 'a brand new password');
    expect((await currentUser(service, fresh.access)).status).toBe(200);
  });

  it('applies a role change to the next request and refuses a removed user at once', async () => {
    const session = await signIn(EMAIL, 'a brand new password');
    expect((await service.api('POST', '/fields', { name: 'Before' }, session.access)).body.code).toBe('FORBIDDEN');
    await setRole({ dataDir: service.dataDir }, EMAIL, 'admin');
    expect((await service.api('POST', '/fields', { name: 'After' }, session.access)).status).toBe(200);
    await removeUser({ dataDir: service.dataDir }, EMAIL);
    const gone = await currentUser(service, session.access);
    expect(gone.status).toBe(401);
    expect(gone.body.code).toBe('TOKEN_INVALID');
    expect((await refresh(service, session.refresh)).body.error).toBe('invalid_grant');
  });
});
