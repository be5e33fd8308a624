/**
 * A sign-up waiting for its e-mail address to be confirmed, carried in the confirmation e-mail without
 * server state: the sign-up (subdomain, names, e-mail and the password's scrypt hash) is encrypted and
 * authenticated with AES-256-GCM under a key derived from the sign-in secret, with an expiry, so the
 * token cannot be altered, read (the hash never leaves in the clear) or used after a day. Confirming it
 * twice cannot make two accounts: the account is made only while the e-mail has no user and the
 * subdomain is free. It must never accept a token that does not decrypt, has expired, or is not one of
 * these (its own key: a sealed sign-in form never passes for one).
 */
import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { Clock } from '../clock.js';
import { ServiceError } from '../errors/service-error.js';

/** Long enough for a mail to arrive and be read the next morning. */
export const CONFIRMATION_LIFETIME_MS = 24 * 3600 * 1000;

const pendingShape = z.object({
  subdomain: z.string(),
  name: z.string(),
  email: z.string(),
  passwordHash: z.string(),
  userName: z.string().nullable(),
  expiresAt: z.number(),
});

export type PendingSignUp = Omit<z.infer<typeof pendingShape>, 'expiresAt'>;

export interface SignUpConfirmations {
  /** The token the confirmation e-mail carries. */
  seal(signUp: PendingSignUp): string;
  /** The sign-up a token carries; throws SIGN_UP_CONFIRMATION_INVALID when it is forged, altered or expired. */
  open(token: string): PendingSignUp;
}

export function signUpConfirmations(signInSecret: string, clock: Clock): SignUpConfirmations {
  const key = createHmac('sha256', signInSecret).update('sign-up-confirmation').digest();
  const refuse = (why: string): ServiceError => new ServiceError('SIGN_UP_CONFIRMATION_INVALID', `${why} Sign up again to get a fresh e-mail.`);
  return {
    seal(signUp) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const plain = Buffer.from(JSON.stringify({ ...signUp, expiresAt: clock.now() + CONFIRMATION_LIFETIME_MS }), 'utf8');
      const sealed = Buffer.concat([cipher.update(plain), cipher.final()]);
      return [iv, sealed, cipher.getAuthTag()].map((part) => part.toString('base64url')).join('.');
    },
    open(token) {
      const [iv, sealed, tag, extra] = token.split('.').map((part) => Buffer.from(part, 'base64url'));
      if (iv === undefined || sealed === undefined || tag === undefined || extra !== undefined || iv.length !== 12 || tag.length !== 16) {
        throw refuse('This confirmation code is not one this service sent.');
      }
      let plain: string;
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, iv);
        decipher.setAuthTag(tag);
        plain = Buffer.concat([decipher.update(sealed), decipher.final()]).toString('utf8');
      } catch {
        throw refuse('This confirmation code is not one this service sent.');
      }
      const parsed = pendingShape.safeParse(JSON.parse(plain));
      if (!parsed.success) throw refuse('This confirmation code is not one this service sent.');
      const { expiresAt, ...signUp } = parsed.data;
      if (expiresAt < clock.now()) throw refuse('This confirmation code has expired.');
      return signUp;
    },
  };
}
