/** Time behind an interface so expiry rules are testable without sleeping. */
export interface Clock {
  /** Epoch milliseconds. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** ISO-8601 UTC with milliseconds, the wire format of every date (API.md §1). */
export function isoTime(clock: Clock): string {
  return new Date(clock.now()).toISOString();
}
