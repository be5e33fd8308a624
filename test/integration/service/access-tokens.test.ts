import { createPublicKey, type JsonWebKey } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SignJWT, decodeProtectedHeader, generateKeyPair, importJWK, type JWK, type JWTPayload } from 'jose';
import { startTestService, type TestService } from '../../support/test-service.js';
import { fakeClock, type FakeClock } from '../../support/test-users.js';
import { currentUser } from '../../support/oauth-client.js';

describe('bearer tokens the API refuses', () => {
  let service: TestService;
  let clock: FakeClock;
  let adminId: string;
  let kid: string;

  const seconds = (): number => Math.floor(clock.now() / 1000);
  /** Claims the service would accept, with `overrides` applied. */
  const claims = (overrides: JWTPayload = {}): JWTPayload => ({
    sub: adminId,
    scope: 'subdomain:local',
    iss: service.running.ctx.tokens.issuer,
    aud: service.running.ctx.tokens.audience,
    iat: seconds(),
    exp: seconds() + 600,
    ...overrides,
  });
  const b64 = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');
  /** Signs with the installation's own private key (what only the service should be able to do). */
  const signWithServiceKey = async (payload: JWTPayload): Promise<string> => {
    const jwk: JWK = service.running.ctx.keys.accessToken;
    return new SignJWT(payload).setProtectedHeader({ alg: 'ES256', kid, typ: 'JWT' }).sign(await importJWK(jwk, 'ES256'));
  };
  const expectRefused = async (token: string, code: 'TOKEN_EXPIRED' | 'TOKEN_INVALID'): Promise<void> => {
    const { status, body } = await currentUser(service, token);
    expect(status).toBe(401);
    expect(body).toMatchObject({ status: 401, code, path: '/current-user' });
  };

  beforeAll(async () => {
    clock = fakeClock();
    service = await startTestService({}, { clock });
    const admin = service.running.ctx.accounts.userByEmail(service.running.ctx.config.adminEmail);
    if (admin === undefined) throw new Error('no admin');
    adminId = admin.id;
    kid = decodeProtectedHeader(await service.token()).kid ?? '';
  });
  afterAll(async () => {
    await service.dispose();
  });

  it('accepts a token it issued, and one signed by hand with its key (the fixtures are sound)', async () => {
    expect((await currentUser(service, await service.token())).status).toBe(200);
    expect((await currentUser(service, await signWithServiceKey(claims()))).status).toBe(200);
  });

  it('refuses an expired token with TOKEN_EXPIRED', async () => {
    const token = await service.token(undefined, 60);
    expect((await currentUser(service, token)).status).toBe(200);
    clock.advance(61_000);
    await expectRefused(token, 'TOKEN_EXPIRED');
  });

  it('refuses a token for another audience', async () => {
    const user = { sub: adminId, scope: 'subdomain:local' };
    await expectRefused(await service.running.ctx.tokens.issue(user, 600, 'https://other-audience.example'), 'TOKEN_INVALID');
  });

  it('refuses a token from another issuer, even signed with its own key', async () => {
    await expectRefused(await signWithServiceKey(claims({ iss: 'urn:asset-sync:someone-else' })), 'TOKEN_INVALID');
  });

  it('refuses an unsigned token (alg: none)', async () => {
    await expectRefused(`${b64({ alg: 'none', typ: 'JWT' })}.${b64(claims())}.`, 'TOKEN_INVALID');
  });

  it('refuses a token whose payload was tampered with', async () => {
    const [header, , signature] = (await service.token()).split('.');
    const forged = `${header ?? ''}.${b64(claims({ sub: 'auth0|someone-else', scope: 'subdomain:local' }))}.${signature ?? ''}`;
    await expectRefused(forged, 'TOKEN_INVALID');
  });

  it('refuses HS256 signed with its public key (algorithm confusion)', async () => {
    const publicJwk = service.running.ctx.tokens.publicJwks().keys[0];
    const pem = createPublicKey({ key: publicJwk as JsonWebKey, format: 'jwk' }).export({ type: 'spki', format: 'pem' });
    for (const secret of [String(pem), JSON.stringify(publicJwk)]) {
      const token = await new SignJWT(claims()).setProtectedHeader({ alg: 'HS256', kid, typ: 'JWT' }).sign(new TextEncoder().encode(secret));
      await expectRefused(token, 'TOKEN_INVALID');
    }
  });

  it("refuses a token signed with another installation's key", async () => {
    const { privateKey } = await generateKeyPair('ES256');
    const token = await new SignJWT(claims()).setProtectedHeader({ alg: 'ES256', kid, typ: 'JWT' }).sign(privateKey);
    await expectRefused(token, 'TOKEN_INVALID');
  });

  it('refuses a token of another running service', async () => {
    const other = await startTestService();
    try {
      await expectRefused(await other.token(), 'TOKEN_INVALID');
    } finally {
      await other.dispose();
    }
  });

  it('refuses a token without expiry or without an account scope', async () => {
    await expectRefused(await signWithServiceKey(claims({ exp: undefined })), 'TOKEN_INVALID');
    await expectRefused(await signWithServiceKey(claims({ scope: 'offline_access' })), 'TOKEN_INVALID');
  });

  it('stamps the current token generation, and refuses an older one (or none) once the account changed', async () => {
    const issued = await service.token();
    const [, payload] = issued.split('.');
    expect(JSON.parse(Buffer.from(payload ?? '', 'base64url').toString('utf8')).gen).toEqual([0, 0]);
    // A token from before generations (no gen claim) counts as generation 0: good until the first change.
    const legacy = await signWithServiceKey(claims());
    expect((await currentUser(service, legacy)).status).toBe(200);
    const accountId = service.running.ctx.accounts.bySubdomain('local')?.id ?? '';
    service.running.ctx.sessions.bumpAccount(accountId);
    for (const token of [issued, legacy, await signWithServiceKey(claims({ gen: [0, 0] }))]) {
      const { status, body } = await currentUser(service, token);
      expect(status).toBe(401);
      expect(body.code).toBe('TOKEN_REVOKED');
    }
    expect((await currentUser(service, await signWithServiceKey(claims({ gen: [1, 0] })))).status).toBe(200);
    expect((await currentUser(service, await service.token())).status).toBe(200);
  });

  it('refuses a missing or malformed Authorization header with UNAUTHENTICATED or TOKEN_INVALID', async () => {
    const none = await fetch(`${service.url}/current-user`);
    expect(none.status).toBe(401);
    expect(((await none.json()) as { code: string }).code).toBe('UNAUTHENTICATED');
    await expectRefused('not-a-jwt', 'TOKEN_INVALID');
  });
});
