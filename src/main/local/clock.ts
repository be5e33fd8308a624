/**
 * Time for the local side behind an interface (STYLE.md), so debouncing and the stability gate are
 * tested with a ManualClock and never wait for real. A superset of the API client's ClientClock, so the
 * engine can pass one clock to both.
 */
import { setTimeout as delay } from 'node:timers/promises';

/** Cancels a timer; calling it after the timer fired, or twice, does nothing. */
export type CancelTimer = () => void;

export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Runs `callback` once after `ms`. */
  setTimer(ms: number, callback: () => void): CancelTimer;
  /** Resolves after `ms`; rejects with the signal's reason when it aborts first. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimer(ms, callback) {
    const timer = setTimeout(callback, ms);
    return () => clearTimeout(timer);
  },
  sleep: async (ms, signal) => {
    await delay(ms, undefined, signal === undefined ? undefined : { signal });
  },
};
