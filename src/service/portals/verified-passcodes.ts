/**
 * Remembers which (portal, passcode) pairs scrypt has already accepted, so a visitor's listing,
 * thumbnails and downloads cost one scrypt (~50 ms of CPU idle, far more under load) instead of one per
 * request. Only right passcodes are remembered: every wrong one still goes through scrypt and the
 * attempt limiter, so guessing is exactly as slow as before.
 *
 * An entry's key is an HMAC (a random key of this process) of the portal id, the portal's CURRENT
 * passcode hash and salt, and the attempt: the passcode itself is never held, the key cannot be
 * recomputed from a memory dump without the HMAC key, and a change or removal of the passcode changes
 * the hash, so entries of the old passcode are never found again (they age out). Looking a key up in a
 * Map is not constant-time, but the keys are HMAC outputs an attacker cannot steer, so its timing says
 * nothing about how close a guess was. Bounded in count (least recently used goes first) and in age
 * (an entry is trusted for `ttlMs` after scrypt accepted it, however often it is used).
 */
import { createHmac, randomBytes } from 'node:crypto';
import type { Clock } from '../clock.js';
import { passcodeMatches } from './passcodes.js';

export interface StoredPasscode {
  hash: string;
  salt: string;
}

/** The scrypt check; injected so tests can count how often it runs. */
export type PasscodeHasher = (attempt: string, stored: StoredPasscode) => Promise<boolean>;

export interface VerifiedPasscodeOptions {
  maxEntries: number;
  ttlMs: number;
  hasher: PasscodeHasher;
}

export const DEFAULT_VERIFIED_PASSCODE_OPTIONS: VerifiedPasscodeOptions = { maxEntries: 10_000, ttlMs: 10 * 60_000, hasher: passcodeMatches };

export interface VerifiedPasscodes {
  /** Whether `attempt` is the portal's passcode; runs scrypt only when this pair was not recently accepted. */
  matches(portalId: string, stored: StoredPasscode, attempt: string): Promise<boolean>;
  /** How many accepted pairs are remembered (tests). */
  readonly size: number;
}

export function verifiedPasscodes(clock: Clock, options: Partial<VerifiedPasscodeOptions> = {}): VerifiedPasscodes {
  const { maxEntries, ttlMs, hasher } = { ...DEFAULT_VERIFIED_PASSCODE_OPTIONS, ...options };
  const hmacKey = randomBytes(32);
  /** Key → when scrypt accepted it; Map order is recency of use (oldest first). */
  const accepted = new Map<string, number>();
  /** Checks under way, so a page's parallel thumbnail and listing requests share one scrypt. */
  const pending = new Map<string, Promise<boolean>>();

  const keyOf = (portalId: string, stored: StoredPasscode, attempt: string): string =>
    createHmac('sha256', hmacKey).update([portalId, stored.hash, stored.salt, attempt.normalize('NFC')].join('\n')).digest('base64url');
  const remember = (key: string): void => {
    accepted.delete(key);
    accepted.set(key, clock.now());
    while (accepted.size > maxEntries) {
      const oldest = accepted.keys().next();
      if (oldest.done === true) break;
      accepted.delete(oldest.value);
    }
  };

  return {
    async matches(portalId, stored, attempt) {
      const key = keyOf(portalId, stored, attempt);
      const at = accepted.get(key);
      if (at !== undefined && clock.now() - at < ttlMs) {
        // Move to the back: recently used entries are the last to be dropped.
        accepted.delete(key);
        accepted.set(key, at);
        return true;
      }
      accepted.delete(key);
      const running = pending.get(key);
      if (running !== undefined) return running;
      const check = hasher(attempt, stored).then((ok) => {
        if (ok) remember(key);
        return ok;
      });
      pending.set(key, check);
      try {
        return await check;
      } finally {
        pending.delete(key);
      }
    },
    get size() {
      return accepted.size;
    },
  };
}
