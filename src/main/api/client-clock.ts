/**
 * The clock of the API client: the time and a cancellable sleep, injected so that tests and the
 * simulation never wait for real. Leaf module: it imports nothing of the client.
 */
import { setTimeout as delay } from 'node:timers/promises';

export interface ClientClock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Resolves after `ms`; rejects (with the signal's reason) when the signal aborts first. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const systemClock: ClientClock = {
  now: () => Date.now(),
  sleep: async (ms, signal) => {
    await delay(ms, undefined, signal === undefined ? undefined : { signal });
  },
};
