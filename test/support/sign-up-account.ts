/** Makes an account the way a person does: `POST /accounts`, then the code from the e-mail confirmed. */
import type { TestService } from './test-service.js';
import { confirmationCodeIn, type TestSmtp } from './smtp-server.js';
import { until } from './until.js';

export interface SignUp {
  subdomain: string;
  name: string;
  email: string;
  password: string;
}

export interface SignedUpAccount {
  id: string;
  subdomain: string;
  name: string;
  adminUserId: string;
}

const post = async (service: TestService, path: string, body: unknown): Promise<{ status: number; body: any }> => {
  const response = await fetch(`${service.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: response.status, body: await response.json() };
};

/** The service must have been started with `smtp` as its SMTP server (smtpConfig). */
export async function signUpAccount(service: TestService, smtp: TestSmtp, signUp: SignUp): Promise<SignedUpAccount> {
  const seen = smtp.received.length;
  const asked = await post(service, '/accounts', signUp);
  if (asked.status !== 202) throw new Error(`sign-up refused: ${JSON.stringify(asked.body)}`);
  const mail = await until(`the confirmation e-mail to ${signUp.email}`, () => smtp.received.slice(seen).find((sent) => sent.to.includes(signUp.email)));
  const confirmed = await post(service, '/account-confirmations', { code: confirmationCodeIn(mail) });
  if (confirmed.status !== 200) throw new Error(`confirmation refused: ${JSON.stringify(confirmed.body)}`);
  return confirmed.body.result as SignedUpAccount;
}
