/** Time behind an interface so expiry rules are testable without sleeping. */
export interface Clock {
  /** Epoch milliseconds. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** Cancels a timer; doing so twice, or after it fired, does nothing. */
export type CancelTimer = () => void;

/**
 * Timers behind an interface, beside the clock: what a long-lived answer does later (a change-feed
 * stream's keep-alives and its end) then runs on a virtual clock in the simulation, never on a real one.
 */
export interface Timers {
  /** Calls `callback` once, `ms` from now. */
  setTimer(ms: number, callback: () => void): CancelTimer;
}

export const systemTimers: Timers = {
  setTimer: (ms, callback) => {
    // Unref'd: an open socket keeps the service alive, a timer of its own must not.
    const timer = setTimeout(callback, ms).unref();
    return () => clearTimeout(timer);
  },
};

/** ISO-8601 UTC with milliseconds, the wire format of every date (API.md §1). */
export function isoTime(clock: Clock): string {
  return new Date(clock.now()).toISOString();
}
