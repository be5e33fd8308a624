/**
 * Credential attempts over HTTP against the real service: wrong passwords at the sign-in form and wrong
 * client secrets at the token endpoint back off per subject and address, without locking the right user
 * out from their own address; and a flood of sign-ins cannot hold up a download, because password
 * hashing has its own bounded gate. Time moves on the service's injectable clock, never by sleeping.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, startTestService, type TestService } from '../../support/test-service.js';
import { fakeClock, type FakeClock } from '../../support/test-users.js';
import { authorizeParams, LOOPBACK_REDIRECT, openSignInForm, pkcePair, type SignInForm } from '../../support/oauth-client.js';
import { postFormFrom, requestFrom, type AnswerFrom } from '../../support/request-from.js';
import { downloadAsset, MiB, randomFile, uploadNewAsset } from '../../support/upload-helpers.js';

/** The sign-in form posted from `address` (the admin's e-mail unless another is given). */
function signInFrom(service: TestService, form: SignInForm, address: string, password: string, email = service.running.ctx.config.adminEmail): Promise<AnswerFrom> {
  return postFormFrom(address, `${service.url}/authorize`, { transaction: form.transaction, email, password, decision: 'allow' }, { cookie: form.cookie });
}

const signedIn = (answer: AnswerFrom): boolean => answer.status === 302 && /[?&]code=/.test(String(answer.headers.location));

describe('sign-in and client-secret throttles', () => {
  let service: TestService;
  let clock: FakeClock;
  let form: SignInForm;
  beforeAll(async () => {
    clock = fakeClock();
    service = await startTestService({}, { clock });
    form = await openSignInForm(service, authorizeParams(service, pkcePair()));
  });
  afterAll(async () => {
    await service.dispose();
  });

  it('backs a flood of wrong passwords off, refuses even the right one until the wait is over, and never locks out another address', async () => {
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 20; attempt += 1) statuses.push((await signInFrom(service, form, '127.0.0.2', `wrong ${attempt}`)).status);
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(new Set(statuses.slice(5))).toEqual(new Set([429]));

    const refused = await signInFrom(service, form, '127.0.0.2', ADMIN_PASSWORD);
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBe('30');
    expect(refused.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(refused.text).toContain('<p class="alert" role="alert">Too many sign-in attempts. Try again in 30 s.</p>');
    expect(refused.headers.location).toBeUndefined();

    // The real user, elsewhere, signs in at once.
    expect(signedIn(await signInFrom(service, form, '127.0.0.3', ADMIN_PASSWORD))).toBe(true);

    clock.advance(29_000);
    expect((await signInFrom(service, form, '127.0.0.2', ADMIN_PASSWORD)).headers['retry-after']).toBe('1');
    clock.advance(1_000);
    expect(signedIn(await signInFrom(service, form, '127.0.0.2', ADMIN_PASSWORD))).toBe(true);
  });

  it('throttles an e-mail no one has exactly like one that exists', async () => {
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 7; attempt += 1) statuses.push((await signInFrom(service, form, '127.0.0.4', 'whatever', 'nobody@example.test')).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429]);
  });

  it('backs wrong client secrets off per client and address, and never locks out another address', async () => {
    const put = await service.api('PUT', '/custom-integration-settings', { redirectUris: [LOOPBACK_REDIRECT] });
    const { clientId, clientSecret } = put.body.result as { clientId: string; clientSecret: string };
    const token = (address: string, secret: string): Promise<AnswerFrom> =>
      postFormFrom(address, `${service.url}/oauth/token`, { grant_type: 'refresh_token', client_id: clientId, client_secret: secret, refresh_token: 'not a refresh token' });

    const statuses: number[] = [];
    for (let attempt = 0; attempt < 8; attempt += 1) statuses.push((await token('127.0.0.5', `wrong ${attempt}`)).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429, 429]);
    const refused = await token('127.0.0.5', clientSecret);
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBe('30');
    expect(JSON.parse(refused.text)).toMatchObject({ code: 'TOO_MANY_ATTEMPTS', message: 'Too many client authentication attempts. Try again in 30 s.' });

    // Authenticated elsewhere: the client gets as far as its (bogus) refresh token.
    expect(JSON.parse((await token('127.0.0.6', clientSecret)).text)).toMatchObject({ error: 'invalid_grant' });
    clock.advance(30_000);
    expect(JSON.parse((await token('127.0.0.5', clientSecret)).text)).toMatchObject({ error: 'invalid_grant' });
  });
});

