/**
 * The one gate of password and passcode hashing. scrypt runs on libuv's thread pool (four threads by
 * default), which file reads and writes share: left alone, a flood of sign-ins fills every thread and
 * downloads and uploads wait behind it. So at most `concurrency` hashes run at once (two: half the
 * pool), at most `queued` more wait their turn, and a hash beyond that is refused at once with
 * `503 HASHING_BUSY` and `Retry-After` rather than queued for ever. Every hash a request can start goes
 * through here: sign-in (the decoy hash for an unknown e-mail included, so it costs the same), sign-up
 * and portal passcodes. Built once per service (create-service.ts) and shared through the context.
 */
import { ServiceError } from '../errors/service-error.js';

export interface HashingPool {
  /** Runs `work` once a slot is free; throws HASHING_BUSY when `queued` hashes are already waiting. */
  run<T>(work: () => Promise<T>): Promise<T>;
}

export interface HashingLimits {
  concurrency: number;
  queued: number;
}

export const HASHING_LIMITS: HashingLimits = { concurrency: 2, queued: 16 };

/** How long a refused caller is told to wait: a queue's worth of hashes takes about this long. */
const RETRY_AFTER_SECONDS = 1;

export function hashingPool(limits: HashingLimits = HASHING_LIMITS): HashingPool {
  let running = 0;
  const waiting: Array<() => void> = [];
  const release = (): void => {
    const next = waiting.shift();
    if (next === undefined) running -= 1;
    else next();
  };
  return {
    async run(work) {
      if (running >= limits.concurrency) {
        if (waiting.length >= limits.queued) {
          throw new ServiceError('HASHING_BUSY', `The service is busy checking other passwords. Try again in ${RETRY_AFTER_SECONDS} s.`, { 'retry-after': String(RETRY_AFTER_SECONDS) });
        }
        // The slot is handed over by `release`: `running` stays counted for the next in line.
        await new Promise<void>((resolve) => waiting.push(resolve));
      } else {
        running += 1;
      }
      try {
        return await work();
      } finally {
        release();
      }
    },
  };
}
