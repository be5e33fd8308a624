/**
 * Portal passcodes: stored as scrypt hashes with a per-portal salt, checked by hashing the attempt the
 * same way and comparing the two hashes with `timingSafeEqual`, so neither the stored passcode nor the
 * time a comparison takes says anything about how close a guess was. Never logs or returns a passcode.
 */
import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

const KEY_LENGTH = 32;

function derive(passcode: string, salt: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(passcode.normalize('NFC'), Buffer.from(salt, 'base64url'), KEY_LENGTH, (error, key) => (error === null ? resolve(key) : reject(error)));
  });
}

export async function hashPasscode(passcode: string): Promise<{ hash: string; salt: string }> {
  const salt = randomBytes(16).toString('base64url');
  return { hash: (await derive(passcode, salt)).toString('base64url'), salt };
}

export async function passcodeMatches(attempt: string, stored: { hash: string; salt: string }): Promise<boolean> {
  const expected = Buffer.from(stored.hash, 'base64url');
  const given = await derive(attempt, stored.salt);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** The passcode of an `Authorization: Passcode <passcode>` header, or undefined when there is none. */
export function passcodeFromHeader(header: string | undefined): string | undefined {
  const match = /^\s*passcode\s+(.+?)\s*$/i.exec(header ?? '');
  return match?.[1];
}
