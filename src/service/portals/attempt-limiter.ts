/**
 * Limits wrong passcode attempts [ours], per portal and client address: an address may fail a few times
 * freely, then waits before each next attempt, the wait doubling with each further failure (up to a
 * cap); the right passcode clears its record, and a quiet window forgets it. Nobody else's failures
 * ever make an address wait: a visitor with the right passcode is never locked out by others. A portal
 * under a spread-out guess (many failures from all addresses together in the window) gives every
 * address one free failure only, so spreading guesses over addresses buys one guess each before the
 * backoff. An attempt within a wait is refused before any passcode is checked. Kept in memory: a restart
 * forgets, which costs an attacker a restart of the service. Time comes from the clock.
 */
import type { Clock } from '../clock.js';

export interface AttemptLimits {
  /** Failures an address may make before it waits (one only while the portal is under a spread-out guess). */
  freeFailures: number;
  /** The first wait; each further failure doubles it, up to `maxWaitMs`. */
  baseWaitMs: number;
  maxWaitMs: number;
  /** Failures from all addresses in `windowMs` that put the portal under a spread-out guess. */
  perPortal: number;
  /** How long a failure counts: an address, or the portal, quiet that long starts afresh. */
  windowMs: number;
}

export const DEFAULT_ATTEMPT_LIMITS: AttemptLimits = { freeFailures: 5, baseWaitMs: 30_000, maxWaitMs: 15 * 60_000, perPortal: 100, windowMs: 15 * 60_000 };

/** Keeps the tables from growing without bound under a flood of distinct addresses. */
const MAX_TRACKED_KEYS = 100_000;

export interface AttemptLimiter {
  /** Seconds to wait before trying again, or 0 when an attempt may be made now. */
  retryAfter(portalId: string, client: string): number;
  failed(portalId: string, client: string): void;
  succeeded(portalId: string, client: string): void;
}

interface Record {
  failures: number;
  lastAt: number;
}

export function attemptLimiter(clock: Clock, limits: AttemptLimits = DEFAULT_ATTEMPT_LIMITS): AttemptLimiter {
  const clients = new Map<string, Record>();
  const portals = new Map<string, number[]>();
  const bounded = <V>(map: Map<string, V>, key: string): void => {
    if (map.has(key) || map.size < MAX_TRACKED_KEYS) return;
    const first = map.keys().next();
    if (first.done !== true) map.delete(first.value);
  };
  const portalFailures = (portalId: string): number[] => {
    const since = clock.now() - limits.windowMs;
    const kept = (portals.get(portalId) ?? []).filter((at) => at > since);
    if (kept.length === 0) portals.delete(portalId);
    else portals.set(portalId, kept);
    return kept;
  };
  /** The address's record, unless it has been quiet for a window. */
  const recordOf = (key: string): Record | undefined => {
    const record = clients.get(key);
    if (record !== undefined && clock.now() - record.lastAt >= limits.windowMs) {
      clients.delete(key);
      return undefined;
    }
    return record;
  };
  return {
    retryAfter(portalId, client) {
      const record = recordOf(`${portalId} ${client}`);
      if (record === undefined) return 0;
      const free = portalFailures(portalId).length >= limits.perPortal ? 1 : limits.freeFailures;
      if (record.failures < free) return 0;
      const wait = Math.min(limits.maxWaitMs, limits.baseWaitMs * 2 ** (record.failures - free));
      const left = record.lastAt + wait - clock.now();
      return left <= 0 ? 0 : Math.max(1, Math.ceil(left / 1000));
    },
    failed(portalId, client) {
      const key = `${portalId} ${client}`;
      bounded(clients, key);
      clients.set(key, { failures: (recordOf(key)?.failures ?? 0) + 1, lastAt: clock.now() });
      bounded(portals, portalId);
      // Only whether `perPortal` failures fall in the window matters: the newest that many are kept.
      portals.set(portalId, [...portalFailures(portalId), clock.now()].slice(-limits.perPortal));
    },
    succeeded(portalId, client) {
      clients.delete(`${portalId} ${client}`);
    },
  };
}
