/**
 * Sign-up over HTTP against the real service and a real SMTP server: it never says whether an e-mail
 * has a user (the same answer either way; the e-mail tells the address's owner), the account is made
 * only with the code mailed to the address, and sign-ups are throttled per e-mail and address.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../support/test-service.js';
import { addUser, fakeClock, type FakeClock } from '../../support/test-users.js';
import { confirmationCodeIn, smtpConfig, startSmtp, type ReceivedMail, type TestSmtp } from '../../support/smtp-server.js';
import { asApiAnswer, postJsonFrom, type AnswerFrom } from '../../support/request-from.js';
import { until } from '../../support/until.js';
import { expectApiError } from '../../support/expect-api-error.js';

const PASSWORD = 'a long enough password';

describe('sign-up', () => {
  let smtp: TestSmtp;
  let service: TestService;
  let clock: FakeClock;
  const signUp = (body: Record<string, unknown>, address = '127.0.0.1'): Promise<AnswerFrom> => postJsonFrom(address, `${service.url}/accounts`, body);
  const confirm = (code: string): Promise<AnswerFrom> => postJsonFrom('127.0.0.1', `${service.url}/account-confirmations`, { code });
  const mailTo = (email: string): Promise<ReceivedMail> => until(`a mail to ${email}`, () => smtp.received.find((mail) => mail.to.includes(email)));
  beforeAll(async () => {
    smtp = await startSmtp();
    clock = fakeClock();
    service = await startTestService({ smtp: smtpConfig(smtp) }, { clock });
  });
  afterAll(async () => {
    await service.dispose();
    await smtp.close();
  });

  it('answers the same whether or not the e-mail has a user, and tells only the address\'s owner which it was', async () => {
    await addUser(service, 'taken@example.test', 'member');
    const known = await signUp({ subdomain: 'known', name: 'Known', email: 'taken@example.test', password: PASSWORD });
    const fresh = await signUp({ subdomain: 'fresh', name: 'Fresh', email: 'new@example.test', password: PASSWORD });
    expect(known.status).toBe(202);
    expect(fresh.status).toBe(202);
    const shape = (answer: AnswerFrom): unknown => {
      const body = JSON.parse(answer.text) as { result: Record<string, unknown> };
      return { ...body, result: { ...body.result, email: '…', subdomain: '…' } };
    };
    expect(shape(known)).toEqual(shape(fresh));
    expect(JSON.parse(fresh.text).result).toEqual({ email: 'new@example.test', subdomain: 'fresh', confirmationSent: true });

    const warning = await mailTo('taken@example.test');
    expect(warning.raw).toContain('Subject: Someone tried to sign up with your address');
    expect(warning.raw).toContain('Nothing was created.');
    expect(service.running.ctx.accounts.bySubdomain('known')).toBeUndefined();

    // Nothing exists until the address's owner confirms with the mailed code.
    expect(service.running.ctx.accounts.bySubdomain('fresh')).toBeUndefined();
    const code = confirmationCodeIn(await mailTo('new@example.test'));
    const confirmed = await confirm(code);
    expect(confirmed.status, confirmed.text).toBe(200);
    const account = JSON.parse(confirmed.text).result;
    expect(account).toMatchObject({ subdomain: 'fresh', name: 'Fresh' });
    const user = service.running.ctx.accounts.userByEmail('new@example.test');
    expect(account.adminUserId).toBe(user?.id);
    const token = await service.running.ctx.tokens.issue({ sub: user?.id ?? '', scope: 'subdomain:fresh' }, 3600);
    expect((await service.api('GET', '/fields', undefined, token)).body.map((field: { name: string }) => field.name)).toEqual(['Folders', 'Keywords']);

    // Confirmed again, it answers the same account; altered, it is refused.
    expect(JSON.parse((await confirm(code)).text).result).toEqual(account);
    expectApiError(asApiAnswer(await confirm(`${code.slice(0, -2)}${code.endsWith('AA') ? 'BB' : 'AA'}`)), 400, 'SIGN_UP_CONFIRMATION_INVALID');
  });

  it('makes one user of an address: a second sign-up confirmed after the first is refused to the address\'s owner', async () => {
    await signUp({ subdomain: 'first', name: 'First', email: 'twice@example.test', password: PASSWORD }, '127.0.0.6');
    await until('the first code', () => smtp.received.filter((mail) => mail.to.includes('twice@example.test')).length === 1);
    await signUp({ subdomain: 'second', name: 'Second', email: 'twice@example.test', password: PASSWORD }, '127.0.0.6');
    const mails = await until('both codes', () => {
      const sent = smtp.received.filter((mail) => mail.to.includes('twice@example.test'));
      return sent.length === 2 && sent;
    });
    const [first, second] = mails.map(confirmationCodeIn);
    expect((await confirm(first ?? '')).status).toBe(200);
    expectApiError(asApiAnswer(await confirm(second ?? '')), 409, 'EMAIL_TAKEN', 'sign in instead');
    expect(service.running.ctx.accounts.bySubdomain('second')).toBeUndefined();
  });

  it('still refuses a taken subdomain, which is public anyway', async () => {
    expectApiError(asApiAnswer(await signUp({ subdomain: 'local', name: 'L', email: 'someone@example.test', password: PASSWORD }, '127.0.0.9')), 409, 'SUBDOMAIN_TAKEN');
  });

  it('throttles sign-ups per e-mail and address, and per address across e-mails, without holding up another address', async () => {
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 5; attempt += 1) statuses.push((await signUp({ subdomain: `spam-${attempt}`, name: 'Spam', email: 'victim@example.test', password: PASSWORD }, '127.0.0.2')).status);
    expect(statuses).toEqual([202, 202, 202, 429, 429]);
    const refused = await signUp({ subdomain: 'spam-9', name: 'Spam', email: 'victim@example.test', password: PASSWORD }, '127.0.0.2');
    expect(refused.headers['retry-after']).toBe('60');
    expect(JSON.parse(refused.text)).toMatchObject({ code: 'TOO_MANY_ATTEMPTS', message: 'Too many sign-up attempts. Try again in 60 s.' });
    // The address's owner, elsewhere, is not held up.
    expect((await signUp({ subdomain: 'victim', name: 'Mine', email: 'victim@example.test', password: PASSWORD }, '127.0.0.3')).status).toBe(202);

    const spread: number[] = [];
    for (let attempt = 0; attempt < 11; attempt += 1) spread.push((await signUp({ subdomain: `many-${attempt}`, name: 'Many', email: `many-${attempt}@example.test`, password: PASSWORD }, '127.0.0.4')).status);
    expect(spread.slice(0, 10).every((status) => status === 202)).toBe(true);
    expect(spread[10]).toBe(429);

    clock.advance(60_000);
    expect((await signUp({ subdomain: 'spam-10', name: 'Spam', email: 'victim@example.test', password: PASSWORD }, '127.0.0.2')).status).toBe(202);
  });

  // Last: it moves the clock a day on.
  it('refuses a code after a day', async () => {
    await signUp({ subdomain: 'late', name: 'Late', email: 'late@example.test', password: PASSWORD }, '127.0.0.5');
    const code = confirmationCodeIn(await mailTo('late@example.test'));
    clock.advance(24 * 3600 * 1000 + 1);
    expectApiError(asApiAnswer(await confirm(code)), 400, 'SIGN_UP_CONFIRMATION_INVALID', 'expired');
  });
});

describe('sign-up without e-mail', () => {
  it('is refused, since no address could be confirmed', async () => {
    const service = await startTestService();
    try {
      const answer = await postJsonFrom('127.0.0.1', `${service.url}/accounts`, { subdomain: 'nomail', name: 'No mail', email: 'x@example.test', password: PASSWORD });
      expectApiError(asApiAnswer(answer), 409, 'SIGN_UP_NEEDS_EMAIL', 'SMTP');
    } finally {
      await service.dispose();
    }
  });
});
