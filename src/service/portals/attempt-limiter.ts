/**
 * Limits wrong passcode attempts [ours]: per portal and client address, at most `perClient` failures in
 * a window; per portal, at most `perPortal` failures in a window from all addresses together (so spreading
 * a guess over many addresses does not help). Once a limit is reached, every attempt is refused before any
 * passcode is checked, until the window that holds the oldest counted failure ends. Kept in memory: a
 * restart forgets, which costs an attacker a restart of the service per window. Time comes from the clock.
 */
import type { Clock } from '../clock.js';

export interface AttemptLimits {
  perClient: number;
  perPortal: number;
  windowMs: number;
}

export const DEFAULT_ATTEMPT_LIMITS: AttemptLimits = { perClient: 5, perPortal: 100, windowMs: 15 * 60_000 };

/** Keeps the failures table from growing without bound under a flood of distinct addresses. */
const MAX_TRACKED_KEYS = 100_000;

export interface AttemptLimiter {
  /** Seconds to wait before trying again, or 0 when an attempt may be made now. */
  retryAfter(portalId: string, client: string): number;
  failed(portalId: string, client: string): void;
  succeeded(portalId: string, client: string): void;
}

export function attemptLimiter(clock: Clock, limits: AttemptLimits = DEFAULT_ATTEMPT_LIMITS): AttemptLimiter {
  const failures = new Map<string, number[]>();
  const recent = (key: string): number[] => {
    const since = clock.now() - limits.windowMs;
    const kept = (failures.get(key) ?? []).filter((at) => at > since);
    if (kept.length === 0) failures.delete(key);
    else failures.set(key, kept);
    return kept;
  };
  const wait = (times: number[], limit: number): number => {
    const oldest = times[times.length - limit];
    return times.length < limit || oldest === undefined ? 0 : Math.max(1, Math.ceil((oldest + limits.windowMs - clock.now()) / 1000));
  };
  const record = (key: string): void => {
    if (!failures.has(key) && failures.size >= MAX_TRACKED_KEYS) {
      const first = failures.keys().next();
      if (first.done !== true) failures.delete(first.value);
    }
    failures.set(key, [...recent(key), clock.now()]);
  };
  return {
    retryAfter(portalId, client) {
      return Math.max(wait(recent(`${portalId} ${client}`), limits.perClient), wait(recent(portalId), limits.perPortal));
    },
    failed(portalId, client) {
      record(`${portalId} ${client}`);
      record(portalId);
    },
    succeeded(portalId, client) {
      failures.delete(`${portalId} ${client}`);
    },
  };
}
