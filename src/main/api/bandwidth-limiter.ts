/**
 * A token bucket shared by every transfer in one direction: each transfer asks `grant()` before each
 * piece it sends (or pipes its bytes through a Transform from `throttle()`, which does the same), and
 * all of them draw from the same bucket, in arrival order, so the cap holds for the sum. The rate can
 * change while transfers run; `null` lifts it. Time comes from the injected clock, so tests run at
 * full speed. It never buffers more than one chunk per transfer.
 */
import { Transform, type TransformCallback } from 'node:stream';
import type { ClientClock } from './client-clock.js';

export interface BandwidthLimiter {
  /** Bytes per second, or null for no cap. */
  readonly rate: number | null;
  setRate(bytesPerSecond: number | null): void;
  /**
   * Waits its turn and for tokens, and answers how many of `bytes` may be sent now: all of them when
   * there is no cap, else at most a bucket's worth (the caller asks again for the rest). Rejects with
   * the signal's reason, taking nothing, when `signal` aborts first.
   */
  grant(bytes: number, signal?: AbortSignal): Promise<number>;
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
  // Grants are served one at a time, in order: a small transfer cannot starve a large one, nor the reverse.
  let queue: Promise<void> = Promise.resolve();

  function refill(): void {
    const now = clock.now();
    if (rate !== null) tokens = Math.min(capacityFor(rate), tokens + ((now - updatedAt) * rate) / 1000);
    updatedAt = now;
  }

  // The piece is sized inside the loop, at the rate of the moment: a piece sized before a lower rate
  // was set could exceed the smaller bucket and never be granted.
  async function take(bytes: number, signal: AbortSignal | undefined): Promise<number> {
    for (;;) {
      signal?.throwIfAborted();
      refill();
      if (rate === null) return bytes;
      const piece = Math.min(bytes, capacityFor(rate));
      if (tokens >= piece) {
        tokens -= piece;
        return piece;
      }
      const waitMs = Math.max(1, Math.ceil(((piece - tokens) * 1000) / rate));
      await clock.sleep(waitMs, signal);
    }
  }

  function grant(bytes: number, signal?: AbortSignal): Promise<number> {
    const turn = queue.then(() => take(bytes, signal));
    queue = turn.then(
      () => undefined,
      () => undefined,
    );
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
    grant,
    throttle() {
      return new Transform({
        transform(chunk: Buffer, _encoding, callback: TransformCallback) {
          void (async () => {
            for (let offset = 0; offset < chunk.length; ) {
              const piece = await grant(chunk.length - offset);
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
