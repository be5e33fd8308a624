/**
 * The one throttle of credential attempts [ours]: sign-in passwords (keyed by the e-mail typed), sign-ups
 * (by the e-mail signed up), client secrets (by client id) and portal passcodes (by portal), each per
 * subject and client address.
 *
 * - Per subject and address: an address may fail a few times freely, then waits before each next attempt,
 *   the wait doubling with each further failure (up to a cap); a success clears its record, and a quiet
 *   window forgets it. Nobody else's failures on the subject ever make an address wait, so an attacker
 *   elsewhere cannot lock the right user out.
 * - Per subject, looser: a subject under a spread-out guess (`perSubject` failures from all addresses
 *   together in the window) gives every address one free failure only, so spreading guesses over
 *   addresses buys one guess each before the backoff, while the right user's first try still goes through.
 * - Per address, across subjects (`perClient`): an address that fails that often in the window, whatever
 *   it tries, waits too (with the same doubling), so trying one password on many accounts is slowed.
 *
 * An attempt within a wait is refused before any credential is checked, so a throttled flood costs no
 * hashing. Unknown subjects (an e-mail no one has) are throttled exactly like known ones: the throttle
 * never tells which exist. Kept in memory, not in the database: one service process owns its data
 * directory (the lock), so nothing is shared, and a flood of failures must not become a flood of
 * writes; a restart forgets, which costs an attacker a restart they cannot cause. Time comes from the clock.
 */
import type { Clock } from '../clock.js';
import { ServiceError } from '../errors/service-error.js';

export interface AttemptLimits {
  /** Failures an address may make on a subject before it waits (one only while the subject is under a spread-out guess). */
  freeFailures: number;
  /** The first wait; each further failure doubles it, up to `maxWaitMs`. */
  baseWaitMs: number;
  maxWaitMs: number;
  /** Failures on one subject from all addresses in `windowMs` that put it under a spread-out guess. */
  perSubject: number;
  /** Failures from one address on all subjects in `windowMs` before it waits for each next attempt. */
  perClient: number;
  /** How long a failure counts: an address, or a subject, quiet that long starts afresh. */
  windowMs: number;
}

const MINUTE = 60_000;

/** Portal passcodes: the portal is the subject. */
export const PASSCODE_LIMITS: AttemptLimits = { freeFailures: 5, baseWaitMs: 30_000, maxWaitMs: 15 * MINUTE, perSubject: 100, perClient: Number.POSITIVE_INFINITY, windowMs: 15 * MINUTE };
/** Passwords at the sign-in form: the e-mail typed is the subject. */
export const SIGN_IN_LIMITS: AttemptLimits = { freeFailures: 5, baseWaitMs: 30_000, maxWaitMs: 15 * MINUTE, perSubject: 100, perClient: 50, windowMs: 15 * MINUTE };
/** Client secrets at the token endpoint: the client id is the subject. */
export const CLIENT_SECRET_LIMITS: AttemptLimits = SIGN_IN_LIMITS;
/** Sign-ups: every one counts (none proves the address is the caller's); the e-mail is the subject. */
export const SIGN_UP_LIMITS: AttemptLimits = { freeFailures: 3, baseWaitMs: 60_000, maxWaitMs: 60 * MINUTE, perSubject: 10, perClient: 10, windowMs: 60 * MINUTE };

/** Keeps the tables from growing without bound under a flood of distinct addresses or subjects. */
const MAX_TRACKED_KEYS = 100_000;

export interface AttemptLimiter {
  /** Seconds to wait before trying again, or 0 when an attempt may be made now. */
  retryAfter(subject: string, client: string): number;
  failed(subject: string, client: string): void;
  succeeded(subject: string, client: string): void;
}

interface Record {
  failures: number;
  lastAt: number;
}

export function attemptLimiter(clock: Clock, limits: AttemptLimits): AttemptLimiter {
  const pairs = new Map<string, Record>();
  const clients = new Map<string, Record>();
  const subjects = new Map<string, number[]>();
  const bounded = <V>(map: Map<string, V>, key: string): void => {
    if (map.has(key) || map.size < MAX_TRACKED_KEYS) return;
    const first = map.keys().next();
    if (first.done !== true) map.delete(first.value);
  };
  const subjectFailures = (subject: string): number[] => {
    const since = clock.now() - limits.windowMs;
    const kept = (subjects.get(subject) ?? []).filter((at) => at > since);
    if (kept.length === 0) subjects.delete(subject);
    else subjects.set(subject, kept);
    return kept;
  };
  /** The record under `key`, unless it has been quiet for a window. */
  const recordOf = (map: Map<string, Record>, key: string): Record | undefined => {
    const record = map.get(key);
    if (record !== undefined && clock.now() - record.lastAt >= limits.windowMs) {
      map.delete(key);
      return undefined;
    }
    return record;
  };
  /** Seconds left of the wait after `record`'s last failure, once it has more than `free` of them. */
  const waitOf = (record: Record | undefined, free: number): number => {
    if (record === undefined || record.failures < free) return 0;
    const wait = Math.min(limits.maxWaitMs, limits.baseWaitMs * 2 ** (record.failures - free));
    const left = record.lastAt + wait - clock.now();
    return left <= 0 ? 0 : Math.max(1, Math.ceil(left / 1000));
  };
  const count = (map: Map<string, Record>, key: string): void => {
    bounded(map, key);
    map.set(key, { failures: (recordOf(map, key)?.failures ?? 0) + 1, lastAt: clock.now() });
  };
  const pairKey = (subject: string, client: string): string => `${subject}\n${client}`;
  return {
    retryAfter(subject, client) {
      const free = subjectFailures(subject).length >= limits.perSubject ? 1 : limits.freeFailures;
      return Math.max(waitOf(recordOf(pairs, pairKey(subject, client)), free), waitOf(recordOf(clients, client), limits.perClient));
    },
    failed(subject, client) {
      count(pairs, pairKey(subject, client));
      count(clients, client);
      bounded(subjects, subject);
      // Only whether `perSubject` failures fall in the window matters: the newest that many are kept.
      subjects.set(subject, [...subjectFailures(subject), clock.now()].slice(-limits.perSubject));
    },
    succeeded(subject, client) {
      pairs.delete(pairKey(subject, client));
    },
  };
}

/** `429 TOO_MANY_ATTEMPTS` with `Retry-After`, in words a person can act on ("sign-in", "sign-up", …). */
export function tooManyAttempts(what: string, waitSeconds: number): ServiceError {
  return new ServiceError('TOO_MANY_ATTEMPTS', `Too many ${what} attempts. Try again in ${waitSeconds} s.`, { 'retry-after': String(waitSeconds) });
}