describe('the client address behind a reverse proxy', () => {
  const services: TestService[] = [];
  afterAll(async () => {
    for (const service of services) await service.dispose();
  });
  const wrongTimes = async (service: TestService, form: SignInForm, from: string, forwardedFor: string, times: number): Promise<number[]> => {
    const statuses: number[] = [];
    for (let attempt = 0; attempt < times; attempt += 1) {
      const answer = await postFormFrom(from, `${service.url}/authorize`, { transaction: form.transaction, email: service.running.ctx.config.adminEmail, password: `wrong ${attempt}`, decision: 'allow' }, { cookie: form.cookie, 'x-forwarded-for': forwardedFor });
      statuses.push(answer.status);
    }
    return statuses;
  };

  it('is the one a trusted proxy forwards: clients behind it are throttled apart', async () => {
    const service = await startTestService({ trustedProxies: ['127.0.0.0/8'] });
    services.push(service);
    const form = await openSignInForm(service, authorizeParams(service, pkcePair()));
    expect((await wrongTimes(service, form, '127.0.0.1', '203.0.113.7', 6)).at(-1)).toBe(429);
    // Another client behind the same proxy is not held up by the first one's failures.
    const other = await postFormFrom('127.0.0.1', `${service.url}/authorize`, { transaction: form.transaction, email: service.running.ctx.config.adminEmail, password: ADMIN_PASSWORD, decision: 'allow' }, { cookie: form.cookie, 'x-forwarded-for': '203.0.113.8' });
    expect(signedIn(other)).toBe(true);
  });

  it('is the connection\'s without a trusted proxy: a forged X-Forwarded-For escapes nothing', async () => {
    const service = await startTestService();
    services.push(service);
    const form = await openSignInForm(service, authorizeParams(service, pkcePair()));
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 6; attempt += 1) statuses.push(...(await wrongTimes(service, form, '127.0.0.9', `198.51.100.${attempt}`, 1)));
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
  });
});

describe('password hashing under a flood of sign-ins', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService();
  });
  afterAll(async () => {
    await service.dispose();
  });

  it('answers a 3 MiB download while a flood of sign-ins with unknown e-mails is still being hashed', async () => {
    const bytes = randomFile(3 * MiB);
    const { assetId } = await uploadNewAsset(service, '/Flood/large.bin', bytes);
    const { item } = await downloadAsset(service, assetId);
    const url = String(item.url);
    const form = await openSignInForm(service, authorizeParams(service, pkcePair()));

    // Each sign-in from its own address, so the throttle stays out of it: this is about the hashing.
    const events: string[] = [];
    let firstAnswer: () => void = () => undefined;
    const answered = new Promise<void>((resolve) => {
      firstAnswer = resolve;
    });
    const flood = Array.from({ length: 32 }, async (_, index) => {
      const answer = await signInFrom(service, form, `127.0.1.${index + 1}`, 'a wrong password', `nobody-${index}@example.test`);
      events.push(answer.status === 401 ? 'hashed' : `refused ${answer.status}`);
      firstAnswer();
      return answer;
    });
    // Once the service has answered one of them, the rest have been taken in and wait for their hash.
    await answered;
    const download = requestFrom('127.0.0.1', url).then((answer) => {
      events.push('download');
      return answer;
    });
    const [downloaded, ...signIns] = await Promise.all([download, ...flood]);

    expect(downloaded.status).toBe(200);
    expect(downloaded.body.equals(bytes)).toBe(true);
    const hashed = events.filter((event) => event === 'hashed').length;
    const hashedBeforeDownload = events.slice(0, events.indexOf('download')).filter((event) => event === 'hashed').length;
    // The download never waits behind the hashing: it is done while most sign-ins are still being hashed.
    expect(hashedBeforeDownload, events.join(', ')).toBeLessThan(hashed / 2);
    // Beyond the gate's queue, a sign-in is refused at once with a wait, rather than queued for ever.
    const busy = signIns.filter((answer) => answer.status === 503);
    expect(busy.length).toBeGreaterThan(0);
    expect(busy[0]?.headers['retry-after']).toBe('1');
    expect(busy[0]?.text).toContain('The service is busy checking other passwords. Try again in 1 s.');
    expect(signIns.every((answer) => answer.status === 401 || answer.status === 503)).toBe(true);
  });
});
