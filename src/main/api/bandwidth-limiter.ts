/**
 * A token bucket shared by every transfer in one direction: each transfer pipes its bytes through a
 * Transform from `throttle()`, and all of them draw from the same bucket, in arrival order, so the cap
 * holds for the sum. The rate can change while transfers run; `null` lifts it. Time comes from the
 * injected clock, so tests run at full speed. It never buffers more than one chunk per transfer.
 */
import { Transform, type TransformCallback } from 'node:stream';
import type { ClientClock } from './client-clock.js';

export interface BandwidthLimiter {
  /** Bytes per second, or null for no cap. */
  readonly rate: number | null;
  setRate(bytesPerSecond: number | null): void;
  /** A pass-through stream that waits for tokens before letting each piece of a chunk through. */
  throttle(): Transform;
}

/** The bucket holds a quarter of a second's worth, and never less than 16 KiB, so bursts stay small. */
function capacityFor(rate: number): number {
  return Math.max(16 * 1024, Math.floor(rate / 4));
}

export function createBandwidthLimiter(clock: ClientClock, initialRate: number | null = null): BandwidthLimiter {
  let rate = normalise(initialRate);
  let tokens = rate === null ? 0 : capacityFor(rate);
  let updatedAt = clock.now();
  // Takes are served one at a time, in order: a small transfer cannot starve a large one, nor the reverse.
  let queue: Promise<void> = Promise.resolve();

  function refill(): void {
    const now = clock.now();
    if (rate !== null) tokens = Math.min(capacityFor(rate), tokens + ((now - updatedAt) * rate) / 1000);
    updatedAt = now;
  }

  async function take(bytes: number): Promise<void> {
    for (;;) {
      refill();
      if (rate === null) return;
      if (tokens >= bytes) {
        tokens -= bytes;
        return;
      }
      const waitMs = Math.max(1, Math.ceil(((bytes - tokens) * 1000) / rate));
      await clock.sleep(waitMs);
    }
  }

  function takeInTurn(bytes: number): Promise<void> {
    const turn = queue.then(() => take(bytes));
    queue = turn.catch(() => undefined);
    return turn;
  }

  const limiter: BandwidthLimiter = {
    get rate() {
      return rate;
    },
    setRate(bytesPerSecond) {
      refill();
      rate = normalise(bytesPerSecond);
      if (rate !== null) tokens = Math.min(tokens, capacityFor(rate));
    },
    throttle() {
      return new Transform({
        transform(chunk: Buffer, _encoding, callback: TransformCallback) {
          void (async () => {
            let offset = 0;
            while (offset < chunk.length) {
              const piece = rate === null ? chunk.length - offset : Math.min(chunk.length - offset, capacityFor(rate));
              await takeInTurn(piece);
              this.push(chunk.subarray(offset, offset + piece));
              offset += piece;
            }
          })().then(
            () => callback(),
            (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
          );
        },
      });
    },
  };
  return limiter;
}

function normalise(rate: number | null): number | null {
  return rate === null || !Number.isFinite(rate) || rate <= 0 ? null : rate;
}
